import { ReadinessService } from '../../../src/modules/status/readiness.service';
import { redisKeys } from '../../../src/infra/redis/keys';
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

const result = (wpm: number) => ({
  wpm,
  raw: wpm + 3,
  acc: 96,
  consistency: 78,
  testDuration: 6,
  charStats: [40, 1, 0, 0],
  chartData: { wpm: [wpm], burst: [wpm], err: [0] },
  resolve: { login: false, bailedOut: false },
});

/** Two replicas of the API on one PostgreSQL and one Redis, a room with a member on each. */
describe('Tribe across replicas', () => {
  let a: TribeTestApp;
  let b: TribeTestApp;
  const clients = new Clients();

  beforeAll(async () => {
    a = await createTribeApp();
    b = await createTribeApp({ stores: a.stores });
  });
  afterEach(() => clients.disconnectAll());
  afterAll(async () => {
    await clients.closeAll();
    await b.close();
    await a.close();
  });

  async function roomAcross(
    leaderOn: TribeTestApp,
    memberOn: TribeTestApp,
  ): Promise<{ id: string; leader: Client; member: Client }> {
    const leader = await clients.connect(leaderOn.url, { name: 'leader' });
    const joined = next<{ room: { id: string } }>(leader, 'room_joined');
    leader.emit('room_create', { config: roomConfig() });
    const { id } = (await joined).room;
    const member = await clients.connect(memberOn.url, { name: 'member' });
    const seen = next(leader, 'room_player_joined');
    await ask(member, 'room_join', { roomId: id });
    await seen;
    return { id, leader, member };
  }

  it('shares a room between members on different replicas: every event reaches both', async () => {
    const { id, leader, member } = await roomAcross(a, b);
    const toLeader = next<{ message: string }>(leader, 'room_chat_message');
    member.emit('room_chat_message', { message: 'from b' });
    expect((await toLeader).message).toBe('from b');
    const renamed = next(member, 'room_name_changed');
    leader.emit('room_update_name', { name: 'Across' });
    expect(await renamed).toEqual({ name: 'Across' });
    // A third player, on either replica, sees both.
    const third = await clients.connect(b.url, { name: 'third' });
    const answer = await ask<{ room: { users: Record<string, { name: string }> } }>(third, 'room_join', {
      roomId: id,
    });
    expect(
      Object.values(answer.room.users)
        .map((u) => u.name)
        .sort(),
    ).toEqual(['leader', 'member', 'third']);
  });

  it('bans a member held by the other replica: it is told, leaves the room’s channel there, and cannot come back', async () => {
    const { id, leader, member } = await roomAcross(a, b);
    const left = next(member, 'room_left');
    const told = next<{ message: string }>(member, 'system_notification');
    const gone = next<{ userId: string }>(leader, 'room_player_left');
    leader.emit('room_ban_user', { userId: member.id });
    await left;
    expect((await told).message).toBe('You have been banned from this room');
    expect(await gone).toEqual({ userId: member.id });
    // Its replica no longer routes its events to the room, nor the room's to it.
    const heard = record(member, 'room_chat_message');
    expect(await ask(member, 'room_chat_message', { message: 'still here?' })).toEqual({
      status: 'error',
      message: 'You are not in a room',
    });
    leader.emit('room_chat_message', { message: 'bye' });
    await next(leader, 'room_chat_message');
    await sleep(200);
    expect(heard).toEqual([]);
    expect(await ask(member, 'room_join', { roomId: id })).toEqual({
      status: 'error',
      message: 'You are banned from this room',
    });
  });

  it('runs each timer once though both replicas look for due timers, and relays progress across', async () => {
    const { leader, member } = await roomAcross(a, b);
    member.emit('room_ready_update');
    await next(leader, 'room_user_is_ready');
    const countdown = record<{ time: number }>(leader, 'room_countdown');
    const memberCountdown = record<{ time: number }>(member, 'room_countdown');
    const finishTimer = record<{ time: number }>(member, 'room_finishTimer_countdown');
    const states = record<{ state: string }>(member, 'room_state_changed');
    const started = Promise.all([leader, member].map((s) => next(s, 'room_race_started', undefined, 10_000)));
    leader.emit('room_init_race');
    await started;
    expect(countdown).toEqual([{ time: 2 }, { time: 1 }]);
    expect(memberCountdown).toEqual([{ time: 2 }, { time: 1 }]);

    member.emit('room_progress_update', {
      wpm: 77,
      raw: 80,
      acc: 99,
      progress: 20,
      wordIndex: 2,
      letterIndex: 1,
      afk: false,
    });
    const relayed = await next<{ users: Record<string, { wpm: number }> }>(
      leader,
      'room_progress_update',
      (u) => u.users[member.id!] !== undefined,
    );
    expect(relayed.users[member.id!]?.wpm).toBe(77);

    const done = next(
      member,
      'room_state_changed',
      (d: { state: string }) => d.state === 'READY_TO_CONTINUE',
      10_000,
    );
    member.emit('room_result', { result: result(80) });
    await next(member, 'room_finishTimer_countdown');
    await sleep(1_100);
    leader.emit('room_result', { result: result(60) });
    await done;
    expect(finishTimer.map((f) => f.time)).toEqual([2, 1]);
    expect(states.map((s) => s.state)).toEqual([
      'RACE_COUNTDOWN',
      'RACE_ONE_FINISHED',
      'SHOWING_RESULTS',
      'READY_TO_CONTINUE',
    ]);
    // Nothing is left scheduled for the room once it waits for its leader.
    await sleep(500);
    expect(await a.redis.zcard(redisKeys.tribeIndex().schedule)).toBe(0);
  });

  it('refuses new connections on a draining replica', async () => {
    const c = await createTribeApp({ stores: a.stores });
    try {
      c.app.get(ReadinessService).startDraining();
      await expect(clients.connect(c.url)).rejects.toThrow();
    } finally {
      await c.close();
    }
  });

  it('drops the players of a replica that stops, while the room goes on and the lead passes to a member still there', async () => {
    const c = await createTribeApp({ stores: a.stores });
    let closed = false;
    try {
      const { leader, member } = await roomAcross(c, a);
      member.emit('room_ready_update');
      await next(leader, 'room_user_is_ready');
      const started = next(member, 'room_race_started', undefined, 10_000);
      leader.emit('room_init_race');
      await started;

      // The leader's replica stops (SIGTERM's close): its player is told, then dropped.
      const told = next<{ message: string }>(leader, 'system_notification');
      const dropped = next(leader, 'disconnect');
      const left = next<{ userId: string }>(member, 'room_player_left');
      const lead = next<{ userId: string }>(member, 'room_leader_changed');
      const leaderId = leader.id;
      await c.close();
      closed = true;
      expect((await told).message).toBe('Server is restarting, reconnect to rejoin your room');
      expect(await dropped).toBe('io server disconnect');
      expect(await left).toEqual({ userId: leaderId });
      expect(await lead).toEqual({ userId: member.id });

      // The race goes on without it: the member finishes and sees the results.
      const showing = next(
        member,
        'room_state_changed',
        (d: { state: string }) => d.state === 'SHOWING_RESULTS',
      );
      member.emit('room_result', { result: result(70) });
      await showing;
      // The stopped replica forgot itself.
      const replicas = await a.redis.zrange(redisKeys.tribeIndex().replicas, 0, -1);
      expect(replicas).toHaveLength(2);
    } finally {
      if (!closed) await c.close();
    }
  });
});
