import { redisKeys } from '../../../src/infra/redis/keys';
import { TribeHub } from '../../../src/modules/tribe/tribe-hub';
import { ask, Clients, createTribeApp, next, roomConfig, sleep, type TribeTestApp } from './support';

/** A player id that no connection holds (the shape of a real one). */
const GHOST = 'Zghost0000000000000a';

/**
 * Nothing grows without bound: rooms go when their last member does, members whose connection is gone leave, dead
 * replicas' lists and forgotten rooms are collected, due timers of rooms that are gone are dropped.
 */
describe('Tribe housekeeping', () => {
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

  async function roomWithGhost(): Promise<{ id: string; alice: Awaited<ReturnType<Clients['connect']>> }> {
    const alice = await clients.connect(t.url, { name: 'alice' });
    const joined = next<{ room: { id: string } }>(alice, 'room_joined');
    alice.emit('room_create', { config: roomConfig() });
    const { id } = (await joined).room;
    // A member whose connection vanished without its disconnection being processed (a crash, a Redis blip).
    const key = redisKeys.tribeRoom(id).room;
    const state = JSON.parse((await t.redis.hget(key, 's')) as string) as {
      members: Record<string, unknown>;
    };
    state.members[GHOST] = {
      ...(state.members[alice.id!] as object),
      id: GHOST,
      name: 'ghost',
      isLeader: false,
      joinSeq: 9,
    };
    await t.redis.hset(
      key,
      's',
      JSON.stringify(state),
      'v',
      String(Number(await t.redis.hget(key, 'v')) + 1),
    );
    return { id, alice };
  }

  it('deletes a room, its progress and its index line when its last member leaves', async () => {
    const alice = await clients.connect(t.url);
    const joined = next<{ room: { id: string } }>(alice, 'room_joined');
    alice.emit('room_create', { config: roomConfig(), type: 'public' });
    const { id } = (await joined).room;
    const keys = redisKeys.tribeRoom(id);
    expect(await t.redis.pttl(keys.room)).toBeGreaterThan(0);
    expect(await t.redis.hexists(redisKeys.tribeIndex().rooms, id)).toBe(1);
    alice.emit('room_leave');
    await next(alice, 'room_left');
    expect(await t.redis.exists(keys.room, keys.progress)).toBe(0);
    expect(await t.redis.hexists(redisKeys.tribeIndex().rooms, id)).toBe(0);
    expect(await t.redis.sismember(redisKeys.tribeIndex().publicRooms, id)).toBe(0);
  });

  it('takes out a member this replica listed but no longer holds', async () => {
    const { id, alice } = await roomWithGhost();
    await t.redis.hset(redisKeys.tribeReplica(t.app.get(TribeHub).replicaId), GHOST, id);
    expect(await next(alice, 'room_player_left', undefined, 5_000)).toEqual({ userId: GHOST });
    expect(await t.redis.hexists(redisKeys.tribeReplica(t.app.get(TribeHub).replicaId), GHOST)).toBe(0);
  });

  it('takes out the members of a replica whose heartbeat stopped, and forgets that replica', async () => {
    const { id, alice } = await roomWithGhost();
    await t.redis.zadd(redisKeys.tribeIndex().replicas, Date.now() - 60_000, 'deadreplica');
    await t.redis.hset(redisKeys.tribeReplica('deadreplica'), GHOST, id);
    expect(await next(alice, 'room_player_left', undefined, 5_000)).toEqual({ userId: GHOST });
    await sleep(200);
    expect(await t.redis.zscore(redisKeys.tribeIndex().replicas, 'deadreplica')).toBeNull();
    expect(await t.redis.exists(redisKeys.tribeReplica('deadreplica'))).toBe(0);
  });

  it('drops forgotten rooms from the index, and timers of rooms that are gone from the schedule', async () => {
    const index = redisKeys.tribeIndex();
    await t.redis.hset(index.rooms, 'abcdef', '1|{"id":"abcdef","name":"gone","size":1,"state":"LOBBY"}');
    await t.redis.sadd(index.publicRooms, 'abcdef');
    await t.redis.zadd(index.schedule, Date.now(), 's:abcdef', Date.now(), 'p:abcdef');
    const observer = await clients.connect(t.url);
    await sleep(2_500);
    expect(await t.redis.hexists(index.rooms, 'abcdef')).toBe(0);
    expect(await t.redis.sismember(index.publicRooms, 'abcdef')).toBe(0);
    expect(await t.redis.zcard(index.schedule)).toBe(0);
    expect(
      (await ask<{ rooms: { id: string }[] }>(observer, 'room_get_public_rooms', { search: '' })).rooms,
    ).toEqual([]);
  });

  it('forgets a connection once it is closed', async () => {
    const socket = await clients.connect(t.url);
    const list = redisKeys.tribeReplica(t.app.get(TribeHub).replicaId);
    expect(await t.redis.hexists(list, socket.id!)).toBe(1);
    const id = socket.id!;
    socket.disconnect();
    await sleep(300);
    expect(await t.redis.hexists(list, id)).toBe(0);
  });
});
