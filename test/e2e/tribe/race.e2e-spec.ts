import {
  ask,
  Clients,
  createTribeApp,
  FAST_TIMINGS,
  next,
  record,
  roomConfig,
  sleep,
  type Client,
  type TribeTestApp,
} from './support';

interface Progress {
  wpm: number;
  raw: number;
  acc: number;
  progress: number;
  wpmProgress: number;
  wordIndex: number;
  letterIndex: number;
  afk: boolean;
}
interface ProgressUpdate {
  users: Record<string, Progress>;
  roomMaxWpm: number;
  roomMinWpm: number;
  roomMaxRaw: number;
  roomMinRaw: number;
}

/** What the client sends at the end of its test (`TribeResults.send`). */
function clientResult(wpm: number, resolve: Record<string, unknown> = { login: false, bailedOut: false }) {
  return {
    wpm,
    raw: wpm + 4,
    acc: 97.5,
    consistency: 81.2,
    testDuration: 7.4,
    charStats: [48, 1, 0, 0],
    chartData: { wpm: [wpm - 10, wpm], burst: [wpm, wpm + 6], err: [0, 1] },
    resolve,
  };
}

const tick = (wpm: number) => ({
  wpm,
  raw: wpm + 5,
  acc: 96,
  progress: 30,
  wordIndex: 3,
  letterIndex: 2,
  afk: false,
});

/** Every event a client receives, in order, with its payload. */
function journal(socket: Client): { event: string; data: unknown }[] {
  const seen: { event: string; data: unknown }[] = [];
  socket.onAny((event: string, data: unknown) => seen.push({ event, data }));
  return seen;
}

