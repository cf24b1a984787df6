import { DEFAULT_TIMINGS } from './limits';
import type { Identity, Member, RaceResult, Room, RoomState, Timer } from './room';
import { apply, createRoom, NOT_BETWEEN_RACES, NOT_LEADER, type Command } from './room-machine';
import type { Effect, Outcome } from './transition';
import { clientRoomConfig as clientConfig } from '../../../../generators/tribe-room-config';
import { checkRoomConfig } from './room-config';

const NOW = 1_800_000_000_000;
const ctx = { now: NOW, timings: DEFAULT_TIMINGS };
const config = (() => {
  const checked = checkRoomConfig(clientConfig({ mode: 'words', words: 10 }));
  if (!checked.ok) throw new Error(checked.error);
  return checked.value;
})();

function identity(id: string, extra: Partial<Identity> = {}): Identity {
  return { id, name: id, uid: null, addressKey: `addr-${id}`, replica: 'r1', ...extra };
}

type MemberSpec = Partial<Member> & { id: string };

/** A room with these members (the first leads unless told otherwise), in `state`. */
function room(members: MemberSpec[], state: RoomState = 'LOBBY', extra: Partial<Room> = {}): Room {
  const all: Record<string, Member> = {};
  members.forEach((m, i) => {
    all[m.id] = {
      ...identity(m.id),
      joinSeq: i,
      isLeader: i === 0,
      isReady: false,
      isAfk: false,
      isChatting: false,
      isTyping: false,
      isFinished: false,
      points: 0,
      result: null,
      ...m,
    };
  });
  return {
    id: 'a1b2c3',
    name: 'room',
    isPrivate: true,
    state,
    seed: 1,
    updateRate: 500,
    config,
    members: all,
    nextJoinSeq: members.length,
    bans: [],
    timer: null,
    ...extra,
  };
}

function result(wpm: number, extra: Partial<RaceResult> = {}): RaceResult {
  return {
    wpm,
    raw: wpm + 5,
    acc: 95,
    consistency: 80,
    testDuration: 10,
    charStats: [50, 0, 0, 0],
    chartData: { wpm: [wpm], burst: [wpm], err: [0] },
    resolve: { login: false, bailedOut: false },
    ...extra,
  };
}

const emits = (outcome: Outcome) =>
  outcome.effects.flatMap((e) => (e.kind === 'emit' ? [e] : [])) as Extract<Effect, { kind: 'emit' }>[];
const events = (outcome: Outcome) => emits(outcome).map((e) => e.event);
const emitted = (outcome: Outcome, event: string) => emits(outcome).find((e) => e.event === event);
const states = (outcome: Outcome) =>
  emits(outcome)
    .filter((e) => e.event === 'room_state_changed')
    .map((e) => (e.data as { state: string }).state);

const racing = (ids: string[]) => ids.map((id, i) => ({ id, isTyping: true, isLeader: i === 0 }));
const timer = (kind: Timer['kind'], remaining = 0, at = NOW): Timer => ({ kind, at, remaining });

