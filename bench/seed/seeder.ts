import pg from 'pg';
import { LANGUAGES } from '../../src/common/languages';
import { createDatabase } from '../../src/infra/database/database';
import { migrateToLatest } from '../../src/infra/database/migrator';
import { copyLeaderboardBests, SnapshotRepository } from '../../src/modules/leaderboards/snapshot.repository';
import { BOARD_MODES, type DatasetSize } from '../lib/dataset';
import { Progress } from '../lib/progress';
import {
  BOARD_PERSONAL_BESTS_INSERT,
  BOARD_USERS_INSERT,
  FULL_PERSONAL_BESTS_INSERT,
  FULL_RESULTS_GENERATE,
  FULL_RESULTS_INSERT,
  FULL_TEST_ACTIVITY_INSERT,
  FULL_USERS_BATCH,
  FULL_USERS_INSERT,
} from './statements';

export interface SeedOptions extends DatasetSize {
  databaseUrl: string;
  /** Empty the dataset first. */
  reset: boolean;
  /** Batches written in parallel. */
  jobs: number;
  log: (line: string) => void;
}

export interface SeedSummary {
  /** Rows written by this invocation and how long it took. */
  rowsWritten: number;
  seconds: number;
  /** Seconds the whole dataset took to seed, over every (resumed) invocation. */
  totalSeconds: number;
  tableRows: Record<string, number>;
}

const FULL_BATCH_USERS = 2_000;
const BOARD_BATCH_USERS = 50_000;

// Progress lives in the seeded database itself, committed with each batch: an interrupted run resumes at the first
// batch that did not commit, and a finished one does nothing.
const STATE_TABLES = `
  CREATE TABLE IF NOT EXISTS bench_seed (
    id smallint PRIMARY KEY CHECK (id = 1),
    users integer NOT NULL,
    results_per_user integer NOT NULL,
    board_users integer NOT NULL,
    analyzed boolean NOT NULL DEFAULT false,
    -- Wall-clock seconds of the invocations that wrote to the dataset.
    seconds double precision NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS bench_seed_batches (
    stage text NOT NULL,
    batch integer NOT NULL,
    rows bigint NOT NULL,
    seconds double precision NOT NULL,
    PRIMARY KEY (stage, batch)
  );
`;

interface Batch {
  stage: 'full' | 'board';
  index: number;
  from: number;
  to: number;
}

function batches(stage: Batch['stage'], from: number, to: number, size: number): Batch[] {
  const list: Batch[] = [];
  for (let start = from, index = 0; start < to; start += size, index += 1) {
    list.push({ stage, index, from: start, to: Math.min(to, start + size) });
  }
  return list;
}

async function checkParameters(pool: pg.Pool, options: SeedOptions): Promise<void> {
  if (options.reset) {
    options.log('reset: emptying the dataset');
    // leaderboard_bests too: a TRUNCATE of personal_bests skips the row trigger that would empty it.
    await pool.query('TRUNCATE users, bench_seed, bench_seed_batches, leaderboard_bests CASCADE');
  }
  const { rows } = await pool.query<{ users: number; results_per_user: number; board_users: number }>(
    'SELECT users, results_per_user, board_users FROM bench_seed WHERE id = 1',
  );
  const existing = rows[0];
  if (!existing) {
    const { rows: users } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM users');
    if (Number(users[0]?.n ?? 0) > 0) {
      throw new Error(
        'the database holds users the seeder did not write; seed an empty database or pass --reset',
      );
    }
    await pool.query(
      'INSERT INTO bench_seed (id, users, results_per_user, board_users) VALUES (1, $1, $2, $3)',
      [options.users, options.resultsPerUser, options.boardUsers],
    );
    return;
  }
  if (
    existing.users !== options.users ||
    existing.results_per_user !== options.resultsPerUser ||
    existing.board_users !== options.boardUsers
  ) {
    throw new Error(
      `the dataset was seeded with --users ${existing.users} --results-per-user ${existing.results_per_user} ` +
        `--board-users ${existing.board_users}; pass the same sizes, or --reset to seed anew`,
    );
  }
}

async function isSuperuser(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ rolsuper: boolean }>(
    'SELECT rolsuper FROM pg_roles WHERE rolname = current_user',
  );
  return rows[0]?.rolsuper === true;
}

