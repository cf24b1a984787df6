import { createDatabase, type Database } from '../../../src/infra/database/database';
import { startAppProcess, type AppProcess } from '../../support/app-process';
import { createUser } from '../../support/factories';
import { signIdToken, testJwks, TEST_AUDIENCE, TEST_ISSUER } from '../../support/jwks';
import { createTestStores, type TestStores } from '../../support/stores';
import { boardResult, signed } from '../results/result-factory';

const USERS = 60;
const WORKERS = 6;
const KILL_AFTER = 15;

// The production entry in a child process, SIGKILLed while submissions are in flight and started again: PostgreSQL
// must hold every acknowledged result once and no result without the rest of its submission.
describe('server killed with SIGKILL under load', () => {
  let stores: TestStores;
  let db: Database;
  let server: AppProcess | null = null;
  let env: Record<string, string>;

  beforeAll(async () => {
    stores = await createTestStores();
    db = createDatabase({ url: stores.databaseUrl, poolMax: 2 });
    const jwks = await testJwks();
    env = {
      MODE: 'production',
      DATABASE_URL: stores.databaseUrl,
      REDIS_URL: stores.redisUrl,
      AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: TEST_ISSUER,
      OIDC_AUDIENCE: TEST_AUDIENCE,
      OIDC_JWKS_URL: jwks.url,
      LOG_LEVEL: 'silent',
      // The restarted process catches the boards up at start (results committed whose board writes died with it).
      JOBS_ENABLED: 'true',
      RATE_LIMIT_GLOBAL_PER_MINUTE: '100000',
      RATE_LIMIT_OVERRIDES: JSON.stringify({ resultsAdd: { max: 100_000 } }),
    };
  });
  afterAll(async () => {
    await server?.kill();
    await db?.destroy();
  });

  async function post(base: string, uid: string): Promise<{ status: number; id?: string }> {
    const res = await fetch(`${base}/results`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${await signIdToken(uid, Date.now())}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ result: signed(boardResult({ wpm: 50 + Math.random() * 50 }), uid) }),
    });
    const body = (await res.json()) as { data?: { insertedId?: string } };
    return { status: res.status, id: body.data?.insertedId };
  }

  it('keeps every acknowledged submission exactly once and none half-saved', async () => {
    const users = await Promise.all(
      Array.from({ length: USERS }, async () => (await createUser(db, { timeTyping: 10_000 })).uid),
    );
    server = await startAppProcess(env);
    const base = server.url;
    const acknowledged: string[] = [];
    const queue = [...users];
    let killing: Promise<void> | null = null;
    const worker = async () => {
      while (queue.length > 0) {
        const uid = queue.shift() as string;
        const outcome = await post(base, uid).catch(() => ({ status: 0, id: undefined }));
        if (outcome.status === 200 && outcome.id) acknowledged.push(outcome.id);
        else if (outcome.status !== 0) throw new Error(`unexpected status ${outcome.status}`);
        if (acknowledged.length >= KILL_AFTER && !killing) killing = server!.kill();
        if (killing) return;
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    await killing;
    expect(acknowledged.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acknowledged.length).toBeLessThan(USERS);

    const stored = await db.selectFrom('results').select(['id', 'uid']).execute();
    for (const id of acknowledged) expect(stored.filter((r) => r.id === id)).toHaveLength(1);
    // All or nothing per submission: the user's counters and test activity agree with their stored results.
    const perUser = await db
      .selectFrom('users')
      .leftJoin('test_activity', 'test_activity.uid', 'users.uid')
      .select(['users.uid', 'users.completed_tests', 'users.time_typing', 'test_activity.tests'])
      .where('users.uid', 'in', users)
      .execute();
    for (const row of perUser) {
      const results = stored.filter((r) => r.uid === row.uid).length;
      expect({ uid: row.uid, completed: row.completed_tests, activity: row.tests ?? 0 }).toEqual({
        uid: row.uid,
        completed: results,
        activity: results,
      });
      expect(row.time_typing).toBe(10_000 + results * 15);
    }

    // Started again on the same stores: it serves, and today's board holds every stored result's user.
    server = await startAppProcess(env);
    const saved = new Set(stored.map((r) => r.uid));
    const deadline = Date.now() + 10_000;
    let onBoard = new Set<string>();
    while (Date.now() < deadline) {
      const res = await fetch(
        `${server.url}/leaderboards/daily?language=english&mode=time&mode2=15&pageSize=200`,
      );
      const body = (await res.json()) as { data: { entries: { uid: string }[] } };
      onBoard = new Set(body.data.entries.map((e) => e.uid));
      if (onBoard.size >= saved.size) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect([...onBoard].sort()).toEqual([...saved].sort());
    const fresh = users.find((uid) => !saved.has(uid)) as string;
    expect((await post(server.url, fresh)).status).toBe(200);
  }, 80_000);
});
