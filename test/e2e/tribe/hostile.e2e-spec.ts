import { Writable } from 'node:stream';
import fc from 'fast-check';
import { TRIBE_EVENT_LIMITS } from '../../../src/common/rate-limit/classes/tribe';
import {
  ask,
  Clients,
  createTribeApp,
  next,
  record,
  roomConfig,
  sleep,
  type Client,
  type TribeTestApp,
} from './support';

/** Every event the client's routes send (and the dev-only one), with the payload shape the client uses. */
const EVENTS: Record<string, () => fc.Arbitrary<unknown>> = {
  system_version_check: () => fc.record({ version: fc.anything() }),
  system_stats: () => fc.anything(),
  user_set_name: () => fc.record({ name: fc.anything(), confirm: fc.anything() }),
  dev_room: () => fc.anything(),
  room_get_public_rooms: () => fc.record({ page: fc.anything(), search: fc.anything() }),
  room_join: () =>
    fc.record({
      roomId: fc.oneof(
        fc.anything(),
        fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 6, maxLength: 6 }),
      ),
      fromBrowser: fc.anything(),
    }),
  room_create: () =>
    fc.record({
      config: fc.oneof(
        fc.anything(),
        fc.dictionary(fc.constantFrom(...Object.keys(roomConfig())), fc.anything()),
      ),
      type: fc.anything(),
    }),
  room_leave: () => fc.anything(),
  room_update_name: () => fc.record({ name: fc.anything() }),
  room_toggle_visibility: () => fc.anything(),
  room_give_leader: () => fc.record({ userId: fc.anything() }),
  room_ban_user: () => fc.record({ userId: fc.anything() }),
  room_update_config: () =>
    fc.record({
      config: fc.oneof(
        fc.anything(),
        fc
          .constantFrom(...Object.keys(roomConfig()))
          .chain((key) => fc.anything().map((value) => ({ ...roomConfig(), [key]: value }))),
      ),
    }),
  room_ready_update: () => fc.anything(),
  room_afk_update: () => fc.record({ isAfk: fc.anything() }),
  room_chatting_update: () => fc.record({ isChatting: fc.anything() }),
  room_chat_message: () =>
    fc.record({
      message: fc.oneof(
        fc.anything(),
        fc.string({ maxLength: 600 }),
        fc.string({ unit: 'binary', maxLength: 600 }),
      ),
    }),
  room_init_race: () => fc.anything(),
  room_result: () =>
    fc.record({
      result: fc.oneof(
        fc.anything(),
        fc.record({
          wpm: fc.anything(),
          raw: fc.double(),
          acc: fc.double(),
          consistency: fc.anything(),
          testDuration: fc.double(),
          charStats: fc.array(fc.anything()),
          chartData: fc.record({
            wpm: fc.array(fc.anything()),
            burst: fc.anything(),
            err: fc.array(fc.double()),
          }),
          resolve: fc.record({ login: fc.anything(), bailedOut: fc.boolean(), saved: fc.anything() }),
        }),
      ),
    }),
  room_back_to_lobby: () => fc.anything(),
  room_progress_update: () =>
    fc.record({
      wpm: fc.oneof(fc.double(), fc.anything()),
      raw: fc.double(),
      acc: fc.double(),
      progress: fc.anything(),
      wordIndex: fc.integer(),
      letterIndex: fc.anything(),
      afk: fc.anything(),
    }),
};

/** Error lines the app logs (an exception a handler did not expect). */
class ErrorLines extends Writable {
  lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      const parsed = JSON.parse(line) as Record<string, unknown>;
      if ((parsed.level as number) >= 50) this.lines.push(parsed);
    }
    done();
  }
}

const unlimited = Object.fromEntries(Object.keys(TRIBE_EVENT_LIMITS).map((id) => [id, { max: 1_000_000 }]));