describe('Tribe races', () => {
  let t: TribeTestApp;
  const clients = new Clients();

  beforeAll(async () => {
    t = await createTribeApp();
  });
  afterEach(() => clients.disconnectAll());
  afterAll(async () => {
    await clients.closeAll();
    await t.close();
  });

  /** alice leads, bob is ready, carol is not, dave is away. */
  async function room() {
    const alice = await clients.connect(t.url, { name: 'alice' });
    const joined = next<{ room: { id: string } }>(alice, 'room_joined');
    alice.emit('room_create', { config: roomConfig() });
    const { id } = (await joined).room;
    const [bob, carol, dave] = await Promise.all(
      ['bob', 'carol', 'dave'].map(async (name) => {
        const socket = await clients.connect(t.url, { name });
        await ask(socket, 'room_join', { roomId: id });
        return socket;
      }),
    );
    bob!.emit('room_ready_update');
    await next(alice, 'room_user_is_ready');
    dave!.emit('room_afk_update', { isAfk: true });
    await next(alice, 'room_user_afk_update');
    return { id, alice, bob: bob!, carol: carol!, dave: dave! };
  }

  it('runs a race the way the client follows it, from room_init_race to the next race’s start', async () => {
    const { id, alice, bob, carol, dave } = await room();
    const logs = [alice, bob, carol, dave].map(journal);
    const ticks = record<ProgressUpdate>(alice, 'room_progress_update');
    const started = Promise.all(
      [alice, bob, carol, dave].map((s) => next(s, 'room_race_started', undefined, 10_000)),
    );
    alice.emit('room_init_race');
    await started;

    for (const whole of logs) {
      // (What came before the race, such as the last flag updates, is not this test's business.)
      const log = whole.slice(whole.findIndex((e) => e.event === 'room_users_update'));
      const events = log.map((e) => e.event);
      // The racers are known before room_init_race arrives (the client decides on its page from `isTyping`).
      expect(events.slice(0, 2)).toEqual(['room_users_update', 'room_init_race']);
      expect(log[0]!.data).toEqual({
        [alice.id!]: { isTyping: true, isReady: false, isAfk: false },
        [bob.id!]: { isTyping: true, isReady: true, isAfk: false },
        [carol.id!]: { isTyping: false, isReady: false, isAfk: false },
        [dave.id!]: { isTyping: false, isReady: false, isAfk: true },
      });
      // The countdown, then the start; RACE_INIT and RACE_ONGOING are the client's own steps and never sent.
      expect(events.slice(2)).toEqual([
        'room_state_changed',
        'room_countdown',
        'room_countdown',
        'room_race_started',
      ]);
      expect(log.slice(2, 5).map((e) => e.data)).toEqual([
        { state: 'RACE_COUNTDOWN' },
        { time: 2 },
        { time: 1 },
      ]);
    }
    // Every member types the same words: one seed for the room.
    const seeds = logs.map((log) => log.find((e) => e.event === 'room_init_race')!.data);
    expect(new Set(seeds.map((s) => JSON.stringify(s))).size).toBe(1);
    expect(seeds[0]).toEqual({ seed: expect.any(Number) });

    // Progress: the room ticks at its update rate; racers answer, a spectator's figures are not relayed, the
    // figures are bounded.
    await sleep(FAST_TIMINGS.updateRateMs! * 2);
    bob.emit('room_progress_update', tick(9999));
    alice.emit('room_progress_update', tick(60));
    carol.emit('room_progress_update', tick(80));
    const update = await next<ProgressUpdate>(
      alice,
      'room_progress_update',
      (u) => Object.keys(u.users).length === 2,
    );
    expect(update).toEqual({
      users: {
        [alice.id!]: { ...tick(60), wpmProgress: 14 },
        [bob.id!]: { ...tick(420), raw: 420, wpmProgress: 100 },
      },
      roomMaxWpm: 420,
      roomMinWpm: 60,
      roomMaxRaw: 420,
      roomMinRaw: 65,
    });
    // Ticks came before anyone answered (a racer's timer starts half a second after the start).
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(ticks[0]!.users).toEqual({});
    // The client asks for the stats mid-race too.
    expect(await ask(carol, 'system_stats')).toMatchObject({ stats: expect.any(Array) });

    // bob finishes first: his result is relayed, alice has the finish timer.
    const oneFinished = next(carol, 'room_state_changed');
    const finishTimer = next(alice, 'room_finishTimer_countdown');
    const relayed = next<{ userId: string; result: unknown }>(carol, 'room_user_result');
    bob.emit('room_result', { result: clientResult(90, { login: false, bailedOut: false }) });
    expect(await relayed).toEqual({ userId: bob.id, result: clientResult(90) });
    expect(await oneFinished).toEqual({ state: 'RACE_ONE_FINISHED' });
    expect(await finishTimer).toEqual({ time: FAST_TIMINGS.finishSeconds });
    // A spectator's result is not taken.
    expect(await ask(carol, 'room_result', { result: clientResult(200) })).toEqual({
      status: 'error',
      message: 'Your result was not expected now',
    });

    // alice finishes: the results, places and points.
    const showing = next(
      carol,
      'room_state_changed',
      (d: { state: string }) => d.state === 'SHOWING_RESULTS',
    );
    const positions = next(carol, 'room_final_positions');
    const readyTimer = next(carol, 'room_readyTimer_countdown');
    alice.emit('room_result', { result: clientResult(70) });
    await showing;
    expect(await positions).toEqual({
      positions: {
        '1': [{ id: bob.id, newPoints: 1, newPointsTotal: 1 }],
        '2': [{ id: alice.id, newPoints: 0, newPointsTotal: 0 }],
      },
      miniCrowns: { raw: [bob.id], wpm: [bob.id], acc: [bob.id, alice.id], consistency: [bob.id, alice.id] },
    });
    expect(await readyTimer).toEqual({ time: FAST_TIMINGS.readySeconds });
    // The ready timer runs out (carol never got ready): the leader may start again.
    const over = next(carol, 'room_readyTimer_over', undefined, 5_000);
    const readyToContinue = next(
      carol,
      'room_state_changed',
      (d: { state: string }) => d.state === 'READY_TO_CONTINUE',
      5_000,
    );
    await over;
    await readyToContinue;
    // Progress ticks stopped with the race.
    const before = ticks.length;
    await sleep(FAST_TIMINGS.updateRateMs! * 3);
    expect(ticks.length).toBe(before);

    // Points are kept: a joiner sees them.
    const eve = await clients.connect(t.url, { name: 'eve' });
    const seen = await ask<{ room: { state: string; users: Record<string, { points: number }> } }>(
      eve,
      'room_join',
      {
        roomId: id,
      },
    );
    expect(seen.room.state).toBe('READY_TO_CONTINUE');
    expect(seen.room.users[bob.id!]?.points).toBe(1);

    // Back to the lobby.
    const lobby = next(bob, 'room_state_changed');
    alice.emit('room_back_to_lobby');
    expect(await lobby).toEqual({ state: 'LOBBY' });
  });

  it('ends the race for those still typing when the finish timer runs out, and shows the results without them after the wait', async () => {
    const { alice, bob, carol } = await room();
    const started = next(bob, 'room_race_started', undefined, 10_000);
    alice.emit('room_init_race');
    await started;
    const forced = next<{ reason: string }>(bob, 'room_race_force_finish', undefined, 10_000);
    const awaiting = next(
      carol,
      'room_state_changed',
      (d: { state: string }) => d.state === 'RACE_AWAITING_RESULTS',
      10_000,
    );
    alice.emit('room_result', { result: clientResult(50) });
    expect(await forced).toEqual({ reason: 'out of time' });
    await awaiting;
    // bob's client never answers (its save failed, say): after the wait he is shown without a result.
    const missing = next<{ userId: string; result?: unknown }>(
      carol,
      'room_user_result',
      (r) => r.userId === bob.id,
      5_000,
    );
    const positions = next<{ positions: Record<string, { id: string }[]> }>(
      carol,
      'room_final_positions',
      undefined,
      5_000,
    );
    expect(await missing).toEqual({ userId: bob.id });
    expect((await positions).positions).toEqual({ '1': [{ id: alice.id, newPoints: 1, newPointsTotal: 1 }] });
  });

  it('takes a forced-finish result that arrives during the wait, and shows the results at once', async () => {
    const { alice, bob, carol } = await room();
    const started = next(bob, 'room_race_started', undefined, 10_000);
    alice.emit('room_init_race');
    await started;
    const forced = next(bob, 'room_race_force_finish', undefined, 10_000);
    alice.emit('room_result', { result: clientResult(50) });
    await forced;
    // What the client sends for a test failed by the force finish.
    const showing = next(
      carol,
      'room_state_changed',
      (d: { state: string }) => d.state === 'SHOWING_RESULTS',
      2_000,
    );
    bob.emit('room_result', {
      result: clientResult(40, { login: false, bailedOut: false, failed: true, failedReason: 'out of time' }),
    });
    await showing;
  });

  it('refuses to start a race during one, or on a member’s word', async () => {
    const { alice, bob } = await room();
    expect(await ask(bob, 'room_init_race')).toEqual({
      status: 'error',
      message: 'Only the room leader can do that',
    });
    const init = next(bob, 'room_init_race');
    alice.emit('room_init_race');
    await init;
    expect(await ask(alice, 'room_init_race')).toEqual({
      status: 'error',
      message: 'A race is already under way',
    });
    expect(await ask(alice, 'room_update_config', { config: roomConfig() })).toEqual({
      status: 'error',
      message: 'That cannot be changed during a race',
    });
  });

  it('goes on without a racer who leaves, and back to the lobby when no racer is left', async () => {
    const { alice, bob, carol } = await room();
    const started = next(carol, 'room_race_started', undefined, 10_000);
    alice.emit('room_init_race');
    await started;
    // bob leaves mid-race; alice finishes: nobody else is racing, the results show at once.
    bob.emit('room_leave');
    await next(alice, 'room_player_left');
    const showing = next(
      carol,
      'room_state_changed',
      (d: { state: string }) => d.state === 'SHOWING_RESULTS',
    );
    alice.emit('room_result', { result: clientResult(50) });
    await showing;
  });
});
