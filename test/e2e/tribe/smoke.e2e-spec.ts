import { Clients, createTribeApp, next, roomConfig, ask, type TribeTestApp } from './support';

describe('tribe smoke', () => {
  let t: TribeTestApp;
  const clients = new Clients();
  beforeAll(async () => {
    t = await createTribeApp();
  });
  afterAll(async () => {
    let s = Date.now();
    await clients.closeAll();
    console.log('clients', Date.now() - s);
    s = Date.now();
    await t.close();
    console.log('close', Date.now() - s);
  });

  it('creates a room', async () => {
    const a = await clients.connect(t.url, { name: 'alice' });
    expect(a.id).toMatch(/^[A-Za-z][A-Za-z0-9]{19}$/);
    expect(await ask(a, 'system_version_check', { version: '25.12.4' })).toEqual({
      status: 'ok',
      version: '25.12.4',
    });
    const joined = next<{ room: { id: string } }>(a, 'room_joined');
    a.emit('room_create', { config: roomConfig() });
    const { room } = await joined;
    expect(room.id).toMatch(/^[a-f0-9]{6}$/);
    const b = await clients.connect(t.url, { name: 'bob' });
    const joinedB = await ask<{ room: { users: Record<string, unknown> } }>(b, 'room_join', {
      roomId: room.id,
      fromBrowser: false,
    });
    expect(Object.keys(joinedB.room.users)).toHaveLength(2);
    console.log(await ask(b, 'system_stats'));
  });
});
