import { NestFactory } from '@nestjs/core';
import { performance } from 'node:perf_hooks';
import { AppModule } from '../../src/app.module';
import type { AppEnv } from '../../src/config/env';
import { JOBS_TICK_MS } from '../../src/modules/leaderboards/leaderboard-jobs.service';
import { LeaderboardSnapshotService } from '../../src/modules/leaderboards/leaderboard-snapshot.service';
import { LARGE_BOARD, uidOf, userRanges } from '../lib/dataset';
import { BOARDS, rankedUsers } from './leaderboards';
import { cycle, measured, warmTokens, type BenchContext, type ScenarioRow } from './context';
import { clientResult, Random } from './result-body';
import { planRound } from './submit';

/** New personal bests whose freshness scenario 7a measures (their p99 is their slowest but one of 40). */
const FRESH_USERS = 40;
/** Submissions per second running under the reads of scenario 7b. */
const STREAM_RATE = 100;
/** Polling for a new best stops well after the freshness target (FRESH_TARGET_S). */
const FRESH_GIVE_UP_S = 75;
const POLL_MS = 250;
const PAGE_SIZE = 50;
const STREAM_WARMUP_MS = 5_000;

interface Fresh {
  uid: string;
  token: string;
  body: string;
  wpm: number;
}

/**
 * Finds, for each user, a generated test that is a new personal best on the 1M board (english time 15, no
 * punctuation) with a higher wpm than the user's current best there.
 */
function freshBests(context: BenchContext, users: { uid: string; wpm: number }[]): Fresh[] {
  // A new seed every run: the same bodies again would be duplicates, not new personal bests.
  const rng = new Random(Date.now());
  const out: Fresh[] = [];
  for (const user of users) {
    for (let attempt = 0; attempt < 5_000; attempt++) {
      const result = clientResult(rng, user.uid, Date.now() + attempt);
      if (
        result.mode === LARGE_BOARD.mode &&
        result.mode2 === LARGE_BOARD.mode2 &&
        result.language === LARGE_BOARD.language &&
        result.punctuation === false &&
        (result.wpm as number) > user.wpm + 1
      ) {
        out.push({
          uid: user.uid,
          token: context.issuer.token(user.uid),
          body: JSON.stringify({ result }),
          wpm: result.wpm as number,
        });
        break;
      }
    }
  }
  return out;
}

async function post(context: BenchContext, token: string, body: string): Promise<number> {
  const res = await fetch(`${context.servers.ours.url}/results`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** A steady stream of submissions (open loop: one every 1000/rate ms, whatever the answers take). */
function submissionStream(context: BenchContext, from: number, to: number, rate: number) {
  const rng = new Random(Date.now() + 1);
  let next = from;
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const timer = setInterval(() => {
    if (next >= to) return;
    const uid = uidOf(next++);
    const request = post(
      context,
      context.issuer.token(uid),
      JSON.stringify({ result: clientResult(rng, uid, Date.now()) }),
    )
      .then((status) => {
        sent++;
        if (status !== 200) failed++;
      })
      .catch(() => void failed++)
      .finally(() => inFlight.delete(request));
    inFlight.add(request);
  }, 1000 / rate);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { sent, failed };
    },
  };
}

/** Submissions sent at full speed right before the freshness clock starts (as scenario 1's, whichever ran first). */
const BURST = 20_000;

/**
 * A burst of BURST submissions at full speed, one per user no other scenario submits for, so the freshness of 7a is
 * measured behind the queue a burst leaves, not on an idle one.
 */
async function submissionBurst(
  context: BenchContext,
): Promise<{ row: ScenarioRow; sent: number; queued: number }> {
  // Read users past the ones scenario 11 submits for: nothing else submitted for them, so none is refused for spacing.
  const ranges = userRanges(context.size, context.submitRequests);
  const from = ranges.reads.from + 2_000;
  const count = Math.min(BURST, Math.max(0, ranges.stream.from - from));
  const { planned, tokens } = planRound(context, from, from + count, new Random(Date.now() + 7));
  await warmTokens(context, context.servers.ours, tokens);
  context.log(`scenario 7a: a burst of ${count} submissions before the freshness clock starts ...`);
  let next = 0;
  const result = await measured(context, context.servers.ours, {
    amount: planned.length,
    next: () => planned[next++ % planned.length]!,
  });
  const { rows } = await context.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM leaderboard_best_changes',
  );
  return {
    sent: count,
    queued: Number(rows[0]?.n ?? 0),
    row: {
      id: '7-burst',
      scenario: 'POST /results burst before the freshness check',
      server: 'ours',
      result,
      note: `${count} submissions; ${rows[0]?.n ?? 0} board changes queued when it ended`,
    },
  };
}

