import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import type { Connection } from '../../../src/modules/connections/connections.types';
import { ConnectionsService } from '../../../src/modules/connections/connections.service';
import { createTestApp, type TestApp } from '../../support/test-app';
import { decide, member, request, seedConnection, storedStatus, type Member } from './support';

const NOT_FOUND = 'No permission or connection not found';

describe('Connections', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
  });
  afterAll(() => t.close());

  describe('access', () => {
    // Every row has all three values: jest hands a shorter row's missing argument over as a `done` callback.
    const routes: [string, string, unknown][] = [
      ['GET', '/connections', undefined],
      ['POST', '/connections', { receiverName: 'someone' }],
      ['PATCH', '/connections/abc123', { status: 'accepted' }],
      ['DELETE', '/connections/abc123', undefined],
    ];

    it.each(routes)('%s %s needs authentication: 401 Unauthorized', async (method, url, body) => {
      const res = await t.request(method, url, { body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthorized', data: null });
    });

    it.each(routes)('%s %s refuses ApeKeys: 401', async (method, url, body) => {
      const res = await t.request(method, url, {
        body,
        auth: `ApeKey ${formatApeKey('0123456789abcdef01234567', 'S'.repeat(32))}`,
        ip: '10.6.0.1',
      });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
    });

    it.each(routes)(
      '%s %s answers 503 while connections are disabled, even to an invalid request',
      async (method, url) => {
        const me = await member(t);
        await t.configure({ connections: { enabled: false } });
        try {
          const res = await t.request(method, url, { auth: me.auth, body: { wrong: 1 } });
          expect(res.status).toBe(503);
          expect(res.body).toEqual({ message: 'Connections are not available at this time.', data: null });
        } finally {
          await t.configure({ connections: { enabled: true } });
        }
      },
    );
  });

  describe('POST /connections', () => {
    it('creates a pending connection, looking the receiver up case-insensitively', async () => {
      const a = await member(t);
      const b = await member(t, { name: `Bob_${Date.now() % 100000}` });
      const res = await t.request<{ data: Connection }>('POST', '/connections', {
        auth: a.auth,
        body: { receiverName: b.name.toUpperCase() },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Connection created');
      expect(res.body.data).toEqual({
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        initiatorUid: a.uid,
        initiatorName: a.name,
        receiverUid: b.uid,
        receiverName: b.name,
        status: 'pending',
        lastModified: t.clock.now(),
      });
      expect(await storedStatus(t, res.body.data._id)).toBe('pending');
    });

    it('answers an unknown receiver with 404 User not found', async () => {
      const a = await member(t);
      const res = await t.request('POST', '/connections', {
        auth: a.auth,
        body: { receiverName: 'nobody_here' },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found', data: null });
    });

    it('refuses a request to oneself, whatever the casing: 400', async () => {
      const a = await member(t, { name: `Self_${Date.now() % 100000}` });
      for (const receiverName of [a.name, a.name.toLowerCase()]) {
        const res = await t.request('POST', '/connections', { auth: a.auth, body: { receiverName } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'You cannot be your own friend, sorry.', data: null });
      }
      expect(
        await t.db.selectFrom('connections').select('id').where('initiator_uid', '=', a.uid).execute(),
      ).toEqual([]);
    });

    it.each([
      ['a missing receiverName', {}, '"receiverName"'],
      ['an empty receiverName', { receiverName: '' }, '"receiverName"'],
      ['a number', { receiverName: 42 }, '"receiverName"'],
      ['a name longer than 16 characters', { receiverName: 'a'.repeat(17) }, '"receiverName"'],
      ['an unknown field', { receiverName: 'x', extra: true }, "Unrecognized key(s) in object: 'extra'"],
    ])('refuses %s: 422', async (_label, body, problem) => {
      const a = await member(t);
      const res = await t.request('POST', '/connections', { auth: a.auth, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.some((e) => e.startsWith(problem))).toBe(true);
    });

    describe('when the pair already has a record', () => {
      let a: Member;
      let b: Member;
      beforeEach(async () => {
        a = await member(t);
        b = await member(t);
      });

      const expectRefused = async (from: Member, to: Member, message: string) => {
        const res = await t.request('POST', '/connections', {
          auth: from.auth,
          body: { receiverName: to.name },
        });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ message, data: null });
        const rows = await t.db
          .selectFrom('connections')
          .select('id')
          .where((eb) =>
            eb.or([eb('initiator_uid', 'in', [a.uid, b.uid]), eb('receiver_uid', 'in', [a.uid, b.uid])]),
          )
          .execute();
        expect(rows).toHaveLength(1);
      };

      it('pending: the initiator again, or the receiver asking back → 409 Connection request already sent', async () => {
        await request(t, a, b);
        await expectRefused(a, b, 'Connection request already sent');
        await expectRefused(b, a, 'Connection request already sent');
      });

      it('accepted: either side → 409 Connection already exists', async () => {
        const c = await request(t, a, b);
        expect((await decide(t, b, c._id, 'accepted')).status).toBe(200);
        await expectRefused(a, b, 'Connection already exists');
        await expectRefused(b, a, 'Connection already exists');
      });

      it('blocked: the blocked user cannot ask again, nor can the blocker without lifting the block', async () => {
        const c = await request(t, a, b);
        expect((await decide(t, b, c._id, 'blocked')).status).toBe(200);
        await expectRefused(a, b, 'Connection blocked by receiver');
        await expectRefused(b, a, 'Connection blocked by receiver');
        expect(await storedStatus(t, c._id)).toBe('blocked');
      });

      it('rejected: the rejected initiator may ask again; the record goes back to pending', async () => {
        const c = await request(t, a, b);
        expect((await decide(t, b, c._id, 'rejected')).status).toBe(200);
        t.clock.advance(5000);
        const again = await request(t, a, b);
        expect(again).toMatchObject({
          _id: c._id,
          initiatorUid: a.uid,
          receiverUid: b.uid,
          status: 'pending',
          lastModified: t.clock.now(),
        });
        expect((await decide(t, b, c._id, 'accepted')).status).toBe(200);
        expect(await storedStatus(t, c._id)).toBe('accepted');
      });

      it('rejected: the user who rejected cannot turn it around → 409 Connection already exists', async () => {
        const c = await request(t, a, b);
        expect((await decide(t, b, c._id, 'rejected')).status).toBe(200);
        await expectRefused(b, a, 'Connection already exists');
        expect(await storedStatus(t, c._id)).toBe('rejected');
      });
    });

    it('keeps one record when two users request each other at the same moment', async () => {
      for (let i = 0; i < 5; i++) {
        const a = await member(t);
        const b = await member(t);
        const [ab, ba] = await Promise.all([
          t.request('POST', '/connections', { auth: a.auth, body: { receiverName: b.name } }),
          t.request('POST', '/connections', { auth: b.auth, body: { receiverName: a.name } }),
        ]);
        expect([ab.status, ba.status].sort()).toEqual([200, 409]);
        expect([ab, ba].find((r) => r.status === 409)?.body.message).toBe('Connection request already sent');
        const rows = await t.db
          .selectFrom('connections')
          .select(['initiator_uid', 'status'])
          .where((eb) => eb.or([eb('initiator_uid', '=', a.uid), eb('receiver_uid', '=', a.uid)]))
          .execute();
        expect(rows).toEqual([{ initiator_uid: ab.status === 200 ? a.uid : b.uid, status: 'pending' }]);
      }
    });

    describe('the cap (connections.maxPerUser, default 100)', () => {
      it('counts every non-rejected connection of the sender, on either side', async () => {
        const me = await member(t);
        const others = await Promise.all(Array.from({ length: 106 }, () => member(t)));
        const statuses = ['pending', 'accepted', 'blocked'] as const;
        for (let i = 0; i < 99; i++) {
          const other = others[i] as Member;
          const status = statuses[i % 3] as (typeof statuses)[number];
          if (i % 2 === 0) await seedConnection(t, me.uid, other.uid, status);
          else await seedConnection(t, other.uid, me.uid, status);
        }
        // Rejected ones do not count.
        for (let i = 99; i < 104; i++) await seedConnection(t, me.uid, (others[i] as Member).uid, 'rejected');

        await request(t, me, others[104] as Member); // the 100th
        const res = await t.request('POST', '/connections', {
          auth: me.auth,
          body: { receiverName: (others[105] as Member).name },
        });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ message: 'Maximum number of connections reached', data: null });

        // Incoming requests still arrive: the cap limits what the sender sends.
        const stranger = await member(t);
        expect(
          (await t.request('POST', '/connections', { auth: stranger.auth, body: { receiverName: me.name } }))
            .status,
        ).toBe(200);
      });

      it('follows the configured value and holds under concurrent requests', async () => {
        await t.configure({ connections: { maxPerUser: 3 } });
        try {
          const me = await member(t);
          const first = await member(t);
          await request(t, me, first);
          await seedConnection(t, (await member(t)).uid, me.uid, 'accepted');
          const targets = await Promise.all(Array.from({ length: 4 }, () => member(t)));
          const results = await Promise.all(
            targets.map((target) =>
              t.request('POST', '/connections', { auth: me.auth, body: { receiverName: target.name } }),
            ),
          );
          expect(results.filter((r) => r.status === 200)).toHaveLength(1);
          expect(results.filter((r) => r.status === 409)).toHaveLength(3);
        } finally {
          await t.configure({ connections: { maxPerUser: 100 } });
        }
      });
    });
  });

  describe('PATCH /connections/{id}', () => {
    let a: Member;
    let b: Member;
    let third: Member;
    let connection: Connection;
    beforeEach(async () => {
      a = await member(t);
      b = await member(t);
      third = await member(t);
      connection = await request(t, a, b);
      t.clock.advance(1000);
    });

    it.each(['accepted', 'rejected', 'blocked'])('lets the receiver move pending → %s', async (status) => {
      const res = await decide(t, b, connection._id, status);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Connection updated', data: null });
      const row = await t.db
        .selectFrom('connections')
        .select(['status', 'last_modified'])
        .where('id', '=', connection._id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status, last_modified: t.clock.now() });
    });

    it.each(['accepted', 'rejected', 'blocked'])(
      'refuses the initiator and a third user (→ %s): 404, nothing changes',
      async (status) => {
        for (const who of [a, third]) {
          const res = await decide(t, who, connection._id, status);
          expect(res.status).toBe(404);
          expect(res.body).toEqual({ message: NOT_FOUND, data: null });
        }
        expect(await storedStatus(t, connection._id)).toBe('pending');
      },
    );

    it.each([
      ['accepted', 'blocked'],
      ['accepted', 'rejected'],
      ['rejected', 'accepted'],
      ['rejected', 'blocked'],
      ['blocked', 'accepted'],
      ['blocked', 'rejected'],
    ])('refuses the receiver moving %s → %s: 404', async (from, to) => {
      expect((await decide(t, b, connection._id, from)).status).toBe(200);
      const res = await decide(t, b, connection._id, to);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(NOT_FOUND);
      expect(await storedStatus(t, connection._id)).toBe(from);
    });

    it.each(['accepted', 'rejected', 'blocked'])('treats repeating %s as a no-op', async (status) => {
      expect((await decide(t, b, connection._id, status)).status).toBe(200);
      const decidedAt = t.clock.now();
      t.clock.advance(1000);
      expect((await decide(t, b, connection._id, status)).status).toBe(200);
      const row = await t.db
        .selectFrom('connections')
        .select(['status', 'last_modified'])
        .where('id', '=', connection._id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status, last_modified: decidedAt });
    });

    it.each([
      ['status pending', { status: 'pending' }],
      ['an unknown status', { status: 'friends' }],
      ['a missing status', {}],
      ['a wrong type', { status: true }],
      ['an unknown field', { status: 'accepted', note: 'hi' }],
    ])('refuses %s: 422', async (_label, body) => {
      const res = await t.request('PATCH', `/connections/${connection._id}`, { auth: b.auth, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.length).toBeGreaterThan(0);
      expect(await storedStatus(t, connection._id)).toBe('pending');
    });

    it('refuses a malformed id with 400 and an unknown id with 404', async () => {
      const bad = await t.request('PATCH', '/connections/not-an-id!', {
        auth: b.auth,
        body: { status: 'accepted' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe('Invalid request parameters');
      expect(bad.body.validationErrors).toEqual(['"id" must be a valid id']);
      const unknown = await decide(t, b, '0123456789abcdef01234567', 'accepted');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(NOT_FOUND);
    });
  });

  describe('DELETE /connections/{id}', () => {
    let a: Member;
    let b: Member;
    let third: Member;
    beforeEach(async () => {
      a = await member(t);
      b = await member(t);
      third = await member(t);
    });

    const inState = async (status: 'pending' | 'accepted' | 'rejected' | 'blocked') => {
      const c = await request(t, a, b);
      if (status !== 'pending') expect((await decide(t, b, c._id, status)).status).toBe(200);
      return c._id;
    };
    const del = (who: Member, id: string) => t.request('DELETE', `/connections/${id}`, { auth: who.auth });

    it.each([
      ['pending', 'initiator (cancel)'],
      ['pending', 'receiver (decline)'],
      ['accepted', 'initiator'],
      ['accepted', 'receiver'],
      ['blocked', 'receiver (unblock)'],
    ] as const)('removes a %s connection for the %s', async (status, who) => {
      const id = await inState(status);
      const res = await del(who.startsWith('initiator') ? a : b, id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Connection deleted', data: null });
      expect(await storedStatus(t, id)).toBeUndefined();
    });

    it.each([
      ['pending', 'a third user'],
      ['accepted', 'a third user'],
      ['blocked', 'a third user'],
      ['blocked', 'the blocked initiator'],
      ['rejected', 'the initiator'],
      ['rejected', 'the receiver'],
      ['rejected', 'a third user'],
    ] as const)('refuses to remove a %s connection for %s: 404', async (status, who) => {
      const id = await inState(status);
      const caller = who === 'a third user' ? third : who.includes('initiator') ? a : b;
      const res = await del(caller, id);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: NOT_FOUND, data: null });
      expect(await storedStatus(t, id)).toBe(status);
    });

    it('lifts a block: once the receiver removes it, the other user may ask again', async () => {
      const id = await inState('blocked');
      expect((await del(b, id)).status).toBe(200);
      const again = await request(t, a, b);
      expect(again.status).toBe('pending');
      expect(again._id).not.toBe(id);
    });

    it('refuses a malformed id with 400 and an unknown id with 404', async () => {
      expect((await t.request('DELETE', '/connections/a.b', { auth: a.auth })).status).toBe(400);
      const unknown = await del(a, '0123456789abcdef01234567');
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(NOT_FOUND);
    });
  });

  describe('GET /connections', () => {
    let me: Member;
    const ids: Record<string, string> = {};
    const names: Record<string, Member> = {};

    beforeAll(async () => {
      me = await member(t);
      for (const key of ['pendingOut', 'acceptedIn', 'blockedIn', 'rejectedOut', 'x', 'y'])
        names[key] = await member(t);
      const n = names as Record<
        'pendingOut' | 'acceptedIn' | 'blockedIn' | 'rejectedOut' | 'x' | 'y',
        Member
      >;
      ids.pendingOut = await seedConnection(t, me.uid, n.pendingOut.uid, 'pending', 1000);
      ids.acceptedIn = await seedConnection(t, n.acceptedIn.uid, me.uid, 'accepted', 4000);
      ids.blockedIn = await seedConnection(t, n.blockedIn.uid, me.uid, 'blocked', 3000);
      ids.rejectedOut = await seedConnection(t, me.uid, n.rejectedOut.uid, 'rejected', 2000);
      await seedConnection(t, n.x.uid, n.y.uid, 'accepted');
    });

    const list = async (query?: Record<string, string>) => {
      const params = new URLSearchParams(query ? Object.entries(query) : []);
      const url = `/connections${params.size > 0 ? `?${params.toString()}` : ''}`;
      return t.request<{ data: Connection[] }>('GET', url, { auth: me.auth });
    };
    const listIds = async (query: string) => {
      const res = await t.request<{ data: Connection[] }>('GET', `/connections${query}`, { auth: me.auth });
      expect(res.status).toBe(200);
      return res.body.data.map((c) => c._id);
    };

    it("lists the caller's connections on both sides, newest change first, never others'", async () => {
      const res = await list();
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Connections retrieved');
      expect(res.body.data.map((c) => c._id)).toEqual([
        ids.acceptedIn,
        ids.blockedIn,
        ids.rejectedOut,
        ids.pendingOut,
      ]);
      expect(res.body.data[0]).toEqual({
        _id: ids.acceptedIn,
        initiatorUid: names.acceptedIn?.uid,
        initiatorName: names.acceptedIn?.name,
        receiverUid: me.uid,
        receiverName: me.name,
        status: 'accepted',
        lastModified: 4000,
      });
    });

    it.each([
      ['?type=incoming', ['acceptedIn', 'blockedIn']],
      ['?type=outgoing', ['rejectedOut', 'pendingOut']],
      ['?type=incoming&type=outgoing', ['acceptedIn', 'blockedIn', 'rejectedOut', 'pendingOut']],
      ['?status=pending', ['pendingOut']],
      ['?status=rejected', ['rejectedOut']],
      ['?status=accepted&status=blocked', ['acceptedIn', 'blockedIn']],
      ['?status=pending&type=incoming', []],
      ['?status=blocked&type=incoming', ['blockedIn']],
    ])('filters %s', async (query, expected) => {
      expect(await listIds(query)).toEqual(expected.map((k) => ids[k]));
    });

    it.each([
      ['?status=friends', '"status"'],
      ['?type=sideways', '"type"'],
      ['?status=pending&status=nope', '"status"'],
      ['?page=1', "Unrecognized key(s) in object: 'page'"],
    ])('refuses %s: 400 Invalid request parameters', async (query, problem) => {
      const res = await t.request('GET', `/connections${query}`, { auth: me.auth });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors?.some((e) => e.startsWith(problem))).toBe(true);
    });

    it('shows current names: a name change is reflected at once', async () => {
      const renamed = `renamed_${Date.now() % 100000}`;
      await t.db.updateTable('users').set({ name: renamed }).where('uid', '=', me.uid).execute();
      const res = await list({ type: 'outgoing' });
      expect(res.body.data.map((c) => c.initiatorName)).toEqual([renamed, renamed]);
      const theirs = await t.request<{ data: Connection[] }>('GET', '/connections', {
        auth: names.acceptedIn?.auth,
      });
      expect(theirs.body.data.map((c) => c.receiverName)).toEqual([renamed]);
    });
  });

  describe('friendUids (for friends-only leaderboards)', () => {
    it('returns the uids of accepted connections only, on both sides, without the user', async () => {
      const me = await member(t);
      const [f1, f2, p, bl, r] = await Promise.all(Array.from({ length: 5 }, () => member(t)));
      await seedConnection(t, me.uid, f1!.uid, 'accepted');
      await seedConnection(t, f2!.uid, me.uid, 'accepted');
      await seedConnection(t, me.uid, p!.uid, 'pending');
      await seedConnection(t, bl!.uid, me.uid, 'blocked');
      await seedConnection(t, me.uid, r!.uid, 'rejected');
      const uids = await t.app.get(ConnectionsService).friendUids(me.uid);
      expect(uids.sort()).toEqual([f1!.uid, f2!.uid].sort());
      expect(await t.app.get(ConnectionsService).friendUids(p!.uid)).toEqual([]);
    });
  });

  describe('rate limits', () => {
    it("POST /connections allows the original's 60 requests per hour per user, then 429", async () => {
      const me = await member(t);
      for (let i = 0; i < 60; i++) {
        const res = await t.request('POST', '/connections', {
          auth: me.auth,
          body: { receiverName: `ghost${i}` },
        });
        expect(res.status).toBe(404);
      }
      const limited = await t.request('POST', '/connections', {
        auth: me.auth,
        body: { receiverName: 'ghost' },
      });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
    });
  });
});