describe('Tribe against hostile clients', () => {
  let t: TribeTestApp;
  const errors = new ErrorLines();
  const clients = new Clients();

  beforeAll(async () => {
    t = await createTribeApp({
      env: { logLevel: 'error', rateLimit: { globalPerMinute: 1_000_000, overrides: unlimited } },
      logDestination: errors,
    });
  });
  afterEach(() => clients.disconnectAll());
  afterAll(async () => {
    await clients.closeAll();
    await t.close();
  });

  /** An event with a random payload (or several arguments), acknowledged or not; an acknowledged one must answer. */
  async function send(
    socket: Client,
    event: string,
    payload: unknown,
    extra: unknown[],
    acked: boolean,
  ): Promise<void> {
    if (!acked) {
      socket.emit(event, payload, ...extra);
      return;
    }
    const answer = await socket.timeout(5_000).emitWithAck(event, payload, ...extra);
    expect(answer).toBeDefined();
  }

  describe.each(Object.keys(EVENTS))('%s', (event) => {
    it('answers or ignores malformed payloads, in a room and outside, and never stalls or fails', async () => {
      // A room where the fuzzer leads, with an observer who checks what reaches other players stays safe.
      const fuzzer = await clients.connect(t.url, { name: 'fuzzer' });
      const joined = next<{ room: { id: string } }>(fuzzer, 'room_joined');
      fuzzer.emit('room_create', { config: roomConfig() });
      const { id } = (await joined).room;
      const observer = await clients.connect(t.url, { name: 'observer' });
      await ask(observer, 'room_join', { roomId: id });
      const chat = record<{ message: string; from?: { name: string } }>(observer, 'room_chat_message');
      const joiners = record<{ user: { name: string } }>(observer, 'room_player_joined');
      const renamed = record<{ name: string }>(observer, 'room_name_changed');

      await fc.assert(
        fc.asyncProperty(
          EVENTS[event]!(),
          // Extra arguments, binary ones too (socket.io sends those as attachments).
          fc.array(
            fc.oneof(
              fc.anything(),
              fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
            ),
            { maxLength: 2 },
          ),
          fc.boolean(),
          async (payload, extra, acked) => {
            if (!fuzzer.connected) return;
            await send(fuzzer, event, payload, extra, acked);
          },
        ),
        { numRuns: 60 },
      );
      // Still there, and still answering.
      const stats = await ask<{ stats: unknown[] }>(observer, 'system_stats');
      expect(stats.stats).toHaveLength(4);
      for (const m of chat) expect(m.message).not.toMatch(/[<>"'`]|&(?!#\d+;)/);
      for (const j of joiners) expect(j.user.name).toMatch(/^[a-zA-Z0-9_.-]{1,16}$/);
      for (const r of renamed) expect(r.name).not.toMatch(/[<>&"`]/);
      expect(errors.lines).toEqual([]);
    });
  });

  it('survives a racer’s malformed results and progress mid-race', async () => {
    const leader = await clients.connect(t.url, { name: 'leader' });
    const joined = next<{ room: { id: string } }>(leader, 'room_joined');
    leader.emit('room_create', { config: roomConfig() });
    const { id } = (await joined).room;
    const racer = await clients.connect(t.url, { name: 'racer' });
    await ask(racer, 'room_join', { roomId: id });
    racer.emit('room_ready_update');
    await next(leader, 'room_user_is_ready');
    const started = next(racer, 'room_race_started', undefined, 10_000);
    leader.emit('room_init_race');
    await started;
    const relayed = record<{ users: Record<string, Record<string, unknown>> }>(
      leader,
      'room_progress_update',
    );
    await fc.assert(
      fc.asyncProperty(EVENTS.room_progress_update!(), EVENTS.room_result!(), async (progress, result) => {
        await racer.timeout(5_000).emitWithAck('room_progress_update', progress);
        await racer.timeout(5_000).emitWithAck('room_result', result);
      }),
      { numRuns: 80 },
    );
    await sleep(500);
    // Whatever was relayed is bounded.
    for (const update of relayed)
      for (const p of Object.values(update.users)) {
        expect(p.wpm as number).toBeLessThanOrEqual(420);
        expect(p.acc as number).toBeLessThanOrEqual(100);
        expect(Number.isFinite(p.wpmProgress as number)).toBe(true);
      }
    expect(errors.lines).toEqual([]);
  });

  it('closes a connection that speaks broken socket.io, and nothing else', async () => {
    const bystander = await clients.connect(t.url);
    for (const raw of [
      '42["room_join"',
      '4x',
      '42999999999999999999["system_stats"]',
      '45-["a",{"_placeholder":true,"num":9}]',
      '42[]',
    ]) {
      const socket = await clients.connect(t.url);
      const closed = next(socket, 'disconnect');
      (socket.io.engine as unknown as { write(data: string): void }).write(raw);
      await Promise.race([closed, sleep(500)]);
    }
    expect(await ask<{ stats: unknown[] }>(bystander, 'system_stats')).toMatchObject({
      stats: expect.any(Array),
    });
  });

  it('drops a message larger than any room needs (256 KB), with its connection', async () => {
    const socket = await clients.connect(t.url);
    const closed = next(socket, 'disconnect');
    socket.emit('room_chat_message', { message: 'x'.repeat(300 * 1024) });
    expect(await closed).toBeDefined();
  });
});

describe('Tribe rate limits', () => {
  let t: TribeTestApp;
  const clients = new Clients();

  beforeAll(async () => {
    t = await createTribeApp();
  });
  afterAll(async () => {
    await clients.closeAll();
    await t.close();
  });

  it('limits each connection per event class, and disconnects one that floods far past it', async () => {
    const socket = await clients.connect(t.url);
    const answers: { status: string; message?: string }[] = [];
    const limit = TRIBE_EVENT_LIMITS.tribeChat.max;
    for (let i = 0; i < limit + 5; i++)
      answers.push(await ask(socket, 'room_chatting_update', { isChatting: i % 2 === 0 }));
    expect(answers.slice(0, limit).every((a) => a.message !== 'Too many requests, slow down')).toBe(true);
    expect(answers.slice(limit)).toEqual(
      Array(5).fill({ status: 'error', message: 'Too many requests, slow down' }),
    );
    // Other classes are counted apart.
    expect(await ask(socket, 'system_version_check', { version: 'dev' })).toMatchObject({ status: 'ok' });

    const told = next<{ message: string }>(socket, 'system_notification');
    const closed = next(socket, 'disconnect');
    for (let i = 0; i < limit * 5; i++) socket.emit('room_chat_message', { message: 'spam' });
    expect((await told).message).toBe('Disconnected: too many requests');
    expect(await closed).toBe('io server disconnect');
  });

  it('keeps the HTTP API answering during a flood of connection attempts', async () => {
    const flood = Array.from({ length: 400 }, (_, i) =>
      fetch(`${t.url}/socket.io/?EIO=4&transport=polling`, {
        headers: { 'x-forwarded-for': `198.51.${i % 250}.${i}` },
      })
        .then((r) => r.status)
        .catch(() => 0),
    );
    const latencies: number[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const at = performance.now();
      const res = await fetch(`${t.url}/configuration`);
      await res.arrayBuffer();
      statuses.push(res.status);
      latencies.push(performance.now() - at);
    }
    const handshakes = await Promise.all(flood);
    expect(statuses.every((s) => s === 200)).toBe(true);
    latencies.sort((a, b) => a - b);
    // Generous for a shared 2-core machine; a starved API would take seconds.
    expect(latencies[Math.floor(latencies.length * 0.95)]).toBeLessThan(1_000);
    // Past the per-address cap (30, every attempt here comes from the same peer without TRUST_PROXY) the
    // handshakes are refused before any socket.io work.
    expect(handshakes.filter((s) => s === 200).length).toBe(30);
    expect(handshakes.filter((s) => s === 403 || s === 400).length).toBe(370);
  });
});
