import { freePort } from '../../../src/infra/embedded/free-port';
import { createUser } from '../../support/factories';
import { createTestApp } from '../../support/test-app';
import { ask, Clients, createTribeApp, next, roomConfig, type TribeTestApp } from './support';

type Stats = { pingStart: number; stats: [number, { mm: number[]; custom: number[] }, number[], string] };

describe('Tribe connections', () => {
  let t: TribeTestApp;
  let tribePort: number;
  const clients = new Clients();

  beforeAll(async () => {
    tribePort = await freePort();
    t = await createTribeApp({ env: { tribe: { port: tribePort } } });
  });
  afterEach(() => clients.disconnectAll());
  afterAll(async () => {
    await clients.closeAll();
    await t.close();
  });

  const token = async (uid: string) => (await t.bearer(uid)).slice('Bearer '.length);

  describe('the platform knows about it', () => {
    it('is disabled unless an operator turns it on, as in the original (GET /configuration carries tribe.mode)', async () => {
      const fresh = await createTestApp();
      try {
        const res = await fresh.request<{ data: { tribe: unknown } }>('GET', '/configuration');
        expect(res.body.data.tribe).toEqual({ mode: 'disabled' });
      } finally {
        await fresh.close();
      }
      expect(
        (await t.request<{ data: { tribe: unknown } }>('GET', '/configuration')).body.data.tribe,
      ).toEqual({
        mode: 'enabled',
      });
    });

    it('refuses connections cleanly while disabled, with a message the client shows', async () => {
      await t.configure({ tribe: { mode: 'disabled' } });
      try {
        await expect(clients.connect(t.url)).rejects.toThrow('Tribe is disabled on this server');
      } finally {
        await t.configure({ tribe: { mode: 'enabled' } });
      }
    });

    it('serves the stealth mode like the enabled one (the client only hides its link)', async () => {
      await t.configure({ tribe: { mode: 'enabled_stealth' } });
      try {
        const socket = await clients.connect(t.url);
        expect(socket.connected).toBe(true);
      } finally {
        await t.configure({ tribe: { mode: 'enabled' } });
      }
    });

    it('tells connected players and closes their connections when it is turned off', async () => {
      const socket = await clients.connect(t.url);
      await t.configure({ tribe: { mode: 'disabled' } });
      try {
        const told = next<{ message: string }>(socket, 'system_notification');
        const closed = next(socket, 'disconnect');
        socket.emit('system_stats', () => undefined);
        expect((await told).message).toBe('Tribe is disabled on this server');
        expect(await closed).toBe('io server disconnect');
      } finally {
        await t.configure({ tribe: { mode: 'enabled' } });
      }
    });

    it('serves its very first connection through the shared adapter that connection turned on', async () => {
      // Timers and heartbeats far apart: the first connection, not a background loop, turns the Redis adapter on
      // (the socket object is made before the middleware that does it).
      const fresh = await createTribeApp({
        stores: t.stores,
        timings: { schedulerPollMs: 600_000, heartbeatMs: 600_000, housekeepingMs: 600_000 },
      });
      try {
        const first = await clients.connect(fresh.url, { name: 'first' });
        const joined = next<{ room: { id: string } }>(first, 'room_joined');
        first.emit('room_create', { config: roomConfig() });
        const { room } = await joined;
        // And the room is shared with the other replica.
        const other = await clients.connect(t.url, { name: 'other' });
        const seen = next(first, 'room_player_joined');
        await ask(other, 'room_join', { roomId: room.id });
        expect(await seen).toMatchObject({ user: { name: 'other' } });
      } finally {
        await fresh.close();
      }
    });

    it('listens on TRIBE_PORT as well, sharing the same rooms', async () => {
      const onApiPort = await clients.connect(t.url, { name: 'api_port' });
      const onOwnPort = await clients.connect(`http://127.0.0.1:${tribePort}`, { name: 'own_port' });
      const joined = next<{ room: { id: string } }>(onApiPort, 'room_joined');
      onApiPort.emit('room_create', { config: roomConfig() });
      const { room } = await joined;
      const answer = await ask<{ room: { users: Record<string, { name: string }> } }>(
        onOwnPort,
        'room_join',
        {
          roomId: room.id,
        },
      );
      expect(
        Object.values(answer.room.users)
          .map((u) => u.name)
          .sort(),
      ).toEqual(['api_port', 'own_port']);
      // Nothing else is served on that port.
      expect((await fetch(`http://127.0.0.1:${tribePort}/configuration`)).status).toBe(404);
    });

    it('answers the polling transport with the CORS headers of CORS_ORIGINS', async () => {
      const open = await fetch(`${t.url}/socket.io/?EIO=4&transport=polling`, {
        headers: { origin: 'https://type.example' },
      });
      expect(open.status).toBe(200);
      expect(open.headers.get('access-control-allow-origin')).toBe('*');

      const strict = await createTribeApp({
        stores: t.stores,
        env: { corsOrigins: ['https://type.example'] },
      });
      try {
        const allowed = await fetch(`${strict.url}/socket.io/?EIO=4&transport=polling`, {
          headers: { origin: 'https://type.example' },
        });
        expect(allowed.headers.get('access-control-allow-origin')).toBe('https://type.example');
        const foreign = await fetch(`${strict.url}/socket.io/?EIO=4&transport=polling`, {
          headers: { origin: 'https://evil.example' },
        });
        expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await strict.close();
      }
    });
  });

  describe('system events', () => {
    it('gives every player an id a CSS selector can hold: a letter first, socket.io’s 20 characters', async () => {
      const sockets = await Promise.all(Array.from({ length: 12 }, () => clients.connect(t.url)));
      for (const socket of sockets) expect(socket.id).toMatch(/^[A-Za-z][A-Za-z0-9]{19}$/);
      for (const socket of sockets) socket.disconnect();
    });

    it.each([
      ['the branch’s client', '25.12.4', 'ok'],
      ['its development build', 'dev', 'ok'],
      ['another version', '24.1.0', 'mismatch'],
    ])('checks the version of %s', async (_, version, status) => {
      const socket = await clients.connect(t.url);
      expect(await ask(socket, 'system_version_check', { version })).toEqual({ status, version: '25.12.4' });
    });

    it('reports players online, custom rooms (all, public) and empty matchmaking queues', async () => {
      const a = await clients.connect(t.url);
      const b = await clients.connect(t.url);
      const joined = next<{ room: { id: string } }>(a, 'room_joined');
      a.emit('room_create', { config: roomConfig(), type: 'public' });
      await joined;
      b.emit('room_create', { config: roomConfig() });
      await next(b, 'room_joined');
      await new Promise((r) => setTimeout(r, 1_100)); // the stats are cached for a second
      const { stats, pingStart } = await ask<Stats>(a, 'system_stats');
      expect(typeof pingStart).toBe('number');
      const [online, rooms, queues, version] = stats;
      expect(online).toBeGreaterThanOrEqual(2);
      expect(rooms.mm).toEqual([0, 0, 0, 0]);
      expect(rooms.custom[0]).toBeGreaterThanOrEqual(2);
      expect(rooms.custom[1]).toBeGreaterThanOrEqual(1);
      expect(rooms.custom[0]).toBeGreaterThan(rooms.custom[1]!);
      expect(queues).toEqual([0, 0, 0, 0]);
      expect(version).toBe('25.12.4');
      a.disconnect();
      b.disconnect();
    });

    it('refuses the development room of dev builds', async () => {
      const socket = await clients.connect(t.url);
      const told = next<{ message: string; level: number }>(socket, 'system_notification');
      socket.emit('dev_room');
      expect(await told).toEqual({
        message: 'The development room is not available on this server',
        level: -1,
      });
    });
  });

  describe('identity', () => {
    it('lets a guest race under a name that passes the account-name rules, and says which name it got', async () => {
      const named = clients.socket(t.url, { name: 'speedy.cat' });
      expect(await next(named, 'user_update_name')).toEqual({ name: 'speedy.cat' });
      const bad = clients.socket(t.url, { name: '<img src=x onerror=alert(1)>' });
      expect(await next(bad, 'user_update_name')).toEqual({ name: 'Guest' });
      const long = clients.socket(t.url, { name: 'x'.repeat(17) });
      expect(await next(long, 'user_update_name')).toEqual({ name: 'Guest' });
    });

    it('renames a guest with user_set_name, under the same rules, and not while in a room', async () => {
      const socket = await clients.connect(t.url);
      const renamed = next(socket, 'user_update_name');
      socket.emit('user_set_name', { name: 'new_name', confirm: true });
      expect(await renamed).toEqual({ name: 'new_name' });

      const refused = next<{ message: string }>(socket, 'system_notification');
      expect(await ask(socket, 'user_set_name', { name: 'no spaces', confirm: true })).toMatchObject({
        status: 'error',
      });
      expect((await refused).message).toBe(
        'Name may only contain letters, digits, underscores, hyphens and dots',
      );

      socket.emit('room_create', { config: roomConfig() });
      await next(socket, 'room_joined');
      expect(await ask(socket, 'user_set_name', { name: 'other', confirm: true })).toEqual({
        status: 'error',
        message: 'Leave the room to change your name',
      });
    });

    it('races a client that sends its ID token under its account name', async () => {
      const user = await createUser(t.db, { name: 'Verified_Vera' });
      const socket = clients.socket(t.url, { name: 'anything', token: await token(user.uid) });
      expect(await next(socket, 'user_update_name')).toEqual({ name: 'Verified_Vera' });
      expect(await ask(socket, 'user_set_name', { name: 'other' })).toEqual({
        status: 'error',
        message: 'Signed-in players race under their account name',
      });
    });

    it.each([
      [
        'a banned account',
        async () => token((await createUser(t.db, { banned: true })).uid),
        'Your account is banned',
      ],
      ['a token of no account', async () => token('uid-of-nobody'), 'Account not found'],
      ['a forged token', async () => 'not.a.token', 'Invalid token'],
      ['a token that is not a string', async () => 42 as unknown as string, 'Invalid token'],
    ])('refuses %s', async (_, make, message) => {
      const value = await make();
      const socket = clients.socket(t.url);
      socket.auth = { token: value };
      socket.disconnect().connect();
      await expect(
        new Promise<void>((resolve, reject) => {
          socket.once('connect', () => resolve());
          socket.once('connect_error', reject);
        }),
      ).rejects.toThrow(message);
    });
  });

  describe('limits', () => {
    it('takes at most 30 connections from one address (per replica)', async () => {
      const replica = await createTribeApp({ stores: t.stores });
      const sockets = [];
      for (let i = 0; i < 35; i++) sockets.push(clients.socket(replica.url));
      const outcomes = await Promise.allSettled(
        sockets.map(
          (s) =>
            new Promise<void>((resolve, reject) => {
              s.once('connect', () => resolve());
              s.once('connect_error', reject);
            }),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(30);
      const refused = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
      expect(refused).toHaveLength(5);
      for (const socket of sockets) socket.disconnect();
      // Closed connections give their place back.
      await new Promise((r) => setTimeout(r, 200));
      const again = await clients.connect(replica.url);
      expect(again.connected).toBe(true);
      again.disconnect();
      await replica.close();
    });
  });
});
