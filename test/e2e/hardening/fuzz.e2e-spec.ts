import fc from 'fast-check';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { routeTable, type RouteInfo } from './route-table';
import { stateDigest, UNLIMITED_CONFIGURATION, UNLIMITED_ENV } from './support';

/** Bounded: a few hundred requests keep the suite well under a minute on a shared machine. */
const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 1_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);

// ---- hostile values, as raw JSON text (so non-JSON numbers like 1e400 and -0 reach the parser as sent) ----------

const INHERITED = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  'isPrototypeOf',
  '__defineGetter__',
];

const rawLeaf = fc.oneof(
  fc.constantFrom(
    'null',
    'true',
    'false',
    '0',
    '-0',
    '1.5',
    '-1',
    '1e400',
    '-1e400',
    '99999999999999999999',
    '9007199254740993',
    '2147483648',
    '""',
    '"\\u0000"',
    '"a\\u0000b"',
    '"\\ud800"',
    '"a\\udc00"',
    '"constructor"',
    '"15"',
    '"time"',
    '"english"',
    '"pending"',
    JSON.stringify('x'.repeat(300)),
    JSON.stringify('<script>alert(1)</script>'),
  ),
  fc.string({ maxLength: 20 }).map((s) => JSON.stringify(s)),
  fc.string({ unit: 'binary', maxLength: 10 }).map((s) => JSON.stringify(s)),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
);

/** Values a real client sends, so that some bodies pass validation and the handlers behind it are reached. */
const plausibleLeaf = fc.constantFrom(
  '"ok"',
  '"fuzzname"',
  '"time"',
  '"words"',
  '"15"',
  '"60"',
  '"english"',
  '"normal"',
  '"pending"',
  '"accepted"',
  '"blocked"',
  '"0123456789abcdef01234567"',
  '"n@example.com"',
  '"https://example.com"',
  '"#ffffff"',
  'true',
  'false',
  '0',
  '1',
  '15',
  '100',
  '[]',
  '{}',
  '["ok"]',
);

const leaf = fc.oneof({ weight: 3, arbitrary: plausibleLeaf }, { weight: 2, arbitrary: rawLeaf });

function rawValue(keys: string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: keys.length > 0 ? fc.constantFrom(...keys) : fc.constant('name') },
    { weight: 1, arbitrary: fc.constantFrom(...INHERITED) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    { weight: 1, arbitrary: fc.constantFrom('a\u0000', '\ud800', '') },
  );
  const { tree } = fc.letrec<{ tree: string }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .array(fc.tuple(key, tie('tree')), { maxLength: 5 })
        .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
      fc.array(tie('tree'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    ),
  }));
  return tree;
}

const deepNesting = fc
  .tuple(fc.integer({ min: 30, max: 2_000 }), fc.constantFrom('[', '{"a":'))
  .map(([n, open]) => `${open.repeat(n)}1${(open === '[' ? ']' : '}').repeat(n)}`);

const malformed = fc.constantFrom(
  '{"a":',
  '{a:1}',
  "{'a':1}",
  '[1,]',
  '\u0000',
  'undefined',
  'NaN',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '',
);