async function runBatch(
  pool: pg.Pool,
  batch: Batch,
  options: SeedOptions,
  now: number,
  superuser: boolean,
): Promise<number> {
  const client = await pool.connect();
  const startedAt = Date.now();
  try {
    await client.query('BEGIN');
    // A lost batch is redone on the next run, so the seeder need not wait for each commit to reach the disk.
    await client.query('SET LOCAL synchronous_commit = off');
    // The batch's sorts (time order, personal bests) fit in memory instead of spilling to disk.
    await client.query(`SET LOCAL work_mem = '128MB'`);
    // The generated rows reference only users of the same batch: skip the foreign-key triggers when allowed to.
    if (superuser) await client.query('SET LOCAL session_replication_role = replica');
    let rows = 0;
    const count = async (text: string, values: unknown[]) => {
      rows += (await client.query(text, values)).rowCount ?? 0;
    };
    if (batch.stage === 'full') {
      await client.query(FULL_USERS_BATCH, [batch.from, batch.to, now]);
      await count(FULL_USERS_INSERT, [options.resultsPerUser, now]);
      await client.query(FULL_RESULTS_GENERATE, [options.resultsPerUser]);
      await count(FULL_RESULTS_INSERT, []);
      await count(FULL_PERSONAL_BESTS_INSERT, []);
      await count(FULL_TEST_ACTIVITY_INSERT, []);
    } else {
      await count(BOARD_USERS_INSERT, [batch.from, batch.to, now]);
      await count(BOARD_PERSONAL_BESTS_INSERT, [
        batch.from,
        batch.to,
        now,
        LANGUAGES,
        BOARD_MODES.map((m) => m.mode),
        BOARD_MODES.map((m) => m.mode2),
      ]);
    }
    await client.query(
      'INSERT INTO bench_seed_batches (stage, batch, rows, seconds) VALUES ($1, $2, $3, $4)',
      [batch.stage, batch.index, rows, (Date.now() - startedAt) / 1000],
    );
    await client.query('COMMIT');
    return rows;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}

async function runStage(
  pool: pg.Pool,
  label: string,
  list: Batch[],
  done: Set<string>,
  options: SeedOptions,
  now: number,
  superuser: boolean,
): Promise<number> {
  const pending = list.filter((b) => !done.has(`${b.stage}:${b.index}`));
  const users = (b: Batch) => b.to - b.from;
  const total = list.reduce((sum, b) => sum + users(b), 0);
  const progress = new Progress(label, total, total - pending.reduce((sum, b) => sum + users(b), 0));
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const batch = pending[next++] as Batch;
      progress.advance(users(batch), await runBatch(pool, batch, options, now, superuser));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.jobs) }, worker));
  return progress.finish().rows;
}

/** Adds the missing all-time boards (copying their personal bests); whether any were missing. */
async function ensureBoards(pool: pg.Pool, db: ReturnType<typeof createDatabase>): Promise<boolean> {
  const count = async () =>
    Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM leaderboard_boards')).rows[0]?.n ?? 0);
  const before = await count();
  await new SnapshotRepository(db).ensureBoards(LANGUAGES);
  return (await count()) > before;
}

async function tableRows(pool: pg.Pool): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['users', 'results', 'personal_bests', 'test_activity']) {
    // Estimates: counting 5,000,000 rows exactly would take longer than the report is worth.
    const { rows } = await pool.query<{ n: string }>(
      'SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = $1::regclass',
      [table],
    );
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/**
 * Seeds the benchmark dataset (see `DatasetSize`): migrates, then writes full users with their histories and board
 * users with their personal bests, batch by batch, then analyses the tables. Idempotent and resumable.
 */
export async function seed(options: SeedOptions): Promise<SeedSummary> {
  if (options.boardUsers < options.users) throw new Error('--board-users must be at least --users');
  const startedAt = Date.now();
  const db = createDatabase({ url: options.databaseUrl, poolMax: 1 });
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: Math.max(1, options.jobs) + 1 });
  try {
    for (const line of await migrateToLatest(db)) options.log(line);
    await pool.query(STATE_TABLES);
    await checkParameters(pool, options);
    const { rows } = await pool.query<{ stage: string; batch: number }>(
      'SELECT stage, batch FROM bench_seed_batches',
    );
    const done = new Set(rows.map((r) => `${r.stage}:${r.batch}`));
    // The boards before the personal bests: leaderboard_bests only holds bests of boards that exist, and before this
    // the first snapshot build after seeding created the boards and copied 3.2 million bests itself (26 s of a 28 s
    // build). On a dataset seeded without them, this copies their bests now.
    options.log('all-time boards ...');
    const boardsAdded = await ensureBoards(pool, db);
    const now = Date.now();
    const superuser = await isSuperuser(pool);
    let written = 0;
    written += await runStage(
      pool,
      'full users + results',
      batches('full', 0, options.users, FULL_BATCH_USERS),
      done,
      options,
      now,
      superuser,
    );
    written += await runStage(
      pool,
      'board users + PBs',
      batches('board', options.users, options.boardUsers, BOARD_BATCH_USERS),
      done,
      options,
      now,
      superuser,
    );
    if (written > 0) {
      // The batches skip triggers when they can (session_replication_role), the one keeping leaderboard_bests too.
      options.log('leaderboard bests ...');
      await copyLeaderboardBests().execute(db);
    }
    const state = await pool.query<{ analyzed: boolean }>('SELECT analyzed FROM bench_seed WHERE id = 1');
    const analyze = !state.rows[0]?.analyzed;
    // A bulk load finishes its own work: statistics, hint bits and the visibility map of every table it wrote, so the
    // application's first reader (the snapshot build reads all of leaderboard_bests) is not the one to pay for them.
    const bulkLoaded = [
      ...(analyze ? ['users', 'results', 'personal_bests', 'test_activity'] : []),
      ...(analyze || boardsAdded ? ['leaderboard_boards', 'leaderboard_bests'] : []),
    ];
    if (bulkLoaded.length > 0) {
      options.log(`vacuum analyze ${bulkLoaded.join(', ')} ...`);
      await pool.query(`VACUUM (ANALYZE) ${bulkLoaded.join(', ')}`);
    }
    const seconds = (Date.now() - startedAt) / 1000;
    const total = await pool.query<{ seconds: number }>(
      `UPDATE bench_seed SET analyzed = true, seconds = seconds + $1 WHERE id = 1 RETURNING seconds`,
      [written > 0 || bulkLoaded.length > 0 ? seconds : 0],
    );
    return {
      rowsWritten: written,
      seconds,
      totalSeconds: total.rows[0]?.seconds ?? 0,
      tableRows: await tableRows(pool),
    };
  } finally {
    await pool.end();
    await db.destroy();
  }
}
