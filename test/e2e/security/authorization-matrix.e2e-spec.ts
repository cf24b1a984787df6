import { randomBytes } from 'node:crypto';
import type { RoutePolicy } from '../../../src/common/auth/policy';
import { MESSAGES } from '../../../src/common/app-error';
import { RATE_LIMIT_CLASSES } from '../../../src/common/rate-limit/rate-limit-classes';
import { generateKey, TEST_CONFIGURATION } from '../ape-keys/support';
import { createUser, type UserOverrides } from '../../support/factories';
import { freshIp, listRoutes, type AppRoute } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { EXPECTATIONS, type EntityKind, type Outcome, type RouteRow } from './authorization-matrix.table';

/**
 * Issue 14, item 5 (the matrix): every route of the running app, read from its controller metadata, against every
 * kind of caller. What each route must do follows from its policy metadata (@Public, @AcceptsApeKey,
 * @RequireFreshToken, @RequirePermission, ...) plus its row in authorization-matrix.table.ts; a route without a
 * row, or whose metadata disagrees with the row's reviewed `auth`, fails the suite.
 */
const CASES = [
  'none',
  'malformed',
  'uidScheme',
  'bearer',
  'stale',
  'apeKey',
  'disabledApeKey',
  'banned',
  'noPermission',
  'othersIds',
] as const;
type Case = (typeof CASES)[number];

const PASS = 'pass' as const;
const refused = (status: number, message: string): Outcome => ({ status, message });

/** Answers of the authentication and authorisation steps; a route "passes" a case when it gives none of these. */
const AUTH_REFUSALS = new Set<string>([
  MESSAGES.unauthorized,
  MESSAGES.tokenExpired,
  MESSAGES.tokenRevoked,
  MESSAGES.freshTokenRequired,
  MESSAGES.apeKeyNotAccepted,
  MESSAGES.apeKeysOff,
  MESSAGES.rateLimited,
  MESSAGES.badAuthBanned,
  MESSAGES.noPermission,
  MESSAGES.apeKeyAccessLost,
  MESSAGES.premiumDisabled,
  MESSAGES.notPremium,
]);

/** Refusals of the ApeKey scheme; without a key in the request, the same texts are a handler's (an unknown key id). */
const APE_KEY_REFUSALS = new Set<string>([
  MESSAGES.apeKeyNotFound,
  MESSAGES.apeKeyDisabled,
  MESSAGES.apeKeyMalformed,
]);

/** The reviewed one-word summary of a policy (production mode: @DevPublic routes are signed-in routes). */
function authOf(policy: RoutePolicy): RouteRow['auth'] {
  if (policy.rawAuth) return 'signature';
  if (policy.public) return 'public';
  if (policy.allowUnregistered) return 'unregistered';
  if (policy.freshToken) return 'fresh';
  if (policy.permission) return policy.permission;
  if (policy.premium) return 'premium';
  if (policy.acceptsApeKey) return 'apeKey';
  return 'bearer';
}

/** What `route` must answer to `kase`, derived from its policy; the row adds what metadata cannot say. */
function expected(route: AppRoute, row: RouteRow, kase: Case): Outcome | null {
  const p = route.policy;
  if (p.rawAuth) return kase === 'othersIds' ? null : (row.selfAuth ?? PASS);
  const acceptsKey = p.acceptsApeKey || p.public;
  switch (kase) {
    case 'none':
      return p.public ? PASS : refused(401, MESSAGES.unauthorized);
    case 'malformed':
    case 'uidScheme': // development only: production refuses it everywhere, public routes included
      return refused(401, MESSAGES.unauthorized);
    case 'bearer':
      return PASS;
    case 'stale':
      return p.freshToken ? refused(401, MESSAGES.freshTokenRequired) : PASS;
    case 'apeKey':
      return acceptsKey ? PASS : refused(401, MESSAGES.apeKeyNotAccepted);
    case 'disabledApeKey':
      return acceptsKey ? refused(470, MESSAGES.apeKeyDisabled) : refused(401, MESSAGES.apeKeyNotAccepted);
    case 'banned':
      return row.banned?.expect ?? PASS;
    case 'noPermission':
      if (p.permission === 'canManageApeKeys') return refused(403, MESSAGES.apeKeyAccessLost);
      if (p.permission) return refused(403, MESSAGES.noPermission);
      if (p.premium) return refused(503, MESSAGES.notPremium);
      return PASS;
    case 'othersIds':
      return row.othersIds?.expect ?? null;
  }
}