function body(route: RouteInfo): fc.Arbitrary<string | undefined> {
  const keys = route.bodyKeys.length > 0 ? route.bodyKeys : ['result', 'name'];
  const object = fc
    .array(
      fc.tuple(
        fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, fc.constantFrom(...INHERITED)),
        rawValue(keys),
      ),
      {
        minLength: 1,
        maxLength: 6,
      },
    )
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
  // Every declared key with a plausible value, some hostile: most likely to get past validation to the handler.
  const complete = fc
    .tuple(
      ...keys.map((k) =>
        fc.tuple(fc.constant(k), fc.oneof({ weight: 4, arbitrary: plausibleLeaf }, rawValue(keys))),
      ),
    )
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`);
  return fc.oneof(
    { weight: 4, arbitrary: complete },
    { weight: 4, arbitrary: object },
    { weight: 2, arbitrary: rawValue(keys) },
    { weight: 1, arbitrary: deepNesting },
    { weight: 1, arbitrary: malformed },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=utf-16',
      'application/octet-stream',
      '',
    ),
  },
);

const plausibleQuery = fc.oneof(
  plausibleLeaf.map(encodeURIComponent),
  fc.constantFrom(
    'english',
    'time',
    'words',
    '15',
    '60',
    '10',
    '0',
    '1',
    'true',
    'false',
    'pending',
    'incoming',
  ),
);

/** Query values as they appear in the URL: bare, JSON-encoded, or broken encodings. */
const queryValue = fc.oneof(
  plausibleLeaf,
  plausibleLeaf.map(encodeURIComponent),
  rawValue([]).map(encodeURIComponent),
  fc.constantFrom('15', 'time', 'english', 'true', '0', '-1', '1e400', '-0', '99999999999999999999'),
  fc.constantFrom('%00', '%ZZ', '%C0%AE', '%ED%A0%80', '%E0%A4%A', '', '%5B%5B%5B%5B%5D%5D%5D%5D'),
  deepNesting.map(encodeURIComponent),
);

function query(route: RouteInfo): fc.Arbitrary<string> {
  const keys = route.queryKeys.length > 0 ? route.queryKeys : ['page'];
  const key = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...keys) },
    { weight: 1, arbitrary: fc.constantFrom(...INHERITED).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.constantFrom('%00', 'a%ZZ', 'mode2', 'x') },
  );
  const join = (pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${v}`).join('&');
  // Repeated keys come naturally from the list.
  const loose = fc.array(fc.tuple(key, queryValue), { maxLength: 5 }).map(join);
  // Every declared key, mostly plausible: reaches the handlers behind query validation.
  const complete = fc
    .tuple(
      ...keys.map((k) =>
        fc.tuple(fc.constant(k), fc.oneof({ weight: 4, arbitrary: plausibleQuery }, queryValue)),
      ),
    )
    .map(join);
  return fc.oneof(loose, complete);
}

