import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ANY_APE_KEY } from './support';

const COLORS = {
  bg: '#111',
  main: '#e2b714',
  caret: '#E2B714',
  sub: '#646669',
  text: '#d1d0c5',
  error: '#ca4754',
  errorExtra: '#7e2a33',
  colorfulError: '#ca4754',
  colorfulErrorExtra: '#7e2a33',
};

describe('tags, custom themes and favourite quotes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
  });
  afterAll(() => t.close());

  async function signedIn() {
    const user = await createUser(t.db);
    return { ...user, auth: await t.bearer(user.uid) };
  }

  describe('tags', () => {
    it('adds, lists, renames and deletes the caller’s tags', async () => {
      const { auth } = await signedIn();
      const added = await t.request('POST', '/users/tags', { auth, body: { tagName: 'speed-run' } });
      expect(added.status).toBe(200);
      expect(added.body.message).toBe('Tag updated');
      const tag = added.body.data as { _id: string; name: string; personalBests: unknown };
      expect(tag._id).toMatch(/^[0-9a-f]{24}$/);
      expect(tag).toEqual({
        _id: tag._id,
        name: 'speed-run',
        personalBests: { time: {}, words: {}, quote: {}, zen: {}, custom: {} },
      });

      const list = await t.request('GET', '/users/tags', { auth });
      expect(list.body).toEqual({ message: 'Tags retrieved', data: [tag] });

      const renamed = await t.request('PATCH', '/users/tags', {
        auth,
        body: { tagId: tag._id, newName: 'sprint' },
      });
      expect(renamed.body).toEqual({ message: 'Tag updated', data: null });
      expect(
        ((await t.request('GET', '/users/tags', { auth })).body.data as { name: string }[])[0]?.name,
      ).toBe('sprint');

      const deleted = await t.request('DELETE', `/users/tags/${tag._id}`, { auth });
      expect(deleted.body).toEqual({ message: 'Tag deleted', data: null });
      expect((await t.request('GET', '/users/tags', { auth })).body.data).toEqual([]);
    });

    it('lists and clears a tag’s personal bests', async () => {
      const { uid, auth } = await signedIn();
      const tag = (await t.request('POST', '/users/tags', { auth, body: { tagName: 'pbs' } })).body.data as {
        _id: string;
      };
      await t.db
        .insertInto('tag_personal_bests')
        .values({
          tag_id: tag._id,
          uid,
          mode: 'time',
          mode2: '30',
          language: 'english',
          difficulty: 'normal',
          punctuation: false,
          numbers: false,
          lazy_mode: false,
          wpm: 80,
          acc: 95,
          raw: 85,
          consistency: 70,
          timestamp: 1,
        })
        .execute();
      const list = (await t.request('GET', '/users/tags', { auth })).body.data as {
        personalBests: { time: Record<string, unknown[]> };
      }[];
      expect(list[0]?.personalBests.time['30']).toEqual([expect.objectContaining({ wpm: 80, raw: 85 })]);

      const cleared = await t.request('DELETE', `/users/tags/${tag._id}/personalBest`, { auth });
      expect(cleared.body).toEqual({ message: 'Tag PB cleared', data: null });
      const after = (await t.request('GET', '/users/tags', { auth })).body.data as {
        personalBests: unknown;
      }[];
      expect(after[0]?.personalBests).toEqual({ time: {}, words: {}, quote: {}, zen: {}, custom: {} });
    });

    it('allows 15 tags: the 16th is refused with 400 Maximum number of tags reached, also in parallel', async () => {
      const { uid, auth } = await signedIn();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          t.request('POST', '/users/tags', { auth, body: { tagName: `tag${i}` } }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(15);
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(400);
        expect(r.body.message).toBe('Maximum number of tags reached');
      }
      expect(await t.db.selectFrom('tags').select('id').where('uid', '=', uid).execute()).toHaveLength(15);
    });

    it('answers another user’s tag id with 404 Tag not found and changes nothing', async () => {
      const owner = await signedIn();
      const intruder = await signedIn();
      const tag = (await t.request('POST', '/users/tags', { auth: owner.auth, body: { tagName: 'mine' } }))
        .body.data as { _id: string };
      for (const [method, url, body] of [
        ['PATCH', '/users/tags', { tagId: tag._id, newName: 'stolen' }],
        ['DELETE', `/users/tags/${tag._id}`, undefined],
        ['DELETE', `/users/tags/${tag._id}/personalBest`, undefined],
        ['PATCH', '/users/tags', { tagId: 'abcdef0123456789abcdef01', newName: 'ghost' }],
      ] as const) {
        const res = await t.request(method, url, { auth: intruder.auth, body });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Tag not found', data: null });
      }
      expect((await t.request('GET', '/users/tags', { auth: owner.auth })).body.data).toEqual([
        expect.objectContaining({ _id: tag._id, name: 'mine' }),
      ]);
      expect((await t.request('GET', '/users/tags', { auth: intruder.auth })).body.data).toEqual([]);
    });

    it.each([
      [{ tagName: '' }, '"tagName" must be 1-16 characters long'],
      [{ tagName: 'x'.repeat(17) }, '"tagName" must be 1-16 characters long'],
      [
        { tagName: 'two words' },
        '"tagName" may only contain letters and digits, separated by single underscores or hyphens',
      ],
      [{ tagName: 3 }, '"tagName" must be a string'],
      [{}, '"tagName" must be a string'],
      [{ tagName: 'ok', x: 1 }, "Unrecognized key(s) in object: 'x'"],
    ])('refuses the new tag %j with 422', async (body, problem) => {
      const { auth } = await signedIn();
      const res = await t.request('POST', '/users/tags', { auth, body });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(problem);
    });

    it('refuses invalid ids: 422 in the body, 400 in the path', async () => {
      const { auth } = await signedIn();
      const body = await t.request('PATCH', '/users/tags', {
        auth,
        body: { tagId: 'bad id!', newName: 'x' },
      });
      expect(body.status).toBe(422);
      expect(body.body.validationErrors).toContain('"tagId" must be a valid id');
      const path = await t.request('DELETE', '/users/tags/bad%20id', { auth });
      expect(path.status).toBe(400);
      expect(path.body.message).toBe('Invalid request parameters');
    });

    it('refuses ApeKeys on changes and requests without a token', async () => {
      for (const [method, url] of [
        ['POST', '/users/tags'],
        ['PATCH', '/users/tags'],
        ['DELETE', '/users/tags/abc'],
        ['DELETE', '/users/tags/abc/personalBest'],
      ] as const) {
        expect((await t.request(method, url, { auth: ANY_APE_KEY, body: {} })).body.message).toBe(
          'This endpoint does not accept ApeKeys',
        );
        expect((await t.request(method, url, { body: {} })).status).toBe(401);
      }
    });
  });

  describe('custom themes', () => {
    it('adds, lists, updates and removes the caller’s themes', async () => {
      const { auth } = await signedIn();
      const added = await t.request('POST', '/users/customThemes', {
        auth,
        body: { name: 'dark_gold', colors: COLORS },
      });
      expect(added.status).toBe(200);
      expect(added.body.message).toBe('Custom theme added');
      const theme = added.body.data as { _id: string; name: string };
      expect(theme).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'dark_gold' });

      const list = await t.request('GET', '/users/customThemes', { auth });
      expect(list.body).toEqual({
        message: 'Custom themes retrieved',
        data: [{ _id: theme._id, name: 'dark_gold', colors: COLORS }],
      });

      const newColors = { ...COLORS, bg: '#000000' };
      const updated = await t.request('PATCH', '/users/customThemes', {
        auth,
        body: { themeId: theme._id, theme: { name: 'pitch-black', colors: newColors } },
      });
      expect(updated.body).toEqual({ message: 'Custom theme updated', data: null });
      expect((await t.request('GET', '/users/customThemes', { auth })).body.data).toEqual([
        { _id: theme._id, name: 'pitch-black', colors: newColors },
      ]);

      const removed = await t.request('DELETE', '/users/customThemes', {
        auth,
        body: { themeId: theme._id },
      });
      expect(removed.body).toEqual({ message: 'Custom theme removed', data: null });
      expect((await t.request('GET', '/users/customThemes', { auth })).body.data).toEqual([]);
    });

    it('keeps the original client’s array of 10 colours in that shape, and each theme in its own shape', async () => {
      const { auth } = await signedIn();
      const tuple = [
        '#323437',
        '#e2b714',
        '#e2b714',
        '#646669',
        '#2c2e31',
        '#d1d0c5',
        '#ca4754',
        '#7e2a33',
        '#ca4754',
        '#7e2a33',
      ];
      const added = await t.request('POST', '/users/customThemes', {
        auth,
        body: { name: 'serika', colors: tuple },
      });
      expect(added.status).toBe(200);
      const arrayTheme = added.body.data as { _id: string; name: string };
      expect(arrayTheme).toEqual({ _id: expect.stringMatching(/^[0-9a-f]{24}$/), name: 'serika' });
      t.clock.advance(1000); // listed in the order added
      const named = await t.request('POST', '/users/customThemes', {
        auth,
        body: { name: 'named', colors: COLORS },
      });
      const namedTheme = named.body.data as { _id: string };

      const list = await t.request('GET', '/users/customThemes', { auth });
      expect(list.body.data).toEqual([
        { _id: arrayTheme._id, name: 'serika', colors: tuple },
        { _id: namedTheme._id, name: 'named', colors: COLORS },
      ]);
      expect(
        ((await t.request('GET', '/users', { auth })).body.data as { customThemes: unknown }).customThemes,
      ).toEqual(list.body.data);

      // An update may switch shapes: the theme is then answered in the new one.
      const newTuple = tuple.toReversed();
      const patched = await t.request('PATCH', '/users/customThemes', {
        auth,
        body: { themeId: namedTheme._id, theme: { name: 'named', colors: newTuple } },
      });
      expect(patched.body).toEqual({ message: 'Custom theme updated', data: null });
      const toNamed = await t.request('PATCH', '/users/customThemes', {
        auth,
        body: { themeId: arrayTheme._id, theme: { name: 'serika', colors: COLORS } },
      });
      expect(toNamed.status).toBe(200);
      expect((await t.request('GET', '/users/customThemes', { auth })).body.data).toEqual([
        { _id: arrayTheme._id, name: 'serika', colors: COLORS },
        { _id: namedTheme._id, name: 'named', colors: newTuple },
      ]);
    });

    it('allows 20 themes: the 21st is refused with 409', async () => {
      const { auth } = await signedIn();
      for (let i = 0; i < 20; i++) {
        expect(
          (await t.request('POST', '/users/customThemes', { auth, body: { name: `t${i}`, colors: COLORS } }))
            .status,
        ).toBe(200);
      }
      const res = await t.request('POST', '/users/customThemes', {
        auth,
        body: { name: 'one-more', colors: COLORS },
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Maximum number of custom themes reached', data: null });
    });

    it('answers another user’s theme id with 404 Custom theme not found and changes nothing', async () => {
      const owner = await signedIn();
      const intruder = await signedIn();
      const theme = (
        await t.request('POST', '/users/customThemes', {
          auth: owner.auth,
          body: { name: 'mine', colors: COLORS },
        })
      ).body.data as { _id: string };
      for (const [method, body] of [
        ['PATCH', { themeId: theme._id, theme: { name: 'stolen', colors: COLORS } }],
        ['DELETE', { themeId: theme._id }],
      ] as const) {
        const res = await t.request(method, '/users/customThemes', { auth: intruder.auth, body });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Custom theme not found', data: null });
      }
      expect((await t.request('GET', '/users/customThemes', { auth: owner.auth })).body.data).toEqual([
        { _id: theme._id, name: 'mine', colors: COLORS },
      ]);
    });

    const { colorfulErrorExtra: _dropped, ...eightColors } = COLORS;
    const TUPLE = Object.values(COLORS).toSpliced(4, 0, '#2c2e31');
    it.each([
      [
        { name: 'x', colors: eightColors },
        '"colors" colorfulErrorExtra must be a hex colour (#rgb or #rrggbb)',
      ],
      [{ name: 'x', colors: { ...COLORS, bg: 'red' } }, '"colors" bg must be a hex colour (#rgb or #rrggbb)'],
      [
        { name: 'x', colors: { ...COLORS, bg: '#12345' } },
        '"colors" bg must be a hex colour (#rgb or #rrggbb)',
      ],
      [
        { name: 'x', colors: { ...COLORS, subAlt: '#fff' } },
        `"colors" Unrecognized key(s) in object: 'subAlt'`,
      ],
      // The original client's array must hold exactly 10 hex colours.
      [
        { name: 'x', colors: Object.values(COLORS) },
        '"colors" must be an array of exactly 10 hex colours (got 9)',
      ],
      [
        { name: 'x', colors: [...TUPLE, '#000'] },
        '"colors" must be an array of exactly 10 hex colours (got 11)',
      ],
      [
        { name: 'x', colors: TUPLE.with(3, 'blue') },
        '"colors" item 3 must be a hex colour (#rgb or #rrggbb)',
      ],
      [
        { name: 'x', colors: 'dark' },
        '"colors" must be an object of the nine named hex colours or an array of 10 hex colours',
      ],
      [
        { name: 'bad name', colors: COLORS },
        '"name" may only contain letters and digits, separated by single underscores or hyphens',
      ],
      [{ name: 'x'.repeat(17), colors: COLORS }, '"name" must be 1-16 characters long'],
      [{ colors: COLORS }, '"name" must be a string'],
    ])('refuses the theme %j with 422', async (body, problem) => {
      const { auth } = await signedIn();
      const res = await t.request('POST', '/users/customThemes', { auth, body });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(problem);
    });

    it('needs both name and colors on update, and a themeId on delete', async () => {
      const { auth } = await signedIn();
      const update = await t.request('PATCH', '/users/customThemes', {
        auth,
        body: { themeId: 'abc', theme: { name: 'only-name' } },
      });
      expect(update.status).toBe(422);
      expect(update.body.validationErrors).toContain(
        '"theme.colors" must be an object of the nine named hex colours or an array of 10 hex colours',
      );
      const remove = await t.request('DELETE', '/users/customThemes', { auth, body: {} });
      expect(remove.status).toBe(422);
      expect(remove.body.validationErrors).toContain('"themeId" must be a string');
    });
  });

  describe('favourite quotes', () => {
    it('adds, lists by language and removes quote ids', async () => {
      const { auth } = await signedIn();
      const add = (language: string, quoteId: string) =>
        t.request('POST', '/users/favoriteQuotes', { auth, body: { language, quoteId } });
      const added = await add('english', '12');
      expect(added.body).toEqual({ message: 'Quote added to favorites', data: null });
      await add('english', '30');
      await add('english', '12'); // already there: no duplicate
      await add('german', '5');
      const list = await t.request('GET', '/users/favoriteQuotes', { auth });
      expect(list.body).toEqual({
        message: 'Favorite quotes retrieved',
        data: { english: ['12', '30'], german: ['5'] },
      });

      const removed = await t.request('DELETE', '/users/favoriteQuotes', {
        auth,
        body: { language: 'german', quoteId: '5' },
      });
      expect(removed.body).toEqual({ message: 'Quote removed from favorites', data: null });
      const unknown = await t.request('DELETE', '/users/favoriteQuotes', {
        auth,
        body: { language: 'english', quoteId: '999' },
      });
      expect(unknown.status).toBe(200);
      expect((await t.request('GET', '/users/favoriteQuotes', { auth })).body.data).toEqual({
        english: ['12', '30'],
      });
    });

    it('refuses more than quotes.maxFavorites in all: 409', async () => {
      await t.configure({ quotes: { maxFavorites: 2 } });
      try {
        const { auth } = await signedIn();
        const add = (language: string, quoteId: string) =>
          t.request('POST', '/users/favoriteQuotes', { auth, body: { language, quoteId } });
        expect((await add('english', '1')).status).toBe(200);
        expect((await add('spanish', '2')).status).toBe(200);
        const third = await add('english', '3');
        expect(third.status).toBe(409);
        expect(third.body).toEqual({ message: 'Maximum number of favorite quotes reached', data: null });
        expect((await add('english', '1')).status).toBe(200);
      } finally {
        await t.configure({ quotes: { maxFavorites: 100 } });
      }
    });

    it.each([
      [{ language: 'klingonese', quoteId: '1' }, '"language" must be a supported language'],
      [{ language: 'english', quoteId: 1 }, '"quoteId" must be a string'],
      [{ language: 'english', quoteId: 'abc' }, '"quoteId" must be a quote id (digits)'],
      [{ language: 'english' }, '"quoteId" must be a string'],
      [{ language: 'english', quoteId: '1', x: 1 }, "Unrecognized key(s) in object: 'x'"],
    ])('refuses %j with 422', async (body, problem) => {
      const { auth } = await signedIn();
      for (const method of ['POST', 'DELETE']) {
        const res = await t.request(method, '/users/favoriteQuotes', { auth, body });
        expect(res.status).toBe(422);
        expect(res.body.validationErrors).toContain(problem);
      }
    });

    it('keeps users’ favourites apart', async () => {
      const a = await signedIn();
      const b = await signedIn();
      await t.request('POST', '/users/favoriteQuotes', {
        auth: a.auth,
        body: { language: 'english', quoteId: '1' },
      });
      await t.request('DELETE', '/users/favoriteQuotes', {
        auth: b.auth,
        body: { language: 'english', quoteId: '1' },
      });
      expect((await t.request('GET', '/users/favoriteQuotes', { auth: a.auth })).body.data).toEqual({
        english: ['1'],
      });
      expect((await t.request('GET', '/users/favoriteQuotes', { auth: b.auth })).body.data).toEqual({});
    });
  });
});
