import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

/** A ResultFilters document as the original client saves it (contract facts §12.9). */
function filters(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    _id: 'client_side_id',
    name: 'my.filter-1',
    pb: { no: true, yes: true },
    difficulty: { normal: true, expert: false, master: false },
    mode: { time: true, words: true, quote: false, zen: false, custom: false },
    words: { '10': true, '25': true, '50': true, '100': true, custom: true },
    time: { '15': true, '30': true, '60': false, '120': false, custom: true },
    quoteLength: { short: true, medium: true, long: true, thicc: true },
    punctuation: { on: false, off: true },
    numbers: { on: false, off: true },
    date: { last_day: false, last_week: false, last_month: false, last_3months: false, all: true },
    tags: { none: true, '5f3a0c2b1d4e6f7a8b9c0d1e': false },
    language: { english: true, german: false },
    funbox: { none: true, mirror: false },
    ...overrides,
  };
}

const OFF = 'Result filter presets are not available at this time.';

describe('result filter presets: POST /users/resultFilterPresets, DELETE /users/resultFilterPresets/{presetId}', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: {
        results: { filterPresets: { enabled: true, maxPresetsPerUser: 3 } },
        rateLimiting: { badAuthentication: { enabled: false } },
      },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
  });
  afterAll(() => t.close());

  async function signedIn() {
    const user = await createUser(t.db);
    return { ...user, auth: await t.bearer(user.uid) };
  }
  const add = (auth: string, body: unknown) =>
    t.request('POST', '/users/resultFilterPresets', { auth, body, ip: freshIp() });
  const presetsOf = async (auth: string) =>
    ((await t.request('GET', '/users', { auth })).body.data as { resultFilterPresets: unknown[] })
      .resultFilterPresets;

  it('saves a preset, answers its new id as a string and lists it in GET /users with that id', async () => {
    const me = await signedIn();
    const res = await add(me.auth, filters());
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Result filter preset created');
    const id = res.body.data as string;
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(await presetsOf(me.auth)).toEqual([{ ...filters(), _id: id }]);
  });

  it('deletes the caller’s preset; an unknown or someone else’s id is 404 Custom filter not found', async () => {
    const owner = await signedIn();
    const intruder = await signedIn();
    const id = (await add(owner.auth, filters())).body.data as string;

    for (const [auth, presetId] of [
      [intruder.auth, id],
      [owner.auth, 'aaaaaaaaaaaaaaaaaaaaaaaa'],
    ] as const) {
      const res = await t.request('DELETE', `/users/resultFilterPresets/${presetId}`, { auth });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Custom filter not found', data: null });
    }
    expect(await presetsOf(owner.auth)).toHaveLength(1);

    const removed = await t.request('DELETE', `/users/resultFilterPresets/${id}`, { auth: owner.auth });
    expect(removed.body).toEqual({ message: 'Result filter preset deleted', data: null });
    expect(await presetsOf(owner.auth)).toEqual([]);
  });

  it('refuses more than results.filterPresets.maxPresetsPerUser with 409', async () => {
    const me = await signedIn();
    for (let i = 0; i < 3; i++) expect((await add(me.auth, filters({ name: `f${i}` }))).status).toBe(200);
    const res = await add(me.auth, filters({ name: 'one_more' }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Maximum number of custom filters reached', data: null });
    expect(await presetsOf(me.auth)).toHaveLength(3);
  });

  it.each([
    [{ ...filters(), extra: true }, "Unrecognized key(s) in object: 'extra'"],
    [filters({ _id: undefined }), '"_id" must be a string'],
    [filters({ name: '.hidden' }), '"name" cannot start with a dot'],
    [filters({ name: 'x'.repeat(17) }), '"name" must be 1-16 characters long'],
    [
      filters({ name: 'has space' }),
      '"name" may only contain letters, numbers, underscores, dots and hyphens',
    ],
    [filters({ pb: { no: true } }), '"pb" yes is required'],
    [filters({ pb: { no: true, yes: 'true' } }), '"pb" yes must be a boolean'],
    [filters({ mode: { time: true, typing: true } }), `"mode" Unrecognized key(s) in object: 'typing'`],
    [filters({ time: { '45': true } }), `"time" Unrecognized key(s) in object: '45'`],
    [filters({ date: { all: true } }), '"date" last_day is required'],
    [filters({ language: { klingonish: true } }), `"language" Unrecognized key(s) in object: 'klingonish'`],
    [filters({ funbox: { not_a_funbox: true } }), `"funbox" Unrecognized key(s) in object: 'not_a_funbox'`],
    [filters({ tags: { 'bad-id!': true } }), `"tags" Unrecognized key(s) in object: 'bad-id!'`],
    [filters({ numbers: [true, false] }), '"numbers" must be an object'],
    [filters({ quoteLength: undefined }), '"quoteLength" must be an object'],
  ])('refuses %j with 422', async (body, problem) => {
    const me = await signedIn();
    const res = await add(me.auth, body);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Invalid request data schema');
    expect(res.body.validationErrors).toContain(problem);
    expect(await presetsOf(me.auth)).toEqual([]);
  });

  it('refuses a malformed preset id in the path with 400', async () => {
    const me = await signedIn();
    const res = await t.request('DELETE', '/users/resultFilterPresets/not-an-id!', { auth: me.auth });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid request parameters');
  });

  it('needs a signed-in user (Bearer, no ApeKey)', async () => {
    await expectBearerOnly(t, 'POST', '/users/resultFilterPresets', filters());
    await expectBearerOnly(t, 'DELETE', '/users/resultFilterPresets/aaaaaaaaaaaaaaaaaaaaaaaa');
  });

  it('answers 503 on both routes while results.filterPresets.enabled is off, even to an invalid body', async () => {
    const me = await signedIn();
    await t.configure({ results: { filterPresets: { enabled: false } } });
    try {
      for (const res of [
        await add(me.auth, {}),
        await t.request('DELETE', '/users/resultFilterPresets/aaaaaaaaaaaaaaaaaaaaaaaa', { auth: me.auth }),
      ]) {
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: OFF, data: null });
      }
    } finally {
      await t.configure({ results: { filterPresets: { enabled: true } } });
    }
  });

  it('is on by default with 10 presets per user (the original ships it off; its client expects it)', async () => {
    const fresh = await createTestApp();
    try {
      const config = (await fresh.request('GET', '/configuration')).body.data as {
        results: { filterPresets: unknown };
      };
      expect(config.results.filterPresets).toEqual({ enabled: true, maxPresetsPerUser: 10 });
    } finally {
      await fresh.close();
    }
  });

  it('counts against the userCustomFilterAdd class: 60 per hour', async () => {
    const limited = await createTestApp({
      configuration: { results: { filterPresets: { enabled: true, maxPresetsPerUser: 0 } } },
    });
    try {
      const { uid } = await createUser(limited.db);
      const auth = await limited.bearer(uid);
      const statuses: number[] = [];
      for (let i = 0; i < 61; i++) {
        statuses.push(
          (await limited.request('POST', '/users/resultFilterPresets', { auth, body: filters() })).status,
        );
      }
      expect(statuses.slice(0, 60).every((s) => s === 409)).toBe(true);
      expect(statuses[60]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