const pathValue = fc.oneof(
  fc.constantFrom(
    '0123456789abcdef01234567',
    'x',
    '%00',
    'a'.repeat(201),
    '%C0%AE',
    '%ED%A0%80',
    '..',
    '%2F',
    '99999999999999999999',
    'constructor',
    '__proto__',
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);

interface Case {
  route: RouteInfo;
  signedIn: boolean;
  params: string[];
  query: string;
  body: string | undefined;
  contentType: string;
}

function cases(routes: RouteInfo[]): fc.Arbitrary<Case> {
  return fc.constantFrom(...routes).chain((route) =>
    fc.record({
      route: fc.constant(route),
      signedIn: fc.boolean(),
      params: fc.array(pathValue, { minLength: route.params.length, maxLength: route.params.length }),
      query: query(route),
      body: route.method === 'GET' ? fc.constant(undefined) : body(route),
      contentType,
    }),
  );
}

// ---- the property ------------------------------------------------------------------------------------------------

/** Admin, quote moderator and premium for life, so permission and premium checks let requests through to handlers. */
const ACCOUNT = { permissions: ['admin', 'quoteMod'] as ('admin' | 'quoteMod')[], premiumExpiresAt: -1 };

describe('fuzz: hostile requests over every route', () => {
  let t: TestApp;
  let uid: string;
  let routes: RouteInfo[];
  const stats = { requests: 0, serverErrors: 0, refused: 0, byStatus: new Map<number, number>() };
  /** With FUZZ_VERBOSE=1, the statuses each route answered (to see which handlers the run reached). */
  const byRoute = new Map<string, Map<number, number>>();

  beforeAll(async () => {
    t = await createTestApp({
      // Without a webhook secret the webhook answers 500 on purpose (a deployment fault, not an input problem).
      env: { ...UNLIMITED_ENV, githubWebhookSecret: 'fuzz-secret' },
      // Every feature on, so no route answers 503 for being switched off.
      configuration: {
        ...UNLIMITED_CONFIGURATION,
        users: { premium: { enabled: true } },
        leaderboards: { weeklyXp: { enabled: true } },
      },
    });
    uid = (await createUser(t.db, ACCOUNT)).uid;
    routes = routeTable(t.app);
  });
  afterAll(async () => {
    console.log(
      `fuzz: ${stats.requests} requests over ${routes.length} routes, ${stats.serverErrors} answered 5xx, ` +
        `${stats.refused} refused; by status ${JSON.stringify(Object.fromEntries([...stats.byStatus].sort()))}`,
    );
    if (process.env.FUZZ_VERBOSE) {
      for (const [route, statuses] of [...byRoute].sort()) {
        console.log(`${route}: ${JSON.stringify(Object.fromEntries(statuses))}`);
      }
    }
    await t.close();
  });

  const digest = () => stateDigest(t, uid);

  it('reads the route table from the running app', () => {
    expect(routes.length).toBeGreaterThan(50);
    expect(routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ method: 'POST', path: '/users/tags', bodyKeys: ['tagName'] }),
        expect.objectContaining({ method: 'PATCH', path: '/ape-keys/:apeKeyId', params: ['apeKeyId'] }),
      ]),
    );
  });

  it('never answers 5xx, always answers errors with the envelope, and changes nothing when it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(cases(routes), async (c) => {
        // A fresh token each time: an earlier case may have revoked every token (POST /users/revokeAllTokens).
        t.clock.advance(2_000);
        const auth = c.signedIn ? await t.bearer(uid) : undefined;
        let url = c.route.path;
        c.route.params.forEach((name, i) => (url = url.replace(`:${name}`, c.params[i]!)));
        if (c.query !== '') url += `?${c.query}`;
        const headers: Record<string, string> = {};
        if (c.body !== undefined && c.contentType !== '') headers['content-type'] = c.contentType;

        const before = await digest();
        const res = await t.request(c.route.method, url, { auth, rawBody: c.body, headers });
        stats.requests += 1;
        stats.byStatus.set(res.status, (stats.byStatus.get(res.status) ?? 0) + 1);
        if (res.status >= 500) stats.serverErrors += 1;
        const routeKey = `${c.route.method} ${c.route.path}`;
        const routeStats = byRoute.get(routeKey) ?? new Map<number, number>();
        routeStats.set(res.status, (routeStats.get(res.status) ?? 0) + 1);
        byRoute.set(routeKey, routeStats);
        const context = `${c.route.method} ${url} ${c.contentType} ${c.body?.slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;

        expect({ context, serverError: res.status >= 500 }).toEqual({ context, serverError: false });
        if (res.status >= 400) {
          stats.refused += 1;
          const body = res.body as unknown as Record<string, unknown> | undefined;
          const envelope = typeof body?.message === 'string' && body.data === null;
          expect({ context, envelope }).toEqual({ context, envelope: true });
          expect({ context, digest: await digest() }).toEqual({ context, digest: before });
        }
        // A case may have deleted or reset the account; the next one needs it back.
        if (
          (await t.db.selectFrom('users').select('uid').where('uid', '=', uid).executeTakeFirst()) ===
          undefined
        ) {
          await createUser(t.db, { ...ACCOUNT, uid });
        }
      }),
      {
        numRuns: NUM_RUNS,
        seed: SEED,
        // Shrinking replays requests against a changing database; the first counterexample is reported as found.
        endOnFailure: true,
        reporter: (details) => {
          if (details.failed) {
            throw new Error(
              `fuzz failed (reproduce with FUZZ_SEED=${SEED} FUZZ_RUNS=${NUM_RUNS}): ${fc.defaultReportMessage(details)}\n` +
                String(details.errorInstance).slice(0, 2_000),
            );
          }
        },
      },
    );
  }, 120_000);
});
