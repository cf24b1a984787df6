import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import type { Friend } from '../../../src/modules/connections/friends.types';
import { createTestApp, type TestApp } from '../../support/test-app';
import { member, seedConnection, type Member } from './support';

type Pb = { wpm: number; acc?: number; mode2?: string; language?: string; timestamp?: number };

describe('GET /users/friends', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
  });
  afterAll(() => t.close());

  const friends = (who: Member) => t.request<{ data: Friend[] }>('GET', '/users/friends', { auth: who.auth });

  const addPb = async (uid: string, pb: Pb) => {
    await t.db
      .insertInto('personal_bests')
      .values({
        uid,
        mode: 'time',
        mode2: pb.mode2 ?? '15',
        language: pb.language ?? 'english',
        difficulty: 'normal',
        punctuation: false,
        numbers: false,
        lazy_mode: false,
        wpm: pb.wpm,
        acc: pb.acc ?? 95,
        raw: pb.wpm + 3,
        consistency: 70,
        timestamp: pb.timestamp ?? 1_700_000_000_000,
      })
      .execute();
  };

  it('needs a Bearer token: 401 without one, 401 for an ApeKey', async () => {
    expect((await t.request('GET', '/users/friends')).status).toBe(401);
    const res = await t.request('GET', '/users/friends', {
      auth: `ApeKey ${formatApeKey('0123456789abcdef01234567', 'S'.repeat(32))}`,
      ip: '10.6.1.1',
    });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
  });

  it('answers 503 while connections are disabled', async () => {
    const me = await member(t);
    await t.configure({ connections: { enabled: false } });
    try {
      const res = await friends(me);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Connections are not available at this time.', data: null });
    } finally {
      await t.configure({ connections: { enabled: true } });
    }
  });

  it('is empty without an accepted connection (pending, rejected and blocked ones do not count)', async () => {
    const me = await member(t);
    const [a, b, c, d] = await Promise.all(Array.from({ length: 4 }, () => member(t)));
    await seedConnection(t, me.uid, a!.uid, 'pending');
    await seedConnection(t, b!.uid, me.uid, 'pending');
    await seedConnection(t, c!.uid, me.uid, 'blocked');
    await seedConnection(t, me.uid, d!.uid, 'rejected');
    const res = await friends(me);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Friends retrieved', data: [] });
  });

  it('lists accepted connections on both sides, then the caller without connection metadata', async () => {
    const me = await member(t, { name: `m_me_${Date.now() % 100000}` });
    const alice = await member(t, { name: `a_alice_${Date.now() % 100000}` });
    const bob = await member(t, { name: `b_bob_${Date.now() % 100000}` });
    const pending = await member(t);
    const outsider = await member(t);
    const withAlice = await seedConnection(t, me.uid, alice.uid, 'accepted', 1111);
    const withBob = await seedConnection(t, bob.uid, me.uid, 'accepted', 2222);
    await seedConnection(t, pending.uid, me.uid, 'pending');
    await seedConnection(t, alice.uid, outsider.uid, 'accepted');

    const res = await friends(me);
    expect(res.status).toBe(200);
    expect(res.body.data.map((f) => [f.uid, f.connectionId, f.lastModified])).toEqual([
      [alice.uid, withAlice, 1111],
      [bob.uid, withBob, 2222],
      [me.uid, undefined, undefined],
    ]);
    expect(res.body.data[2]).not.toHaveProperty('connectionId');
    expect(res.body.data[2]).not.toHaveProperty('lastModified');
  });

  it("carries each friend's profile facts, and isPremium only while premium is enabled", async () => {
    const me = await member(t);
    const friend = await member(t, { premiumExpiresAt: -1 });
    await t.db
      .updateTable('users')
      .set({
        xp: 4321,
        streak_length: 4,
        streak_max_length: 9,
        started_tests: 12,
        completed_tests: 10,
        time_typing: 345.5,
        last_result_at: 1_700_000_123_000,
        chat_id: `chat${Date.now()}`,
        chat_avatar: 'avatarhash',
        banned: false,
        lb_opt_out: true,
        inventory_badges: JSON.stringify([{ id: 3 }, { id: 14, selected: true }]),
      })
      .where('uid', '=', friend.uid)
      .execute();
    await addPb(friend.uid, { wpm: 80, mode2: '15', timestamp: 1 });
    await addPb(friend.uid, { wpm: 95, mode2: '15', language: 'german', acc: 97, timestamp: 2 });
    await addPb(friend.uid, { wpm: 70, mode2: '60', timestamp: 3 });
    await addPb(friend.uid, { wpm: 200, mode2: '30', timestamp: 4 });
    const connectionId = await seedConnection(t, me.uid, friend.uid, 'accepted', 5555);

    const res = await friends(me);
    const entry = res.body.data.find((f) => f.uid === friend.uid);
    const chat = await t.db
      .selectFrom('users')
      .select('chat_id')
      .where('uid', '=', friend.uid)
      .executeTakeFirstOrThrow();
    expect(entry).toEqual({
      uid: friend.uid,
      name: friend.name,
      chatId: chat.chat_id,
      chatAvatar: 'avatarhash',
      startedTests: 12,
      completedTests: 10,
      timeTyping: 345.5,
      xp: 4321,
      streak: { length: 4, maxLength: 9 },
      lastActivityTimestamp: 1_700_000_123_000,
      banned: false,
      lbOptOut: true,
      badgeId: 14,
      top15: {
        acc: 97,
        consistency: 70,
        difficulty: 'normal',
        lazyMode: false,
        language: 'german',
        punctuation: false,
        numbers: false,
        raw: 98,
        wpm: 95,
        timestamp: 2,
      },
      top60: expect.objectContaining({ wpm: 70, language: 'english', timestamp: 3 }),
      connectionId,
      lastModified: 5555,
    });
    const self = res.body.data.find((f) => f.uid === me.uid);
    expect(self).toEqual({
      uid: me.uid,
      name: me.name,
      startedTests: 0,
      completedTests: 0,
      timeTyping: 0,
      xp: 0,
      streak: { length: 0, maxLength: 0 },
      banned: false,
      lbOptOut: false,
    });

    await t.configure({ users: { premium: { enabled: true } } });
    try {
      const on = await friends(me);
      expect(on.body.data.find((f) => f.uid === friend.uid)?.isPremium).toBe(true);
      expect(on.body.data.find((f) => f.uid === me.uid)?.isPremium).toBe(false);
    } finally {
      await t.configure({ users: { premium: { enabled: false } } });
    }
  });

  it('shows current names: a name change is reflected at once', async () => {
    const me = await member(t);
    const friend = await member(t);
    await seedConnection(t, friend.uid, me.uid, 'accepted');
    const renamed = `fr_${Date.now() % 100000}`;
    await t.db.updateTable('users').set({ name: renamed }).where('uid', '=', friend.uid).execute();
    const res = await friends(me);
    expect(res.body.data.find((f) => f.uid === friend.uid)?.name).toBe(renamed);
  });

  it('allows 60 requests per minute per user, then 429', async () => {
    const me = await member(t);
    for (let i = 0; i < 60; i++) expect((await friends(me)).status).toBe(200);
    const limited = await friends(me);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Request limit reached, please try again later.');
  });
});
