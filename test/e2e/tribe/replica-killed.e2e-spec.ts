import { redisKeys } from '../../../src/infra/redis/keys';
import { startAppProcess, type AppProcess } from '../../support/app-process';
import { testJwks, TEST_AUDIENCE, TEST_ISSUER } from '../../support/jwks';
import { redisEnvOf } from '../../support/stores';
import { ask, Clients, createTribeApp, next, roomConfig, type TribeTestApp } from './support';

/**
 * A replica that dies (SIGKILL: no shutdown, no goodbye) in the middle of a race. The production entry runs in a
 * child process with the default timings; the surviving replica (in this process) notices the missing heartbeat,
 * takes the dead replica's players out of their rooms, and runs the timers the dead one had claimed.
 */
describe('Tribe replica killed mid-race', () => {
  let survivor: TribeTestApp;
  let dead: AppProcess | null = null;
  const clients = new Clients();

  beforeAll(async () => {
    // Counted dead after 6 s without a heartbeat (the child beats every 2 s, the default).
    survivor = await createTribeApp({ timings: { deadAfterMs: 6_000 } });
    const jwks = await testJwks();
    dead = await startAppProcess({
      MODE: 'production',
      DATABASE_URL: survivor.stores.databaseUrl,
      ...redisEnvOf(survivor.stores),
      AUTH_PROVIDER: 'oidc',
      OIDC_ISSUER: TEST_ISSUER,
      OIDC_AUDIENCE: TEST_AUDIENCE,
      OIDC_JWKS_URL: jwks.url,
      LOG_LEVEL: 'silent',
      JOBS_ENABLED: 'false',
    });
  });
  afterAll(async () => {
    await clients.closeAll();
    await dead?.kill();
    await survivor.close();
  });

  it('drops the dead replica’s players; the room goes on, the lead passes, the race ends', async () => {
    const doomed = await clients.connect(dead!.url, { name: 'doomed' });
    const joined = next<{ room: { id: string } }>(doomed, 'room_joined');
    doomed.emit('room_create', { config: roomConfig() });
    const { id } = (await joined).room;
    const alive = await clients.connect(survivor.url, { name: 'alive' });
    await ask(alive, 'room_join', { roomId: id });
    alive.emit('room_ready_update');
    await next(doomed, 'room_user_is_ready');
    const replicas = await survivor.redis.zrange(redisKeys.tribeIndex().replicas, 0, -1);
    expect(replicas).toHaveLength(2);

    const started = next(alive, 'room_race_started', undefined, 20_000);
    doomed.emit('room_init_race');
    await started;

    const killedAt = Date.now();
    const left = next<{ userId: string }>(alive, 'room_player_left', undefined, 20_000);
    const lead = next<{ userId: string }>(alive, 'room_leader_changed', undefined, 20_000);
    const doomedId = doomed.id;
    await dead!.kill();
    expect(await left).toEqual({ userId: doomedId });
    expect(await lead).toEqual({ userId: alive.id });
    const noticedAfter = Date.now() - killedAt;
    expect(noticedAfter).toBeLessThan(15_000);

    // The race goes on: progress ticks keep coming (whoever held them), and the last racer's result ends it.
    await next(alive, 'room_progress_update', undefined, 5_000);
    const showing = next(
      alive,
      'room_state_changed',
      (d: { state: string }) => d.state === 'SHOWING_RESULTS',
      10_000,
    );
    alive.emit('room_result', {
      result: {
        wpm: 70,
        raw: 72,
        acc: 95,
        consistency: 80,
        testDuration: 5,
        charStats: [30, 0, 0, 0],
        chartData: { wpm: [70], burst: [70], err: [0] },
        resolve: { login: false, bailedOut: false },
      },
    });
    await showing;

    // Nothing of the dead replica is left: its heartbeat and its list of connections are gone.
    const remaining = await survivor.redis.zrange(redisKeys.tribeIndex().replicas, 0, -1);
    expect(remaining).toHaveLength(1);
    const gone = replicas.find((r) => !remaining.includes(r)) as string;
    expect(await survivor.redis.exists(redisKeys.tribeReplica(gone))).toBe(0);
  });
});
