import { AccountLifecycle } from '../../../src/common/account-lifecycle';
import { createUser } from '../../support/factories';
import { expectBearerOnly } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

interface Preset {
  _id: string;
  name: string;
  config: Record<string, unknown>;
  settingGroups?: string[];
}

const CONFIG = { mode: 'time', time: 60, language: 'english', difficulty: 'expert' };

describe('Presets: GET|POST|PATCH /presets, DELETE /presets/{presetId}', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Many requests from one address: lift the global per-IP limit so only the route classes apply.
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 10_000, overrides: {} } } });
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  async function create(auth: string, body: Record<string, unknown> = { name: 'fast', config: CONFIG }) {
    const res = await t.request('POST', '/presets', { auth, body });
    expect(res.status).toBe(200);
    return (res.body.data as { presetId: string }).presetId;
  }

  async function list(auth: string): Promise<Preset[]> {
    const res = await t.request('GET', '/presets', { auth });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Presets retrieved');
    return res.body.data as Preset[];
  }

  describe('GET /presets', () => {
    it('returns an empty array for a user without presets', async () => {
      const { auth } = await signedIn();
      expect(await list(auth)).toEqual([]);
    });

    it('returns only the caller own presets, oldest first', async () => {
      const a = await signedIn();
      const b = await signedIn();
      const first = await create(a.auth, { name: 'one', config: { time: 15 } });
      t.clock.advance(1000);
      const second = await create(a.auth, { name: 'two', config: { time: 30 } });
      await create(b.auth, { name: 'other', config: {} });
      expect((await list(a.auth)).map((p) => p._id)).toEqual([first, second]);
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'GET', '/presets');
    });
  });

  describe('POST /presets', () => {
    it('creates a preset and returns its id', async () => {
      const { auth } = await signedIn();
      const res = await t.request('POST', '/presets', {
        auth,
        body: { name: 'fast_words-2', config: CONFIG },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Preset created');
      const { presetId } = res.body.data as { presetId: string };
      expect(presetId).toMatch(/^[0-9a-f]{24}$/);
      expect(await list(auth)).toEqual([{ _id: presetId, name: 'fast_words-2', config: CONFIG }]);
    });

    it('keeps setting groups and tag ids when given', async () => {
      const { auth } = await signedIn();
      const id = await create(auth, {
        name: 'grouped',
        config: { punctuation: true, tags: ['abc123', 'def_456'] },
        settingGroups: ['test', 'behavior'],
      });
      expect(await list(auth)).toEqual([
        {
          _id: id,
          name: 'grouped',
          config: { punctuation: true, tags: ['abc123', 'def_456'] },
          settingGroups: ['test', 'behavior'],
        },
      ]);
    });

    it.each([
      ['a name with spaces', { name: 'my preset', config: {} }, /^"name" must contain only letters/],
      ['a name with a leading separator', { name: '_x', config: {} }, /^"name" must contain only letters/],
      [
        'a name too long',
        { name: 'a'.repeat(17), config: {} },
        /^"name" must be shorter than or equal to 16/,
      ],
      ['an empty name', { name: '', config: {} }, /^"name" must be longer than or equal to 1/],
      ['a name of the wrong type', { name: 5, config: {} }, /^"name" must be a string/],
      ['no config', { name: 'x' }, /^"config" should not be null or undefined/],
      ['a config that is not an object', { name: 'x', config: 'time=60' }, /^"config" must be an object/],
      [
        'an unknown config key',
        { name: 'x', config: { nope: 1 } },
        /^"config" Unrecognized key\(s\) in object: 'nope'/,
      ],
      [
        'a config value of the wrong type',
        { name: 'x', config: { time: 'long' } },
        /^"config.time" must be an integer/,
      ],
      [
        'a config value out of range',
        { name: 'x', config: { minAccCustom: 101 } },
        /^"config.minAccCustom" must not be greater than 100/,
      ],
      [
        'an invalid tag id',
        { name: 'x', config: { tags: ['no spaces'] } },
        /^"config.tags" must contain only tag ids/,
      ],
      ['an _id', { _id: 'abc', name: 'x', config: {} }, /^Unrecognized key\(s\) in object: '_id'/],
      [
        'duplicate setting groups',
        { name: 'x', config: {}, settingGroups: ['test', 'test'] },
        /^"settingGroups" No duplicates allowed\./,
      ],
      [
        'no setting groups in the array',
        { name: 'x', config: {}, settingGroups: [] },
        /^"settingGroups" must contain at least 1 elements/,
      ],
      [
        'an unknown setting group',
        { name: 'x', config: {}, settingGroups: ['colors'] },
        /^"settingGroups" each value in settingGroups must be one of/,
      ],
    ])('refuses %s with 422', async (_label, body, message) => {
      const { auth } = await signedIn();
      const res = await t.request('POST', '/presets', { auth, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.data).toBeNull();
      expect(res.body.validationErrors).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
      expect(await list(auth)).toEqual([]);
    });

    it('caps presets at 10 per user with 409 Too many presets', async () => {
      const { auth } = await signedIn();
      for (let i = 0; i < 10; i += 1) await create(auth, { name: `p${i}`, config: {} });
      const res = await t.request('POST', '/presets', { auth, body: { name: 'p10', config: {} } });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Too many presets', data: null });
      expect(await list(auth)).toHaveLength(10);
      // The cap is per user.
      const other = await signedIn();
      await create(other.auth);
    });

    it('holds the cap under concurrent creation', async () => {
      await t.configure({ presets: { maxPerUser: 3 } });
      try {
        const { auth } = await signedIn();
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            t.request('POST', '/presets', { auth, body: { name: `c${i}`, config: {} } }),
          ),
        );
        expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
        expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
        expect(await list(auth)).toHaveLength(3);
      } finally {
        await t.configure({ presets: { maxPerUser: 10 } });
      }
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'POST', '/presets', { name: 'x', config: {} });
    });
  });

  describe('PATCH /presets', () => {
    it('renames and replaces the config', async () => {
      const { auth } = await signedIn();
      const id = await create(auth);
      const res = await t.request('PATCH', '/presets', {
        auth,
        body: { _id: id, name: 'renamed', config: { mode: 'words', words: 25 } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Preset updated', data: null });
      expect(await list(auth)).toEqual([{ _id: id, name: 'renamed', config: { mode: 'words', words: 25 } }]);
    });

    it('keeps the config when none or an empty one is given', async () => {
      const { auth } = await signedIn();
      const id = await create(auth);
      await t.request('PATCH', '/presets', { auth, body: { _id: id, name: 'second' } });
      await t.request('PATCH', '/presets', { auth, body: { _id: id, name: 'third', config: {} } });
      expect(await list(auth)).toEqual([{ _id: id, name: 'third', config: CONFIG }]);
    });

    it('sets and clears setting groups', async () => {
      const { auth } = await signedIn();
      const id = await create(auth);
      await t.request('PATCH', '/presets', { auth, body: { _id: id, name: 'g', settingGroups: ['sound'] } });
      expect((await list(auth))[0]?.settingGroups).toEqual(['sound']);
      await t.request('PATCH', '/presets', { auth, body: { _id: id, name: 'g', settingGroups: null } });
      expect((await list(auth))[0]).not.toHaveProperty('settingGroups');
    });

    it("answers 404 for someone else's preset and leaves it unchanged", async () => {
      const owner = await signedIn();
      const intruder = await signedIn();
      const id = await create(owner.auth);
      const res = await t.request('PATCH', '/presets', {
        auth: intruder.auth,
        body: { _id: id, name: 'stolen', config: { time: 15 } },
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Preset not found', data: null });
      expect(await list(owner.auth)).toEqual([{ _id: id, name: 'fast', config: CONFIG }]);
    });

    it('answers 404 for an unknown id', async () => {
      const { auth } = await signedIn();
      const res = await t.request('PATCH', '/presets', { auth, body: { _id: 'a'.repeat(24), name: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Preset not found');
    });

    it.each([
      ['a malformed id', { _id: 'not an id', name: 'x' }, /^"_id" must be a valid id/],
      ['no id', { name: 'x' }, /^"_id" must be a string/],
      ['no name', { _id: 'a'.repeat(24) }, /^"name" must be a string/],
      [
        'an invalid config',
        { _id: 'a'.repeat(24), name: 'x', config: { mode: 'mood' } },
        /^"config.mode" must be one of/,
      ],
      [
        'an unknown key',
        { _id: 'a'.repeat(24), name: 'x', colour: 'red' },
        /^Unrecognized key\(s\) in object: 'colour'/,
      ],
    ])('refuses %s with 422', async (_label, body, message) => {
      const { auth } = await signedIn();
      const res = await t.request('PATCH', '/presets', { auth, body });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(expect.arrayContaining([expect.stringMatching(message)]));
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'PATCH', '/presets', { _id: 'a'.repeat(24), name: 'x' });
    });
  });

  describe('DELETE /presets/{presetId}', () => {
    it('deletes the preset', async () => {
      const { auth } = await signedIn();
      const keep = await create(auth, { name: 'keep', config: {} });
      const id = await create(auth);
      const res = await t.request('DELETE', `/presets/${id}`, { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Preset deleted', data: null });
      expect((await list(auth)).map((p) => p._id)).toEqual([keep]);
      const again = await t.request('DELETE', `/presets/${id}`, { auth });
      expect(again.status).toBe(404);
    });

    it("answers 404 for someone else's preset and keeps it", async () => {
      const owner = await signedIn();
      const intruder = await signedIn();
      const id = await create(owner.auth);
      const res = await t.request('DELETE', `/presets/${id}`, { auth: intruder.auth });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Preset not found', data: null });
      expect(await list(owner.auth)).toHaveLength(1);
    });

    it('answers 400 for a malformed id', async () => {
      const { auth } = await signedIn();
      const res = await t.request('DELETE', '/presets/not-an-id', { auth });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors).toEqual(['"presetId" must be a valid id']);
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'DELETE', `/presets/${'a'.repeat(24)}`);
    });
  });

  describe('limits and lifecycle', () => {
    it('rate-limits creation at 60 per hour', async () => {
      await t.configure({ presets: { maxPerUser: 1000 } });
      try {
        const { auth } = await signedIn();
        for (let i = 0; i < 60; i += 1) await create(auth, { name: `r${i}`, config: {} });
        const res = await t.request('POST', '/presets', { auth, body: { name: 'r60', config: {} } });
        expect(res.status).toBe(429);
        expect(res.body.message).toBe('Request limit reached, please try again later.');
      } finally {
        await t.configure({ presets: { maxPerUser: 10 } });
      }
    });

    it('an account reset deletes the presets', async () => {
      const { uid, auth } = await signedIn();
      await create(auth);
      await t.db.transaction().execute((trx) => t.app.get(AccountLifecycle).runReset(uid, trx));
      expect(await list(auth)).toEqual([]);
    });
  });
});
