import { createUser } from '../../support/factories';
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

interface User {
  id: string;
  name: string;
  isLeader: boolean;
  isReady: boolean;
  isAfk: boolean;
  isChatting: boolean;
  points: number;
}
interface Room {
  id: string;
  state: string;
  users: Record<string, User>;
  size: number;
  updateRate: number;
  isPrivate: boolean;
  name: string;
  config: Record<string, unknown>;
  seed: number;
}

describe('Tribe rooms', () => {
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

  async function create(name: string, type?: 'public' | 'private'): Promise<{ socket: Client; room: Room }> {
    const socket = await clients.connect(t.url, { name });
    const joined = next<{ room: Room }>(socket, 'room_joined');
    socket.emit('room_create', { config: roomConfig(), ...(type ? { type } : {}) });
    return { socket, room: (await joined).room };
  }

  async function join(roomId: string, name: string, token?: string): Promise<{ socket: Client; room: Room }> {
    const socket = await clients.connect(t.url, { name, token });
    const answer = await ask<{ room: Room }>(socket, 'room_join', { roomId, fromBrowser: false });
    return { socket, room: answer.room };
  }

  it('creates a private room by default, led by its creator, with the client’s config', async () => {
    const { socket, room } = await create('alice');
    expect(room).toMatchObject({
      state: 'LOBBY',
      size: 1,
      updateRate: 200,
      isPrivate: true,
      name: "alice's room",
      config: roomConfig(),
      maxWpm: 0,
      minWpm: 0,
    });
    expect(room.id).toMatch(/^[a-f0-9]{6}$/);
    expect(room.users[socket.id!]).toEqual({
      id: socket.id,
      name: 'alice',
      isLeader: true,
      isReady: false,
      isAfk: false,
      isChatting: false,
      isTyping: false,
      isFinished: false,
      points: 0,
    });
    expect(Number.isInteger(room.seed)).toBe(true);
  });

  it('refuses a room with an invalid config, and lets the client try again', async () => {
    const socket = await clients.connect(t.url);
    const told = next<{ message: string }>(socket, 'system_notification');
    const left = next(socket, 'room_left');
    socket.emit('room_create', { config: roomConfig({ language: 'english"><script>' }) });
    expect((await told).message).toBe('Invalid room config: "language" must be a supported language');
    await left;
  });

  it('lets a player join by code (any case); the others are told', async () => {
    const { socket: alice, room } = await create('alice');
    const joinedSeen = next<{ user: User }>(alice, 'room_player_joined');
    const { socket: bob, room: seen } = await join(room.id.toUpperCase(), 'bob');
    expect(Object.keys(seen.users)).toEqual([alice.id, bob.id]);
    expect(seen.size).toBe(2);
    expect((await joinedSeen).user).toMatchObject({ id: bob.id, name: 'bob', isLeader: false });
  });

  it.each([
    ['an unknown code', 'ffffff', 'Room not found'],
    ['a malformed code', 'xyz', 'Incorrect room code format'],
  ])('answers a join of %s with its reason, as a notification too', async (_, roomId, message) => {
    const socket = await clients.connect(t.url);
    const told = next<{ message: string }>(socket, 'system_notification');
    expect(await ask(socket, 'room_join', { roomId })).toEqual({ status: 'error', message });
    expect((await told).message).toBe(message);
  });

  it('takes a player out of its room when it leaves: room_left for it, room_player_left for the others', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    const leftSeen = next<{ userId: string }>(alice, 'room_player_left');
    const left = next(bob, 'room_left');
    bob.emit('room_leave');
    await left;
    expect(await leftSeen).toEqual({ userId: bob.id });
    // Out of the room, it hears nothing of it.
    const heard = record(bob, 'room_chat_message');
    alice.emit('room_chat_message', { message: 'still there?' });
    await next(alice, 'room_chat_message');
    expect(heard).toEqual([]);
  });

  it('passes the lead to the member who joined first when the leader leaves, and deletes the empty room', async () => {
    const { socket: alice, room } = await create('alice', 'public');
    const { socket: bob } = await join(room.id, 'bob');
    const { socket: carol } = await join(room.id, 'carol');
    const changed = next<{ userId: string }>(carol, 'room_leader_changed');
    alice.disconnect();
    expect(await changed).toEqual({ userId: bob.id });
    bob.emit('room_leave');
    await next(bob, 'room_left');
    carol.emit('room_leave');
    await next(carol, 'room_left');
    const again = await clients.connect(t.url);
    expect(await ask(again, 'room_join', { roomId: room.id })).toEqual({
      status: 'error',
      message: 'Room not found',
    });
    expect(
      (await ask<{ rooms: { id: string }[] }>(again, 'room_get_public_rooms', { page: 0, search: '' })).rooms,
    ).not.toContainEqual(expect.objectContaining({ id: room.id }));
  });

  it('lets only the leader rename the room, with a name the public list can show', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    const renamed = next<{ name: string }>(bob, 'room_name_changed');
    alice.emit('room_update_name', { name: 'Speed demons' });
    expect(await renamed).toEqual({ name: 'Speed demons' });
    expect(await ask(bob, 'room_update_name', { name: 'mine now' })).toEqual({
      status: 'error',
      message: 'Only the room leader can do that',
    });
    expect(await ask(alice, 'room_update_name', { name: '<img src=x onerror=alert(1)>' })).toEqual({
      status: 'error',
      message: 'Room name cannot contain <, >, &, " or `',
    });
  });

  it('lists public rooms, searchable by name, and takes a room off the list when it goes private', async () => {
    const { socket: alice, room } = await create('alice', 'public');
    alice.emit('room_update_name', { name: 'Findable Room 42' });
    await next(alice, 'room_name_changed');
    const other = await clients.connect(t.url);
    const found = await ask<{
      rooms: {
        id: string;
        name: string;
        size: number;
        state: string;
        config: { customText: { text: string[] } };
      }[];
    }>(other, 'room_get_public_rooms', { page: 0, search: 'findable room' });
    expect(found.rooms).toEqual([
      expect.objectContaining({ id: room.id, name: 'Findable Room 42', size: 1, state: 'LOBBY' }),
    ]);
    // The list never carries the custom text (the client does not show it; it can be 100 KB a room).
    expect(found.rooms[0]!.config.customText.text).toEqual([]);
    const hidden = next<{ isPrivate: boolean }>(alice, 'room_visibility_changed');
    alice.emit('room_toggle_visibility');
    expect(await hidden).toEqual({ isPrivate: true });
    expect(
      (await ask<{ rooms: unknown[] }>(other, 'room_get_public_rooms', { page: 0, search: 'findable' }))
        .rooms,
    ).toEqual([]);
  });

  it('hands the lead over on request', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    bob.emit('room_afk_update', { isAfk: true });
    await next(alice, 'room_user_afk_update');
    const changed = next<{ userId: string }>(alice, 'room_leader_changed');
    alice.emit('room_give_leader', { userId: bob.id });
    expect(await changed).toEqual({ userId: bob.id });
    expect(await ask(alice, 'room_give_leader', { userId: alice.id })).toEqual({
      status: 'error',
      message: 'Only the room leader can do that',
    });
  });

  it('bans a player from the room for good', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    const leftBob = next(bob, 'room_left');
    const toldBob = next<{ message: string }>(bob, 'system_notification');
    const announced = next<{ message: string; isSystem: boolean }>(alice, 'room_chat_message');
    alice.emit('room_ban_user', { userId: bob.id });
    await leftBob;
    expect((await toldBob).message).toBe('You have been banned from this room');
    expect(await announced).toEqual({ message: 'bob has been banned', isSystem: true });
    expect(await ask(bob, 'room_join', { roomId: room.id })).toEqual({
      status: 'error',
      message: 'You are banned from this room',
    });
    // Reconnecting as someone else from the same address does not help an unverified player.
    const again = await clients.connect(t.url, { name: 'not_bob' });
    expect(await ask(again, 'room_join', { roomId: room.id })).toMatchObject({ status: 'error' });
  });

  it('changes the config on the leader’s word only, between races, checked, and every member answers it', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    const changed = new Promise<{ config: Record<string, unknown> }>((resolve) => {
      // The client's handler takes an acknowledgement and calls it once the config is applied.
      bob.once(
        'room_config_changed',
        (data: { config: Record<string, unknown> }, ack: (ok: boolean) => void) => {
          expect(typeof ack).toBe('function');
          ack(true);
          resolve(data);
        },
      );
    });
    alice.emit('room_update_config', { config: roomConfig({ mode: 'time', time: 15, funbox: ['mirror'] }) });
    expect((await changed).config).toMatchObject({ mode: 'time', time: 15, funbox: ['mirror'] });
    expect(await ask(bob, 'room_update_config', { config: roomConfig() })).toEqual({
      status: 'error',
      message: 'Only the room leader can do that',
    });
    expect(await ask(alice, 'room_update_config', { config: roomConfig({ funbox: ['<b>'] }) })).toEqual({
      status: 'error',
      message: 'Invalid room config: "funbox" must contain only known funboxes',
    });
    // A joiner gets the room's config.
    const { room: seen } = await join(room.id, 'carol');
    expect(seen.config).toMatchObject({ mode: 'time', time: 15 });
  });

  it('relays ready, away and chatting flags', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    const ready = next(alice, 'room_user_is_ready');
    bob.emit('room_ready_update');
    expect(await ready).toEqual({ userId: bob.id });
    expect(await ask(bob, 'room_afk_update', { isAfk: true })).toEqual({
      status: 'error',
      message: 'You are ready: you cannot take a break now',
    });
    const chatting = next(alice, 'room_chatting_changed');
    bob.emit('room_chatting_update', { isChatting: true });
    expect(await chatting).toEqual({ userId: bob.id, isChatting: true });
    expect(await ask(alice, 'room_afk_update', { isAfk: true })).toEqual({
      status: 'error',
      message: 'The leader cannot take a break',
    });
    const { socket: carol } = await join(room.id, 'carol');
    const away = next(alice, 'room_user_afk_update');
    carol.emit('room_afk_update', { isAfk: true });
    expect(await away).toEqual({ userId: carol.id, isAfk: true });
    // A newcomer sees the flags as they are.
    const { room: seen } = await join(room.id, 'dave');
    expect(seen.users[bob.id!]).toMatchObject({ isReady: true, isChatting: true });
    expect(seen.users[carol.id!]).toMatchObject({ isAfk: true });
  });

  it('relays chat to every member, sender included, escaped for the client’s HTML, from a known member', async () => {
    const { socket: alice, room } = await create('alice');
    const { socket: bob } = await join(room.id, 'bob');
    const toBob = next<{ message: string; from: User; isSystem: boolean }>(bob, 'room_chat_message');
    const toAlice = next<{ message: string }>(alice, 'room_chat_message');
    alice.emit('room_chat_message', { message: '  @bob <img src=x onerror=alert(1)> :smile:  ' });
    const message = await toBob;
    expect(message).toEqual({
      message: '&#64;bob &#60;img src&#61;x onerror&#61;alert&#40;1&#41;&#62; &#58;smile&#58;',
      from: expect.objectContaining({ id: alice.id, name: 'alice' }),
      isSystem: false,
    });
    expect((await toAlice).message).toBe(message.message);
    expect(await ask(alice, 'room_chat_message', { message: 'x'.repeat(513) })).toEqual({
      status: 'error',
      message: 'A message must have 1 to 512 characters',
    });
  });

  it('holds at most 10 players', async () => {
    const { room } = await create('p0');
    for (let i = 1; i < 10; i++) await join(room.id, `p${i}`);
    const late = await clients.connect(t.url, { name: 'late' });
    expect(await ask(late, 'room_join', { roomId: room.id })).toEqual({
      status: 'error',
      message: 'Room is full',
    });
  });

  it('keeps a verified name for its account: a guest cannot use it in the room, and one using it makes way', async () => {
    const vera = await createUser(t.db, { name: 'Vera' });
    const token = (await t.bearer(vera.uid)).slice('Bearer '.length);
    // A guest calling itself Vera is in the room first.
    const { socket: impostor, room } = await create('vera');
    const { socket: other } = await join(room.id, 'other');
    const madeWay = next<{ message: string }>(impostor, 'system_notification');
    const { socket: real, room: seen } = await join(room.id, 'ignored', token);
    expect((await madeWay).message).toBe(
      'A signed-in player named vera joined the room: change your name to join again',
    );
    expect(
      Object.values(seen.users)
        .map((u) => u.name)
        .sort(),
    ).toEqual(['Vera', 'other']);
    expect(seen.users[other.id!]?.isLeader).toBe(true);
    // And no guest may take the name while the account is there.
    const again = await clients.connect(t.url, { name: 'VERA' });
    expect(await ask(again, 'room_join', { roomId: room.id })).toEqual({
      status: 'error',
      message: 'The name VERA belongs to a signed-in player in this room',
    });
    expect(real.connected).toBe(true);
  });

  it('moves a player to its new room when it creates or joins one while in another', async () => {
    const { socket: alice, room: first } = await create('alice');
    const { socket: bob } = await join(first.id, 'bob');
    const left = next(alice, 'room_player_left');
    const { room: second } = await create('carol');
    expect(await ask<{ room: Room }>(bob, 'room_join', { roomId: second.id })).toMatchObject({
      room: { id: second.id },
    });
    expect(await left).toEqual({ userId: bob.id });
    await sleep(50);
  });
});