/**
 * Scenario 7: live all-time ranks. The live-update job runs as the jobs tick runs it (every JOBS_TICK_MS), in an
 * application context of this process on the same stores (the server runs with jobs off, so no scheduled rebuild lands
 * mid-run). (a) Freshness: right after a burst of BURST submissions, new personal bests are submitted through
 * `POST /results` for users of the 1M board, and each user's `GET /leaderboards/rank` is polled until it shows the new
 * best with its rank (the report's target: p99 within FRESH_TARGET_S). (b) Page and rank reads on
 * the 10k and the 1M board while STREAM_RATE submissions a second run.
 */
export async function liveRanksScenario(context: BenchContext, env: AppEnv): Promise<ScenarioRow[]> {
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ env: { ...env, jobsEnabled: false } }),
    { logger: ['error', 'warn'] },
  );
  const snapshot = app.get(LeaderboardSnapshotService);
  const applied: number[] = [];
  let ticking: Promise<unknown> = Promise.resolve();
  const tick = () => {
    ticking = ticking.then(async () => {
      const started = performance.now();
      // As the jobs tick runs it: the whole queue, in batches.
      const pairs = await snapshot.drainLiveChanges();
      const ms = performance.now() - started;
      if (pairs !== null && pairs > 0) applied.push(ms);
      context.log(
        `scenario 7: live update applied ${pairs ?? 'nothing (busy)'} changes in ${ms.toFixed(0)} ms`,
      );
    });
  };
  const ticker = setInterval(tick, JOBS_TICK_MS);
  const rows: ScenarioRow[] = [];
  const ranges = userRanges(context.size, context.submitRequests);
  try {
    // (a) freshness: full users at the end of the id range (no other scenario submits for them).
    const reserved = ranges.freshBests;
    const candidates = Array.from({ length: reserved.to - reserved.from }, (_, i) =>
      uidOf(reserved.to - 1 - i),
    );
    const { rows: bests } = await context.pool.query<{ uid: string; wpm: number }>(
      `SELECT p.uid, p.wpm FROM personal_bests p JOIN users u ON u.uid = p.uid
       WHERE p.uid = ANY($1) AND p.language = $2 AND p.mode = $3 AND p.mode2 = $4 AND p.difficulty = 'normal'
         AND NOT p.punctuation AND NOT p.numbers AND NOT p.lazy_mode
         AND NOT u.banned AND NOT u.lb_opt_out AND u.time_typing > 7200 AND p.wpm < 120
       LIMIT $5`,
      [candidates, LARGE_BOARD.language, LARGE_BOARD.mode, LARGE_BOARD.mode2, FRESH_USERS],
    );
    const fresh = freshBests(context, bests);
    const burst = await submissionBurst(context);
    rows.push(burst.row);
    // Each token verified once before the clock starts (fewer tokens than the load generator's connections).
    for (const f of fresh) {
      await (
        await fetch(`${context.servers.ours.url}/users/streak`, {
          headers: { authorization: `Bearer ${f.token}` },
        })
      ).arrayBuffer();
    }

    context.log(
      `scenario 7a: ${fresh.length} new personal bests on the 1M board, job every ${JOBS_TICK_MS / 1000} s ...`,
    );
    const rankPath = `/leaderboards/rank?language=${LARGE_BOARD.language}&mode=${LARGE_BOARD.mode}&mode2=${LARGE_BOARD.mode2}`;
    const seconds: number[] = [];
    let wrongRanks = 0;
    let refused = 0;
    await Promise.all(
      fresh.map(async (f, i) => {
        // Spread over a tick, so the figures cover submissions early and late in the job's period.
        await new Promise((resolve) => setTimeout(resolve, (i * JOBS_TICK_MS) / fresh.length));
        const started = performance.now();
        const status = await post(context, f.token, f.body);
        if (status !== 200) {
          refused++;
          return;
        }
        while (performance.now() - started < FRESH_GIVE_UP_S * 1000) {
          const res = await fetch(`${context.servers.ours.url}${rankPath}`, {
            headers: { authorization: `Bearer ${f.token}` },
          });
          const body = (await res.json()) as { data?: { wpm?: number; rank?: number } | null };
          if (body.data?.wpm === f.wpm) {
            seconds.push((performance.now() - started) / 1000);
            // The rank it shows is the count of entries ahead of it, plus one.
            const { rows: ahead } = await context.pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM leaderboard_entries e JOIN leaderboard_boards b ON b.id = e.board_id
               JOIN leaderboard_entries me ON me.board_id = b.id AND me.uid = $4
               WHERE b.language = $1 AND b.mode = $2 AND b.mode2 = $3
                 AND (-e.wpm, -e.acc, e.timestamp, e.uid) < (-me.wpm, -me.acc, me.timestamp, me.uid)`,
              [LARGE_BOARD.language, LARGE_BOARD.mode, LARGE_BOARD.mode2, f.uid],
            );
            if (i < 5 && Number(ahead[0]?.n) + 1 !== body.data.rank) wrongRanks++;
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        }
      }),
    );
    seconds.sort((a, b) => a - b);
    const p99 =
      seconds.length === fresh.length - refused && seconds.length > 0
        ? seconds[Math.min(seconds.length - 1, Math.ceil(0.99 * seconds.length) - 1)]!
        : Infinity;
    const worst = seconds.length > 0 ? seconds[seconds.length - 1]! : Infinity;
    rows.push({
      id: '7-fresh',
      scenario: 'new personal best shown with its rank (1M board)',
      server: 'ours',
      result: null,
      seconds: p99,
      note:
        `right after a burst of ${burst.sent} submissions (${burst.queued} board changes queued); ` +
        `${seconds.length}/${fresh.length} shown; median ${(seconds[Math.floor(seconds.length / 2)] ?? NaN).toFixed(1)} s, ` +
        `p99 ${p99.toFixed(1)} s, max ${worst.toFixed(1)} s; ${refused} submissions refused; ${wrongRanks} wrong ranks ` +
        `(of 5 checked); job runs with changes: ${applied.length}, ${applied.map((ms) => ms.toFixed(0)).join('/')} ms`,
    });

    // (b) reads while a stream of submissions runs.
    const stream = submissionStream(context, ranges.stream.from, ranges.stream.to, STREAM_RATE);
    try {
      // The stream at its steady rate (and a live update having seen it) before the clock starts.
      await new Promise((resolve) => setTimeout(resolve, STREAM_WARMUP_MS));
      for (const { label, board } of BOARDS) {
        const query = `language=${board.language}&mode=${board.mode}&mode2=${board.mode2}`;
        const count = (await (await fetch(`${context.servers.ours.url}/leaderboards?${query}`)).json()) as {
          data: { count: number };
        };
        const pages = Math.max(1, Math.ceil(count.data.count / PAGE_SIZE));
        const rng = new Random(70);
        context.log(`scenario 7b: pages of the ${label} board under ${STREAM_RATE} submissions/s ...`);
        const result = await measured(context, context.servers.ours, {
          next: () => ({
            method: 'GET',
            path: `/leaderboards?${query}&page=${rng.int(0, pages - 1)}&pageSize=${PAGE_SIZE}`,
          }),
        });
        rows.push({
          id: `7-page-${label}`,
          scenario: `GET /leaderboards page under submissions, ${label} board`,
          server: 'ours',
          result,
          note: `${count.data.count} entries`,
        });
      }
      for (const { label, board } of BOARDS) {
        const tokens = (await rankedUsers(context, board)).map((uid) => context.issuer.token(uid));
        await warmTokens(context, context.servers.ours, tokens);
        const nextToken = cycle(tokens);
        const path = `/leaderboards/rank?language=${board.language}&mode=${board.mode}&mode2=${board.mode2}`;
        context.log(`scenario 7b: ranks on the ${label} board under ${STREAM_RATE} submissions/s ...`);
        const result = await measured(context, context.servers.ours, {
          next: () => ({ method: 'GET', path, headers: { authorization: `Bearer ${nextToken()}` } }),
        });
        rows.push({
          id: `7-rank-${label}`,
          scenario: `GET /leaderboards/rank under submissions, ${label} board`,
          server: 'ours',
          result,
        });
      }
    } finally {
      const streamed = await stream.stop();
      context.log(`scenario 7b: ${streamed.sent} submissions streamed, ${streamed.failed} not 200`);
      const jobs = `live-update runs: ${applied.map((ms) => ms.toFixed(0)).join('/')} ms`;
      rows.forEach((r) => {
        if (r.id.startsWith('7-') && r.id !== '7-fresh')
          r.note = `${r.note ? `${r.note}; ` : ''}${streamed.sent} submissions streamed (${streamed.failed} not 200); ${jobs}`;
      });
    }
  } finally {
    clearInterval(ticker);
    await ticking;
    await app.close();
  }
  return rows;
}
