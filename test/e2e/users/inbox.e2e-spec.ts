import { randomUUID } from 'node:crypto';
import { InboxService } from '../../../src/modules/inbox/inbox.service';
import type { MailReward } from '../../../src/modules/inbox/inbox.types';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ANY_APE_KEY } from './support';

interface MailView {
  id: string;
  subject: string;
  body: string;
  rewards: MailReward[];
  timestamp: number;
  read: boolean;
}

describe('inbox: GET /users/inbox, PATCH /users/inbox, InboxService.send', () => {
  let t: TestApp;
  let inbox: InboxService;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { userMailUpdate: { max: 1000 } } } },
    });
    inbox = t.app.get(InboxService);
  });
  afterAll(() => t.close());

  async function signedIn(xp = 0) {
    const user = await createUser(t.db, { xp });
    return { ...user, auth: await t.bearer(user.uid) };
  }

  async function send(uid: string, subject: string, rewards: MailReward[] = []): Promise<string> {
    t.clock.advance(1000);
    const id = await inbox.send(uid, { subject, body: `${subject} body`, rewards });
    if (id === null) throw new Error('inbox is off');
    return id;
  }

  const mails = async (auth: string) =>
    ((await t.request('GET', '/users/inbox', { auth })).body.data as { inbox: MailView[] }).inbox;
  const account = async (uid: string) =>
    t.db
      .selectFrom('users')
      .select(['xp', 'inventory_badges'])
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
  const patch = (auth: string, body: unknown) => t.request('PATCH', '/users/inbox', { auth, body });

  it('lists the caller’s mail newest first, with the capacity', async () => {
    const me = await signedIn();
    const other = await signedIn();
    const first = await send(me.uid, 'first');
    const second = await send(me.uid, 'second', [{ type: 'badge', item: { id: 14 } }]);
    await send(other.uid, 'not yours');
    const res = await t.request('GET', '/users/inbox', { auth: me.auth });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Inbox retrieved');
    const data = res.body.data as { inbox: MailView[]; maxMail: number };
    expect(data.maxMail).toBe(50);
    expect(data.inbox).toEqual([
      {
        id: second,
        subject: 'second',
        body: 'second body',
        rewards: [{ type: 'badge', item: { id: 14 } }],
        timestamp: t.clock.now() - 1000,
        read: false,
      },
      expect.objectContaining({ id: first, subject: 'first', read: false, rewards: [] }),
    ]);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps only the newest users.inbox.maxMail mails', async () => {
    await t.configure({ users: { inbox: { maxMail: 3 } } });
    try {
      const me = await signedIn();
      for (const subject of ['m1', 'm2', 'm3', 'm4', 'm5']) await send(me.uid, subject);
      const res = await t.request('GET', '/users/inbox', { auth: me.auth });
      const data = res.body.data as { inbox: MailView[]; maxMail: number };
      expect(data.maxMail).toBe(3);
      expect(data.inbox.map((m) => m.subject)).toEqual(['m5', 'm4', 'm3']);
    } finally {
      await t.configure({ users: { inbox: { maxMail: 50 } } });
    }
  });

  it('claims rewards when unread mail is read: badges into the inventory, XP into the total', async () => {
    const me = await signedIn(10);
    const mail = await send(me.uid, 'reward', [
      { type: 'badge', item: { id: 14 } },
      { type: 'xp', item: 250 },
    ]);
    const res = await patch(me.auth, { mailIdsToMarkRead: [mail] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Inbox updated', data: null });
    expect(await account(me.uid)).toEqual({ xp: 260, inventory_badges: [{ id: 14 }] });
    expect(await mails(me.auth)).toEqual([expect.objectContaining({ id: mail, read: true, rewards: [] })]);
    // Reading it again gives nothing more.
    await patch(me.auth, { mailIdsToMarkRead: [mail] });
    expect(await account(me.uid)).toEqual({ xp: 260, inventory_badges: [{ id: 14 }] });
    const user = (await t.request('GET', '/users', { auth: me.auth })).body.data as { inventory: unknown };
    expect(user.inventory).toEqual({ badges: [{ id: 14 }] });
  });

  it('claims rewards of unread mail that is deleted, never of read mail, once when read and deleted together', async () => {
    const me = await signedIn();
    const unread = await send(me.uid, 'unread', [{ type: 'xp', item: 5 }]);
    const both = await send(me.uid, 'both', [{ type: 'xp', item: 7 }]);
    const read = await send(me.uid, 'read', [{ type: 'xp', item: 100 }]);
    await patch(me.auth, { mailIdsToMarkRead: [read] });
    expect((await account(me.uid)).xp).toBe(100);

    const res = await patch(me.auth, { mailIdsToDelete: [unread, read, both], mailIdsToMarkRead: [both] });
    expect(res.status).toBe(200);
    expect((await account(me.uid)).xp).toBe(112);
    expect(await mails(me.auth)).toEqual([]);
  });

  it('adds a badge the user already owns only once and keeps the selection', async () => {
    const me = await signedIn();
    await t.db
      .updateTable('users')
      .set({ inventory_badges: JSON.stringify([{ id: 3, selected: true }]) })
      .where('uid', '=', me.uid)
      .execute();
    const a = await send(me.uid, 'a', [{ type: 'badge', item: { id: 3 } }]);
    const b = await send(me.uid, 'b', [{ type: 'badge', item: { id: 9 } }]);
    const c = await send(me.uid, 'c', [{ type: 'badge', item: { id: 9 } }]);
    await patch(me.auth, { mailIdsToMarkRead: [a, b, c] });
    expect((await account(me.uid)).inventory_badges).toEqual([{ id: 3, selected: true }, { id: 9 }]);
  });

  it('claims a reward exactly once under 20 parallel updates', async () => {
    const me = await signedIn();
    const mail = await send(me.uid, 'race', [
      { type: 'xp', item: 1000 },
      { type: 'badge', item: { id: 22 } },
    ]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        patch(me.auth, i % 2 === 0 ? { mailIdsToMarkRead: [mail] } : { mailIdsToDelete: [mail] }),
      ),
    );
    for (const r of results) expect(r.status).toBe(200);
    expect(await account(me.uid)).toEqual({ xp: 1000, inventory_badges: [{ id: 22 }] });
  });

  it('ignores unknown ids and other users’ mail ids (their mail stays as it is)', async () => {
    const me = await signedIn();
    const victim = await signedIn();
    const theirs = await send(victim.uid, 'theirs', [{ type: 'xp', item: 50 }]);
    const res = await patch(me.auth, {
      mailIdsToMarkRead: [theirs, randomUUID()],
      mailIdsToDelete: [theirs],
    });
    expect(res.status).toBe(200);
    expect((await account(me.uid)).xp).toBe(0);
    expect(await mails(victim.auth)).toEqual([
      expect.objectContaining({ id: theirs, read: false, rewards: [{ type: 'xp', item: 50 }] }),
    ]);
  });

  it('accepts an update without a body', async () => {
    const me = await signedIn();
    expect((await t.request('PATCH', '/users/inbox', { auth: me.auth })).status).toBe(200);
  });

  it.each([
    [{ mailIdsToMarkRead: [] }, '"mailIdsToMarkRead" must contain at least 1 elements'],
    [{ mailIdsToDelete: ['not-a-uuid'] }, '"mailIdsToDelete" must contain mail ids (UUIDs) only'],
    [{ mailIdsToDelete: 'abc' }, '"mailIdsToDelete" must be an array'],
    [{ markRead: [] }, "Unrecognized key(s) in object: 'markRead'"],
  ])('refuses %j with 422', async (body, problem) => {
    const me = await signedIn();
    const res = await patch(me.auth, body);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Invalid request data schema');
    expect(res.body.validationErrors).toContain(problem);
  });

  it('refuses ApeKeys and missing tokens', async () => {
    for (const method of ['GET', 'PATCH']) {
      expect((await t.request(method, '/users/inbox', { auth: ANY_APE_KEY })).status).toBe(401);
      expect((await t.request(method, '/users/inbox')).status).toBe(401);
    }
  });

  it('answers 503 when the inbox is off, and delivers nothing meanwhile', async () => {
    const me = await signedIn();
    await t.configure({ users: { inbox: { enabled: false } } });
    try {
      for (const method of ['GET', 'PATCH']) {
        const res = await t.request(method, '/users/inbox', { auth: me.auth, body: { bogus: 1 } });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'Your inbox is not available at this time.', data: null });
      }
      expect(await inbox.send(me.uid, { subject: 'lost', body: 'x' })).toBeNull();
    } finally {
      await t.configure({ users: { inbox: { enabled: true } } });
    }
    expect(await mails(me.auth)).toEqual([]);
  });
});