describe('the room state machine', () => {
  it('creates a room led by its creator, who is told with room_joined', () => {
    const { room: created, effects } = createRoom({
      id: 'abc123',
      creator: identity('Alice'),
      config,
      isPrivate: true,
      seed: 42,
      ctx,
    });
    expect(created).toMatchObject({
      id: 'abc123',
      name: "Alice's room",
      state: 'LOBBY',
      seed: 42,
      updateRate: 500,
    });
    expect(created.members.Alice).toMatchObject({ isLeader: true, points: 0 });
    expect(effects.map((e) => e.kind)).toEqual(['channel-join', 'emit']);
    const joined = effects[1] as Extract<Effect, { kind: 'emit' }>;
    expect(joined).toMatchObject({ to: { member: 'Alice' }, event: 'room_joined' });
    // The client never sees accounts, addresses or replicas.
    expect(JSON.stringify(joined.data)).not.toMatch(/addressKey|replica|"uid"|bans|timer/);
  });

  describe.each<
    [string, Room, Command, { refusal?: string; events?: string[]; state?: RoomState; gone?: boolean }]
  >([
    // joining
    [
      'a player joins',
      room([{ id: 'a' }]),
      { type: 'join', identity: identity('b') },
      { events: ['room_player_joined'] },
    ],
    [
      'a player joins a full room',
      room(Array.from({ length: 10 }, (_, i) => ({ id: `p${i}` }))),
      { type: 'join', identity: identity('b') },
      { refusal: 'Room is full', events: [] },
    ],
    [
      'a banned account joins',
      room([{ id: 'a' }], 'LOBBY', { bans: ['uid:u-b'] }),
      { type: 'join', identity: identity('b', { uid: 'u-b' }) },
      { refusal: 'You are banned from this room' },
    ],
    [
      'a banned guest joins',
      room([{ id: 'a' }], 'LOBBY', { bans: ['addr:addr-b'] }),
      { type: 'join', identity: identity('b') },
      { refusal: 'You are banned from this room' },
    ],
    [
      'a guest takes a signed-in member’s name',
      room([{ id: 'a', name: 'Bob', uid: 'u-bob' }]),
      { type: 'join', identity: identity('b', { name: 'bob' }) },
      { refusal: 'The name bob belongs to a signed-in player in this room' },
    ],
    [
      'a guest joins during a race (and watches)',
      room(racing(['a']), 'RACE_ONGOING'),
      { type: 'join', identity: identity('b') },
      { events: ['room_player_joined'], state: 'RACE_ONGOING' },
    ],
    // leaving
    [
      'a member leaves',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'leave', memberId: 'b', reason: 'left' },
      { events: ['room_left', 'room_player_left'] },
    ],
    [
      'a member disconnects',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'leave', memberId: 'b', reason: 'disconnected' },
      { events: ['room_player_left'] },
    ],
    [
      'the leader leaves',
      room([{ id: 'a' }, { id: 'b', isReady: true }]),
      { type: 'leave', memberId: 'a', reason: 'left' },
      { events: ['room_left', 'room_player_left', 'room_leader_changed'] },
    ],
    [
      'the last member leaves',
      room([{ id: 'a' }]),
      { type: 'leave', memberId: 'a', reason: 'disconnected' },
      { gone: true },
    ],
    // leader commands
    [
      'a member renames the room',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'rename', by: 'b', name: 'x' },
      { refusal: NOT_LEADER },
    ],
    [
      'the leader renames the room mid-race',
      room(racing(['a']), 'RACE_ONGOING'),
      { type: 'rename', by: 'a', name: 'x' },
      { refusal: NOT_BETWEEN_RACES },
    ],
    [
      'the leader renames the room with markup',
      room([{ id: 'a' }]),
      { type: 'rename', by: 'a', name: '<b>' },
      { refusal: 'Room name cannot contain <, >, &, " or `' },
    ],
    [
      'the leader renames the room',
      room([{ id: 'a' }]),
      { type: 'rename', by: 'a', name: 'Fast' },
      { events: ['room_name_changed'] },
    ],
    [
      'the leader makes the room public',
      room([{ id: 'a' }]),
      { type: 'toggleVisibility', by: 'a' },
      { events: ['room_visibility_changed'] },
    ],
    [
      'the leader hands over',
      room([{ id: 'a' }, { id: 'b', isAfk: true }]),
      { type: 'giveLeader', by: 'a', target: 'b' },
      { events: ['room_leader_changed'] },
    ],
    [
      'the leader hands over to nobody',
      room([{ id: 'a' }]),
      { type: 'giveLeader', by: 'a', target: 'zz' },
      { refusal: 'No such player in this room' },
    ],
    [
      'the leader bans a member',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'ban', by: 'a', target: 'b' },
      { events: ['room_left', 'system_notification', 'room_player_left', 'room_chat_message'] },
    ],
    [
      'the leader bans itself',
      room([{ id: 'a' }]),
      { type: 'ban', by: 'a', target: 'a' },
      { refusal: 'No such player in this room' },
    ],
    [
      'the leader changes the config',
      room([{ id: 'a' }]),
      { type: 'updateConfig', by: 'a', config },
      { events: ['room_config_changed'] },
    ],
    [
      'the leader changes the config mid-race',
      room(racing(['a']), 'RACE_COUNTDOWN'),
      { type: 'updateConfig', by: 'a', config },
      { refusal: NOT_BETWEEN_RACES },
    ],
    // members' flags
    [
      'a member gets ready',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'ready', by: 'b' },
      { events: ['room_user_is_ready'] },
    ],
    ['the leader gets ready', room([{ id: 'a' }]), { type: 'ready', by: 'a' }, { events: [] }],
    [
      'an away member gets ready',
      room([{ id: 'a' }, { id: 'b', isAfk: true }]),
      { type: 'ready', by: 'b' },
      { refusal: 'Come back from your break first' },
    ],
    [
      'the last member gets ready while the results show',
      room([{ id: 'a' }, { id: 'b' }], 'SHOWING_RESULTS', { timer: timer('ready', 5, NOW + 1000) }),
      { type: 'ready', by: 'b' },
      {
        events: ['room_user_is_ready', 'room_readyTimer_over', 'room_state_changed'],
        state: 'READY_TO_CONTINUE',
      },
    ],
    [
      'a member takes a break',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'afk', by: 'b', isAfk: true },
      { events: ['room_user_afk_update'] },
    ],
    [
      'the leader takes a break',
      room([{ id: 'a' }]),
      { type: 'afk', by: 'a', isAfk: true },
      { refusal: 'The leader cannot take a break' },
    ],
    [
      'a ready member takes a break',
      room([{ id: 'a' }, { id: 'b', isReady: true }]),
      { type: 'afk', by: 'b', isAfk: true },
      { refusal: 'You are ready: you cannot take a break now' },
    ],
    [
      'a member starts typing in the chat',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'chatting', by: 'b', isChatting: true },
      { events: ['room_chatting_changed'] },
    ],
    [
      'a member chats',
      room([{ id: 'a' }]),
      { type: 'chat', by: 'a', message: 'hi' },
      { events: ['room_chat_message'] },
    ],
    [
      'a member sends an empty message',
      room([{ id: 'a' }]),
      { type: 'chat', by: 'a', message: '  ' },
      { refusal: 'A message must have 1 to 512 characters' },
    ],
    [
      'a stranger chats',
      room([{ id: 'a' }]),
      { type: 'chat', by: 'zz', message: 'hi' },
      { refusal: 'You are not in this room' },
    ],
    // the race
    [
      'a member starts the race',
      room([{ id: 'a' }, { id: 'b' }]),
      { type: 'initRace', by: 'b', seed: 5 },
      { refusal: NOT_LEADER },
    ],
    [
      'the leader starts a race',
      room([{ id: 'a' }, { id: 'b', isReady: true }]),
      { type: 'initRace', by: 'a', seed: 5 },
      { events: ['room_users_update', 'room_init_race'], state: 'RACE_INIT' },
    ],
    [
      'the leader starts a race during one',
      room(racing(['a']), 'RACE_ONGOING'),
      { type: 'initRace', by: 'a', seed: 5 },
      { refusal: 'A race is already under way' },
    ],
    [
      'a timer that is not due',
      room(racing(['a']), 'RACE_INIT', { timer: timer('init', 0, NOW + 1) }),
      { type: 'timer' },
      { events: [], state: 'RACE_INIT' },
    ],
    [
      'the countdown begins',
      room(racing(['a']), 'RACE_INIT', { timer: timer('init') }),
      { type: 'timer' },
      { events: ['room_state_changed', 'room_countdown'], state: 'RACE_COUNTDOWN' },
    ],
    [
      'the countdown goes on',
      room(racing(['a']), 'RACE_COUNTDOWN', { timer: timer('countdown', 3) }),
      { type: 'timer' },
      { events: ['room_countdown'], state: 'RACE_COUNTDOWN' },
    ],
    [
      'the race starts (the client sets RACE_ONGOING itself)',
      room(racing(['a']), 'RACE_COUNTDOWN', { timer: timer('countdown', 0) }),
      { type: 'timer' },
      { events: ['room_race_started'], state: 'RACE_ONGOING' },
    ],
    [
      'the first of two racers finishes',
      room(racing(['a', 'b']), 'RACE_ONGOING', { timer: timer('race', 0, NOW + 60_000) }),
      { type: 'result', by: 'b', result: result(80) },
      {
        events: ['room_user_result', 'room_state_changed', 'room_finishTimer_countdown'],
        state: 'RACE_ONE_FINISHED',
      },
    ],
    [
      'a spectator sends a result',
      room([...racing(['a']), { id: 'b' }], 'RACE_ONGOING'),
      { type: 'result', by: 'b', result: result(80) },
      { refusal: 'Your result was not expected now' },
    ],
    [
      'the finish timer counts down',
      room(racing(['a', 'b']), 'RACE_ONE_FINISHED', { timer: timer('finish', 4) }),
      { type: 'timer' },
      { events: ['room_finishTimer_countdown'], state: 'RACE_ONE_FINISHED' },
    ],
    [
      'the finish timer runs out',
      room(racing(['a', 'b']), 'RACE_ONE_FINISHED', { timer: timer('finish', 0) }),
      { type: 'timer' },
      { events: ['room_race_force_finish', 'room_state_changed'], state: 'RACE_AWAITING_RESULTS' },
    ],
    [
      'a race nobody finishes hits its limit',
      room(racing(['a']), 'RACE_ONGOING', { timer: timer('race') }),
      { type: 'timer' },
      { events: ['room_race_force_finish', 'room_state_changed'], state: 'RACE_AWAITING_RESULTS' },
    ],
    [
      'the leader goes back to the lobby too early',
      room([{ id: 'a', isFinished: true }], 'SHOWING_RESULTS'),
      { type: 'backToLobby', by: 'a' },
      { refusal: 'Wait for the results first' },
    ],
    [
      'the leader goes back to the lobby',
      room([{ id: 'a', isFinished: true }], 'READY_TO_CONTINUE'),
      { type: 'backToLobby', by: 'a' },
      { events: ['room_state_changed'], state: 'LOBBY' },
    ],
    [
      'the ready timer ticks',
      room([{ id: 'a' }, { id: 'b' }], 'SHOWING_RESULTS', { timer: timer('ready', 2) }),
      { type: 'timer' },
      { events: ['room_readyTimer_countdown'], state: 'SHOWING_RESULTS' },
    ],
    [
      'the ready timer runs out',
      room([{ id: 'a' }, { id: 'b' }], 'SHOWING_RESULTS', { timer: timer('ready', 0) }),
      { type: 'timer' },
      { events: ['room_readyTimer_over', 'room_state_changed'], state: 'READY_TO_CONTINUE' },
    ],
  ])('%s', (_, before, command, expected) => {
    const snapshot = structuredClone(before);
    const outcome = apply(before, command, ctx);
    it('answers as the client expects', () => {
      expect(outcome.refusal).toBe(expected.refusal);
      if (expected.events) expect(events(outcome)).toEqual(expected.events);
      if (expected.gone) expect(outcome.room).toBeNull();
      else expect(outcome.room?.state).toBe(expected.state ?? before.state);
      // A refusal or a no-op stores nothing.
      if (expected.refusal || (expected.events && expected.events.length === 0))
        expect(outcome.changed).toBe(false);
    });
    it('leaves the room it was given as it was', () => {
      expect(before).toEqual(snapshot);
      expect(outcome.room === before).toBe(false);
    });
  });

  it('never tells a player that left about the room, and passes the lead to the member who joined first', () => {
    const outcome = apply(
      room([{ id: 'a' }, { id: 'c', joinSeq: 5 }, { id: 'b', joinSeq: 2, isReady: true }]),
      {
        type: 'leave',
        memberId: 'a',
        reason: 'left',
      },
      ctx,
    );
    expect(emitted(outcome, 'room_leader_changed')?.data).toEqual({ userId: 'b' });
    expect(outcome.room?.members.b).toMatchObject({ isLeader: true, isReady: false, isAfk: false });
    expect(outcome.effects.slice(0, 2)).toEqual([
      { kind: 'channel-leave', memberId: 'a' },
      { kind: 'removed', memberId: 'a' },
    ]);
  });

  it('makes an unverified member make way for the account whose name it uses', () => {
    const before = room([{ id: 'a', name: 'Bob' }, { id: 'c' }]);
    const outcome = apply(
      before,
      { type: 'join', identity: identity('b', { name: 'bob', uid: 'u-bob' }) },
      ctx,
    );
    expect(Object.keys(outcome.room?.members ?? {}).sort()).toEqual(['b', 'c']);
    expect(outcome.room?.members.c?.isLeader).toBe(true);
    expect(emitted(outcome, 'system_notification')).toMatchObject({ to: { member: 'a' } });
  });

  it('keeps a room alive with its newcomer leading when the member making way was the last one', () => {
    const outcome = apply(
      room([{ id: 'a', name: 'Bob' }]),
      { type: 'join', identity: identity('b', { name: 'Bob', uid: 'u' }) },
      ctx,
    );
    expect(outcome.room?.members.b?.isLeader).toBe(true);
    expect(Object.keys(outcome.room?.members ?? {})).toEqual(['b']);
  });

  it('bans a guest by address and an account by uid, remembering at most 100', () => {
    const many = Array.from({ length: 100 }, (_, i) => `uid:${i}`);
    const guest = apply(
      room([{ id: 'a' }, { id: 'b' }], 'LOBBY', { bans: many }),
      { type: 'ban', by: 'a', target: 'b' },
      ctx,
    );
    expect(guest.room?.bans).toHaveLength(100);
    expect(guest.room?.bans.at(-1)).toBe('addr:addr-b');
    const account = apply(
      room([{ id: 'a' }, { id: 'b', uid: 'u-b' }]),
      { type: 'ban', by: 'a', target: 'b' },
      ctx,
    );
    expect(account.room?.bans).toEqual(['uid:u-b']);
  });

  it('escapes chat for the client’s HTML and says who sent it', () => {
    const outcome = apply(room([{ id: 'a' }]), { type: 'chat', by: 'a', message: '<b>hi</b>' }, ctx);
    expect(emitted(outcome, 'room_chat_message')?.data).toEqual({
      message: '&#60;b&#62;hi&#60;&#47;b&#62;',
      from: expect.objectContaining({ id: 'a', name: 'a' }),
      isSystem: false,
    });
  });

  it('asks the clients to answer a config change', () => {
    const outcome = apply(room([{ id: 'a' }]), { type: 'updateConfig', by: 'a', config }, ctx);
    expect(emitted(outcome, 'room_config_changed')).toMatchObject({ withAck: true, data: { config } });
  });

  it('tells every client who races before room_init_race: ready or leading, and not away', () => {
    const before = room([{ id: 'a' }, { id: 'b', isReady: true }, { id: 'c' }, { id: 'd', isAfk: true }]);
    const outcome = apply(before, { type: 'initRace', by: 'a', seed: 77 }, ctx);
    expect(events(outcome)).toEqual(['room_users_update', 'room_init_race']);
    expect(emitted(outcome, 'room_users_update')?.data).toEqual({
      a: { isTyping: true, isReady: false, isAfk: false },
      b: { isTyping: true, isReady: true, isAfk: false },
      c: { isTyping: false, isReady: false, isAfk: false },
      d: { isTyping: false, isReady: false, isAfk: true },
    });
    expect(emitted(outcome, 'room_init_race')?.data).toEqual({ seed: 77 });
    expect(outcome.room?.timer).toEqual({ kind: 'init', at: NOW + DEFAULT_TIMINGS.initMs, remaining: 0 });
    expect(outcome.effects).toContainEqual({ kind: 'race-prepared' });
  });

  it('runs a whole race through the client’s states, never re-sending RACE_INIT or RACE_ONGOING', () => {
    const timings = { ...DEFAULT_TIMINGS, countdownSeconds: 3, finishSeconds: 2, readySeconds: 2 };
    let now = NOW;
    let current = room([{ id: 'a' }, { id: 'b', isReady: true }, { id: 'c' }]);
    const seen: string[] = [];
    const countdown: number[] = [];
    const step = (command: Command) => {
      const outcome = apply(current, command, { now, timings });
      seen.push(...states(outcome));
      for (const e of emits(outcome))
        if (e.event === 'room_countdown') countdown.push((e.data as { time: number }).time);
      current = outcome.room as Room;
      return outcome;
    };
    const stateOf = (): RoomState => current.state;
    const tick = () => {
      now = (current.timer as Timer).at;
      return step({ type: 'timer' });
    };
    step({ type: 'initRace', by: 'a', seed: 9 });
    while (stateOf() !== 'RACE_ONGOING') tick();
    expect(countdown).toEqual([3, 2, 1]);
    expect(current.members.b?.isReady).toBe(false);
    step({ type: 'result', by: 'b', result: result(100) });
    const last = step({ type: 'result', by: 'a', result: result(90) });
    expect(emitted(last, 'room_final_positions')?.data).toEqual({
      positions: {
        '1': [{ id: 'b', newPoints: 1, newPointsTotal: 1 }],
        '2': [{ id: 'a', newPoints: 0, newPointsTotal: 0 }],
      },
      miniCrowns: { raw: ['b'], wpm: ['b'], acc: ['b', 'a'], consistency: ['b', 'a'] },
    });
    while (stateOf() !== 'READY_TO_CONTINUE') tick();
    expect(seen).toEqual(['RACE_COUNTDOWN', 'RACE_ONE_FINISHED', 'SHOWING_RESULTS', 'READY_TO_CONTINUE']);
    expect(current.timer).toBeNull();
    expect(current.members.c).toMatchObject({ isTyping: false, isFinished: false, points: 0 });
  });

  it('shows the results without the racers whose results never came, after the wait', () => {
    const before = room(
      [
        { id: 'a', isTyping: false, isFinished: true, result: result(70) },
        { id: 'b', isTyping: true },
      ],
      'RACE_AWAITING_RESULTS',
      { timer: timer('results') },
    );
    const outcome = apply(before, { type: 'timer' }, ctx);
    expect(emitted(outcome, 'room_user_result')?.data).toEqual({ userId: 'b' });
    expect(outcome.room?.members.b).toMatchObject({ isFinished: true, isTyping: false });
    expect(states(outcome)).toEqual(['SHOWING_RESULTS']);
    expect(emitted(outcome, 'room_readyTimer_countdown')?.data).toEqual({
      time: DEFAULT_TIMINGS.readySeconds,
    });
  });

  it('does not wait for a racer who left: the others’ results show at once', () => {
    const before = room(
      [
        { id: 'a', isTyping: false, isFinished: true, result: result(70) },
        { id: 'b', isTyping: true },
      ],
      'RACE_ONE_FINISHED',
      { timer: timer('finish', 10, NOW + 1000) },
    );
    const outcome = apply(before, { type: 'leave', memberId: 'b', reason: 'disconnected' }, ctx);
    expect(states(outcome)).toEqual(['SHOWING_RESULTS', 'READY_TO_CONTINUE']);
  });

  it('goes back to the lobby when every racer left before the race started', () => {
    const before = room([{ id: 'a', isTyping: true }, { id: 'b' }], 'RACE_COUNTDOWN', {
      timer: timer('countdown', 3),
    });
    const outcome = apply(before, { type: 'leave', memberId: 'a', reason: 'disconnected' }, ctx);
    expect(outcome.room?.state).toBe('LOBBY');
    expect(outcome.room?.timer).toBeNull();
    expect(outcome.room?.members.b?.isLeader).toBe(true);
  });
});