const RATE_LIMITS_OFF = Object.fromEntries(
  Object.keys(RATE_LIMIT_CLASSES).map((id) => [id, { max: 10_000_000 }]),
);
const PREMIUM_FOREVER = -1;
const ALL_POWERS: UserOverrides = { permissions: ['admin', 'quoteMod'], premiumExpiresAt: PREMIUM_FOREVER };

describe('authorization matrix (every route × every kind of caller)', () => {
  let t: TestApp;
  let keyOwner: string;
  let apeKey: string;
  let disabledApeKey: string;
  let other: { uid: string; name: string };
  const othersEntities = new Map<EntityKind, string>();
  const newId = () => randomBytes(12).toString('hex');

  beforeAll(async () => {
    t = await createTestApp({
      configuration: { ...TEST_CONFIGURATION, users: { premium: { enabled: true } } },
      env: {
        rateLimit: { globalPerMinute: 10_000_000, overrides: RATE_LIMITS_OFF },
        githubWebhookSecret: 'matrix-webhook-secret',
      },
    });
    ({ uid: keyOwner } = await createUser(t.db, ALL_POWERS));
    const owner = await t.bearer(keyOwner);
    apeKey = `ApeKey ${(await generateKey(t, owner)).apeKey}`;
    disabledApeKey = `ApeKey ${(await generateKey(t, owner, { name: 'off', enabled: false })).apeKey}`;
    other = await createUser(t.db);
    await seedOthersEntities();
  });
  afterAll(() => t.close());

  /** One entity of each kind owned by `other` (the caller of the othersIds case never owns them). */
  async function seedOthersEntities(): Promise<void> {
    const now = t.clock.now();
    const uid = other.uid;
    const ids = Object.fromEntries(
      (['preset', 'tag', 'apeKey', 'result', 'connection', 'theme'] as const).map((k) => [k, newId()]),
    ) as Record<EntityKind, string>;
    await t.db
      .insertInto('presets')
      .values({ id: ids.preset, uid, name: 'p', config: '{}', created_at: now })
      .execute();
    await t.db.insertInto('tags').values({ id: ids.tag, uid, name: 'tag', created_at: now }).execute();
    await t.db
      .insertInto('ape_keys')
      .values({ id: ids.apeKey, uid, name: 'k', hash: 'x', enabled: true, created_on: now, modified_on: now })
      .execute();
    await t.db
      .insertInto('results')
      .values({
        id: ids.result,
        uid,
        name: 'r',
        timestamp: now,
        wpm: 50,
        raw_wpm: 51,
        acc: 95,
        consistency: 70,
        mode: 'time',
        mode2: '15',
        language: 'english',
        test_duration: 15,
      })
      .execute();
    const third = await createUser(t.db);
    await t.db
      .insertInto('connections')
      .values({
        id: ids.connection,
        initiator_uid: uid,
        receiver_uid: third.uid,
        status: 'pending',
        created_at: now,
        last_modified: now,
      })
      .execute();
    await t.db
      .insertInto('custom_themes')
      .values({
        id: ids.theme,
        uid,
        name: 't',
        colors: JSON.stringify(Array(10).fill('#000')),
        created_at: now,
      })
      .execute();
    for (const [kind, id] of Object.entries(ids)) othersEntities.set(kind as EntityKind, id);
  }

  /** Whether `other`'s entity of `kind` is still there, unchanged in owner. */
  async function othersEntityIntact(kind: EntityKind): Promise<boolean> {
    const id = othersEntities.get(kind) as string;
    const table = {
      preset: 'presets',
      tag: 'tags',
      apeKey: 'ape_keys',
      result: 'results',
      theme: 'custom_themes',
    } as const;
    if (kind === 'connection') {
      const row = await t.db
        .selectFrom('connections')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirst();
      return row?.status === 'pending';
    }
    const row = await t.db.selectFrom(table[kind]).select('uid').where('id', '=', id).executeTakeFirst();
    return row?.uid === other.uid;
  }

  async function authFor(kase: Case): Promise<string | undefined> {
    const user = (overrides: UserOverrides) => createUser(t.db, overrides).then((u) => u.uid);
    switch (kase) {
      case 'none':
        return undefined;
      case 'malformed':
        return 'Bearer not.a.jwt';
      case 'uidScheme':
        return `Uid ${keyOwner}|owner@example.test`;
      case 'bearer':
      case 'othersIds':
        return t.bearer(await user(ALL_POWERS));
      case 'stale':
        return t.bearer(await user(ALL_POWERS), { authTime: t.clock.now() - 10 * 60_000 });
      case 'apeKey':
        return apeKey;
      case 'disabledApeKey':
        return disabledApeKey;
      case 'banned':
        return t.bearer(await user({ ...ALL_POWERS, banned: true }));
      case 'noPermission':
        // No granted permission, and the flags support can revoke turned off.
        return t.bearer(await user({ canReport: false, canManageApeKeys: false }));
    }
  }

  function urlFor(route: AppRoute, row: RouteRow, kase: Case): string {
    return route.path.replace(/:(\w+)/g, (_m, name: string) => {
      if (kase === 'othersIds' && row.othersIds?.param === name) {
        return encodeURIComponent(othersEntities.get(row.othersIds.entity) as string);
      }
      if (name === 'uidOrName') return other.name;
      if (name === 'name') return 'someone_free';
      return newId();
    });
  }

  function bodyFor(route: AppRoute, row: RouteRow, kase: Case): unknown {
    if (kase === 'othersIds' && row.othersIds?.body) {
      return row.othersIds.body(othersEntities.get(row.othersIds.entity) as string);
    }
    if (kase === 'banned' && row.banned?.body !== undefined) return row.banned.body;
    return row.body ?? (route.method === 'GET' ? undefined : {});
  }

  function describeOutcome(kase: Case, status: number, message: string): Outcome {
    const refusal =
      AUTH_REFUSALS.has(message) ||
      status === 401 ||
      status === 403 ||
      (kase.endsWith('peKey') && APE_KEY_REFUSALS.has(message));
    return refusal ? { status, message } : PASS;
  }

  it('has a reviewed row for every route, and none for routes that do not exist', () => {
    const routes = listRoutes(t.app);
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(keys.filter((k) => !(k in EXPECTATIONS))).toEqual([]);
    expect(Object.keys(EXPECTATIONS).filter((k) => !keys.includes(k))).toEqual([]);
    const drift = routes
      .map((r) => ({ route: `${r.method} ${r.path}`, metadata: authOf(r.policy) }))
      .filter(({ route, metadata }) => EXPECTATIONS[route]?.auth !== metadata);
    expect(drift).toEqual([]);
  });

  it.each(CASES)(
    'answers the "%s" caller as each route policy says',
    async (kase) => {
      const mismatches: unknown[] = [];
      for (const route of listRoutes(t.app)) {
        const key = `${route.method} ${route.path}`;
        const row = EXPECTATIONS[key];
        if (!row) continue; // reported by the test above
        const want = expected(route, row, kase);
        if (want === null) continue;
        const res = await t.request(route.method, urlFor(route, row, kase), {
          auth: await authFor(kase),
          body: bodyFor(route, row, kase),
          ip: freshIp(),
        });
        const message = res.body?.message ?? res.text;
        const got =
          want === PASS ? describeOutcome(kase, res.status, message) : { status: res.status, message };
        // A pass must also be a sane answer: never a 500 (503 is a switched-off feature).
        const broken = res.status >= 500 && res.status !== 503;
        if (JSON.stringify(got) !== JSON.stringify(want) || (want === PASS && broken)) {
          mismatches.push({ route: key, want, got: { status: res.status, message: res.body?.message } });
        }
        if (kase === 'othersIds' && row.othersIds && !(await othersEntityIntact(row.othersIds.entity))) {
          mismatches.push({ route: key, problem: `another user's ${row.othersIds.entity} was changed` });
        }
      }
      expect(mismatches).toEqual([]);
    },
    180_000,
  );
});
