import calculateSlot from 'cluster-key-slot';
import { mkdtempSync, rmSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { startRedisCluster, type RedisClusterHandle } from '../../../src/infra/embedded/redis-server';
import { redisKeys } from '../../../src/infra/redis/keys';
import { BOARDS_UNAVAILABLE } from '../../../src/modules/leaderboards/board-availability';
import { createUser } from '../../support/factories';
import { createTestStores } from '../../support/stores';
import { createTestApp, type TestApp, type TestResponse } from '../../support/test-app';
import { boardResult, signed, type SubmitData } from '../results/result-factory';

interface Board {
  entries: { uid: string; wpm?: number }[];
}

const NOON = Date.UTC(2026, 10, 18, 12);
const TODAY = Date.UTC(2026, 10, 18);
const USERS = 4;
const METRICS_TOKEN = 'cluster-outage-metrics-token';

async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

// One master of a cluster of this test's own stops (its slots have no replica to fail over to) while results keep
// coming: only what lives in its slots degrades, nothing answers 500, and the boards catch up once it is back.
describe('one Redis Cluster master down', () => {
  // While a master is down, ioredis's ClusterSubscriber re-selects its subscriber node on every slot refresh and
  // each time adds a 'close' listener to the connecting socket it drops (ioredis/built/cluster/ClusterSubscriber.js,
  // `disconnect` in selectSubscriber): hundreds during this test's outage, released when that socket closes. An
  // upstream issue, not ours to fix here; the warning would only clutter the test output.
  const defaultMaxListeners = EventEmitter.defaultMaxListeners;
  beforeAll(() => {
    EventEmitter.defaultMaxListeners = 0;
  });
  afterAll(() => {
    EventEmitter.defaultMaxListeners = defaultMaxListeners;
  });

  let dir: string;
  let cluster: RedisClusterHandle;
  let t: TestApp;
  let users: { uid: string; auth: string }[];
  const statuses: number[] = [];
  let best: Record<string, number> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'typing-cluster-outage-'));
    cluster = await startRedisCluster({ dir });
    t = await createTestApp({
      stores: { ...(await createTestStores()), redisClusterNodes: cluster.nodes },
      now: NOON,
      env: {
        rateLimit: { globalPerMinute: 100_000, overrides: { resultsAdd: { max: 10_000 } } },
        metrics: { host: '127.0.0.1', token: METRICS_TOKEN },
      },
    });
    users = await Promise.all(
      Array.from({ length: USERS }, async () => {
        const { uid } = await createUser(t.db, { timeTyping: 10_000 });
        return { uid, auth: await t.bearer(uid) };
      }),
    );
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function round(wpmBase: number): Promise<TestResponse<{ data: SubmitData }>[]> {
    const responses = await Promise.all(
      users.map(({ uid, auth }, i) => {
        const wpm = wpmBase + i;
        const body = { result: signed(boardResult({ wpm, rawWpm: wpm + 1, acc: 97 }), uid) };
        return t.request<{ data: SubmitData }>('POST', '/results', { auth, body }).then((res) => {
          statuses.push(res.status);
          if (res.status === 200) best[uid] = Math.max(best[uid] ?? 0, wpm);
          return res;
        });
      }),
    );
    t.clock.advance(20_000);
    return responses;
  }
  const daily = () =>
    t
      .request<{ data: Board }>('GET', '/leaderboards/daily', {
        query: { language: 'english', mode: 'time', mode2: '15' },
      })
      .then((res) => {
        statuses.push(res.status);
        return res;
      });

  it('degrades only the slots of the stopped master, never a 500, and catches up when it returns', async () => {
    expect(t.redis).toBeInstanceOf(Cluster);
    expect((await round(60)).map((r) => r.status)).toEqual(users.map(() => 200));
    best = Object.fromEntries(users.map(({ uid }, i) => [uid, 60 + i]));

    // The master serving today's english time 15 board.
    const board = redisKeys.dailyLeaderboard(TODAY, 'english', 'time', '15');
    const owner = (t.redis as Cluster).slots[calculateSlot(t.env.redisKeyPrefix + board.scores)]![0]!;
    const port = Number(owner.split(':').pop());
    await cluster.stopNode(port);

    const during = [...(await round(120)), ...(await round(70))];
    expect(during.map((r) => r.status)).toEqual(during.map(() => 200));
    for (const res of during) expect(res.body.data).not.toHaveProperty('dailyLeaderboardRank');

    const started = Date.now();
    const [down, allTime, status] = await Promise.all([
      daily(),
      t.request('GET', '/leaderboards', { query: { language: 'english', mode: 'time', mode2: '15' } }),
      t.request('GET', '/'),
    ]);
    // Seconds, not a hang: the client retries the dead master's slot (reconnects, redirections) before giving up;
    // about 2.8 s on the development machine. Slots of the other masters answer as usual meanwhile.
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ message: BOARDS_UNAVAILABLE, data: null });
    expect(allTime.status).toBe(200);
    expect(status.status).toBe(200);
    // The lost master shows in the metrics (a Cluster reports it as a 'node error').
    const metrics = await t.request('GET', '/metrics', { auth: `Bearer ${METRICS_TOKEN}` });
    expect(metrics.text).toMatch(/dependency_errors_total\{dependency="redis"\} [1-9]/);

    // Back, empty: the board now comes from the catch-up's passes (retried while the node was down).
    await cluster.restartNode(port);
    const after = await waitFor(async () => {
      const res = await daily();
      return res.status === 200 && res.body.data.entries.length === USERS ? res : null;
    });
    expect(Object.fromEntries(after.body.data.entries.map((e) => [e.uid, e.wpm]))).toEqual(best);
    // Board reads (503 while the node was down or its slots not served yet) and submissions included.
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    // A counter living on the returned master works again (its script cache was empty: EVAL, not NOSCRIPT).
    expect((await round(50)).map((r) => r.status)).toEqual(users.map(() => 200));
  }, 60_000);

  it('survives the whole cluster going down and coming back (empty): fast 503s, then the catch-up', async () => {
    expect((await round(80)).map((r) => r.status)).toEqual(users.map(() => 200));
    for (const node of cluster.nodes) await cluster.stopNode(node.port);

    const during = await round(110);
    expect(during.map((r) => r.status)).toEqual(users.map(() => 200));
    for (const res of during) expect(res.body.data).not.toHaveProperty('dailyLeaderboardRank');
    const started = Date.now();
    const down = await daily();
    // Known down (the client's own events): answered at once, not after retries.
    expect(Date.now() - started).toBeLessThan(1_900);
    expect(down.status).toBe(503);

    for (const node of cluster.nodes) await cluster.restartNode(node.port);
    await waitFor(async () => {
      const res = await daily();
      const wpm = Object.fromEntries((res.body.data?.entries ?? []).map((e) => [e.uid, e.wpm]));
      return res.status === 200 && users.every(({ uid }) => wpm[uid] === best[uid]) ? res : null;
    });
    expect((await round(40)).map((r) => r.status)).toEqual(users.map(() => 200));
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
  }, 60_000);
});
