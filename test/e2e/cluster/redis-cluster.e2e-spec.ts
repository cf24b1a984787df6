import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { redisKeys } from '../../../src/infra/redis/keys';
import { DependencyError, preflight } from '../../../src/infra/runtime/preflight';
import { BoardStoreRepository } from '../../../src/modules/leaderboards/board-store.repository';
import { keysMatching } from '../../support/redis-keys';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * Runs in the `e2e-cluster` project only: the app on a local 3-master Redis Cluster. The leaderboard, rate-limit and
 * ApeKey suites run there too; this file proves the properties they rely on.
 */
describe('the app on a Redis Cluster', () => {
  let t: TestApp;
  let cluster: Cluster;
  let store: BoardStoreRepository;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
    if (!(t.redis instanceof Cluster)) throw new Error('expected the e2e-cluster project (a Cluster client)');
    cluster = t.redis;
    store = t.app.get(BoardStoreRepository);
  });
  afterAll(() => t.close());

  const DAY0 = Date.UTC(2026, 10, 24);
  // Forty boards: their hash tags spread them over every master.
  const boards = Array.from({ length: 40 }, (_, i) =>
    redisKeys.dailyLeaderboard(DAY0 + i * 86_400_000, 'english', 'time', '15'),
  );

  /** The master serving a key, by its address (the prefix is part of the key Redis hashes). */
  const masterOf = (key: string) => {
    const slot = calculateSlot(t.env.redisKeyPrefix + key);
    return cluster.slots[slot]?.[0];
  };

  it('is a client of three masters, with the key prefix of this test app', () => {
    expect(cluster.nodes('master')).toHaveLength(3);
    expect(t.env.redisKeyPrefix).toMatch(/^t[0-9a-f]{16}:$/);
    expect(new Set(boards.map((b) => masterOf(b.scores))).size).toBe(3);
  });

  it('runs every board script on boards of every master (each call’s keys in one slot)', async () => {
    for (const [i, keys] of boards.entries()) {
      expect(masterOf(keys.entries)).toBe(masterOf(keys.scores));
      expect(await store.addDaily(keys, 'u1', 100 + i, { name: 'one' }, 10, 86_400_000)).toBe(0);
      expect(await store.addWeeklyXp(keys, 'u2', 5, 30, `r${i}`, { name: 'two' }, 86_400_000)).toBe(1);
      expect(
        await store.setWeeklyXp(keys, 'u3', 1, { name: 'three', lastActivityTimestamp: 1 }, 86_400_000),
      ).toBe(true);
      const page = await store.page(keys, 0, 9);
      expect(page.rows.map((r) => r.uid)).toEqual(['u1', 'u2', 'u3']);
      expect((await store.members(keys, ['u3', 'nobody'])).map((r) => [r.uid, r.index])).toEqual([['u3', 2]]);
    }
    // Each master lists only its own keys (KEYS under this app's prefix): every board's two keys, spread over all.
    const perMaster = await Promise.all(
      cluster.nodes('master').map((n) => n.keys(`${t.env.redisKeyPrefix}lb:*`)),
    );
    expect(perMaster.flat()).toHaveLength(boards.length * 2);
    expect(perMaster.every((keys) => keys.length > 0)).toBe(true);
  });

  it('removes a user from boards in different slots at once (no cross-slot pipeline)', async () => {
    await store.remove(boards, 'u1');
    for (const keys of boards) {
      expect((await store.page(keys, 0, 9)).rows.map((r) => r.uid)).toEqual(['u2', 'u3']);
      expect(await cluster.hexists(keys.entries, 'u1')).toBe(0);
    }
  });

  it('rejects a script whose keys span two slots (the property the suites rely on can fail)', async () => {
    const [a, b] = boards.filter((keys, i, all) => masterOf(keys.scores) === masterOf(all[0]!.scores));
    // Refused by ioredis's auto-pipeline before it is sent, or by Redis (CROSSSLOT): never run across slots.
    await expect(cluster.leaderboardPage(a!.scores, b!.entries, 0, 9)).rejects.toThrow(
      /CROSSSLOT|should belong to the same slot/,
    );
  });

  it('keeps rate-limit and bad-authentication counters on the cluster', async () => {
    const ip = '198.51.100.77';
    expect((await t.request('GET', '/leaderboards/xp/weekly', { ip })).status).toBe(200);
    expect((await t.request('GET', '/results', { ip, auth: 'Bearer forged' })).status).toBe(401);
    const keys = await keysMatching(t, '*{*198.51.100.77}*');
    expect(keys.sort()).toEqual([
      redisKeys.badAuth(ip),
      redisKeys.rateLimit(`ip:${ip}`, 'global'),
      redisKeys.rateLimit(`ip:${ip}`, 'leaderboardsGet'),
    ]);
  });

  describe('start-up preflight', () => {
    const jwks = () => ({ ...t.env, authProvider: 'none' as const });

    it('passes on the cluster', async () => {
      await expect(preflight(jwks())).resolves.toBeUndefined();
    });

    it('names REDIS_CLUSTER_NODES when no node answers', async () => {
      const error = await preflight({ ...jwks(), redisClusterNodes: [{ host: '127.0.0.1', port: 1 }] }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DependencyError);
      expect(error).toMatchObject({ variable: 'REDIS_CLUSTER_NODES', target: '127.0.0.1:1' });
    });

    it('refuses REDIS_URL pointing at a cluster node (MOVED for most keys otherwise)', async () => {
      const node = t.env.redisClusterNodes[0]!;
      const error = await preflight({
        ...jwks(),
        redisClusterNodes: [],
        redisUrl: `redis://${node.host}:${node.port}`,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DependencyError);
      expect(error).toMatchObject({ variable: 'REDIS_URL' });
      expect((error as Error).message).toContain('list the nodes in REDIS_CLUSTER_NODES');
    });
  });
});
