// The smoke test against the running stack, through the published port: public routes, then one account's way
// through sign-up, a genuine client result, its profile and the all-time board, with operator commands run inside
// the API container, and a token revocation (a marker that lives only in Redis); after the stack was recreated, the
// same data read back from both volumes.
import { expect, shown } from './checks.mjs';

const BOARD = 'language=english&mode=time&mode2=60';

/** Public routes (no account). `ctx`: { request, commitHash, psaMessage, forgedToken }. */
export async function publicRoutes(checks, ctx) {
  const { request } = ctx;
  await checks.check('GET / answers the status envelope with the contract headers', async () => {
    const res = await request('GET', '/');
    expect(res.status === 200 && res.body.message === 'ok', shown(res));
    expect(
      String(res.body.data?.version).endsWith(ctx.commitHash),
      `version without COMMIT_HASH: ${shown(res)}`,
    );
    expect(res.headers.get('x-compatibility-check'), 'no X-Compatibility-Check header');
    expect(res.headers.get('x-request-id'), 'no X-Request-Id header');
    return `version ${res.body.data.version}`;
  });
  await checks.check('GET /livez and GET /readyz answer 200', async () => {
    for (const path of ['/livez', '/readyz']) {
      const res = await request('GET', path);
      expect(res.status === 200, `${path}: ${shown(res)}`);
    }
  });
  await checks.check('GET /configuration is public', async () => {
    const res = await request('GET', '/configuration');
    expect(res.status === 200 && res.body.data?.leaderboards, shown(res));
  });
  await checks.check('GET /docs/openapi.json serves the OpenAPI document', async () => {
    const res = await request('GET', '/docs/openapi.json');
    expect(res.status === 200 && String(res.body.openapi).startsWith('3.'), shown(res));
    return `${Object.keys(res.body.paths ?? {}).length} paths`;
  });
  await checks.check('GET /psas serves the announcement the CLI added inside the container', async () => {
    const res = await request('GET', '/psas');
    expect(res.status === 200 && Array.isArray(res.body.data), shown(res));
    expect(
      res.body.data.some((p) => p.message === ctx.psaMessage),
      `not among ${res.body.data.length} PSAs`,
    );
  });
  await checks.check('GET /public/typingStats and /public/speedHistogram answer 200', async () => {
    for (const path of ['/public/typingStats', `/public/speedHistogram?${BOARD}`]) {
      const res = await request('GET', path);
      expect(res.status === 200, `${path}: ${shown(res)}`);
    }
  });
  await checks.check('GET /metrics is hidden in production without METRICS_TOKEN (404)', async () => {
    const res = await request('GET', '/metrics');
    expect(res.status === 404, shown(res));
  });
  await checks.check('an unknown route answers the 404 envelope', async () => {
    const res = await request('GET', '/no-such-route');
    expect(
      res.status === 404 && res.body.message === 'Unknown request URL (GET: /no-such-route)',
      shown(res),
    );
  });
  await checks.check(
    'a signed-in route refuses no token and a token the issuer did not sign (401)',
    async () => {
      const none = await request('GET', '/users');
      expect(none.status === 401, `no token: ${shown(none)}`);
      const forged = await request('GET', '/users', { token: ctx.forgedToken });
      expect(forged.status === 401, `forged token: ${shown(forged)}`);
    },
  );
}

/**
 * Sign-up, result, profile, board. `ctx`: { request, token() (a fresh ID token of the account), uid, name,
 * captchaToken, result (a POST /results body), cli(args) (runs the operator CLI inside the API container) }.
 * Returns what the data checks after the restart compare with.
 */
export async function signedInFlow(checks, ctx) {
  const { request, uid, name } = ctx;
  const saved = { uid, name, wpm: ctx.result.result.wpm, resultId: null };
  await checks.check('sign-up with a captcha the provider refuses → 422', async () => {
    const res = await request('POST', '/users/signup', {
      token: await ctx.token(),
      body: { name, captcha: 'not-the-token' },
    });
    expect(res.status === 422 && res.body.message === 'Captcha challenge failed', shown(res));
  });
  await checks.check('sign-up with an OIDC token of the local issuer and a passing captcha', async () => {
    const res = await request('POST', '/users/signup', {
      token: await ctx.token(),
      body: { name, captcha: ctx.captchaToken },
    });
    expect(res.status === 200 && res.body.message === 'User created', shown(res));
    const me = await request('GET', '/users', { token: await ctx.token() });
    expect(me.status === 200 && me.body.data?.name === name && me.body.data?.uid === uid, shown(me));
  });
  await checks.check(
    'CLI in the container: permissions grant admin (then PATCH /configuration as admin)',
    async () => {
      const out = await ctx.cli(['permissions', 'grant', uid, 'admin']);
      expect(out.includes(`granted admin to ${uid}`), out);
      // The all-time boards take users with more than leaderboards.minTimeTyping (2 hours by default) typed.
      const res = await request('PATCH', '/configuration', {
        token: await ctx.token(),
        body: { configuration: { leaderboards: { minTimeTyping: 0 } } },
      });
      expect(res.status === 200, shown(res));
    },
  );
  await checks.check(
    'POST /results with a genuine client result (time 60) → saved as a personal best',
    async () => {
      const res = await request('POST', '/results', { token: await ctx.token(), body: ctx.result });
      expect(res.status === 200 && res.body.message === 'Result saved', shown(res));
      expect(res.body.data?.isPb === true, `not a personal best: ${shown(res)}`);
      saved.resultId = res.body.data.insertedId;
      return `id ${saved.resultId}`;
    },
  );
  await checks.check('the profile shows the personal best and the typing stats', async () => {
    const res = await request('GET', `/users/${name}/profile`);
    expect(res.status === 200, shown(res));
    const best = res.body.data?.personalBests?.time?.['60']?.[0];
    expect(best?.wpm === saved.wpm, `time 60 personal best: ${JSON.stringify(best)}`);
    expect(res.body.data.typingStats?.completedTests === 1, JSON.stringify(res.body.data.typingStats));
  });
  await checks.check('CLI in the container: leaderboards rebuild', async () => {
    const out = await ctx.cli(['leaderboards', 'rebuild']);
    return out.trim().split('\n').pop();
  });
  await checks.check('the all-time board (english time 60) ranks the account first', async () => {
    const res = await request('GET', `/leaderboards?${BOARD}`);
    expect(res.status === 200, shown(res));
    const first = res.body.data?.entries?.[0];
    expect(
      first?.uid === uid && first.rank === 1 && first.wpm === saved.wpm,
      `first entry: ${JSON.stringify(first)}`,
    );
    const rank = await request('GET', `/leaderboards/rank?${BOARD}`, { token: await ctx.token() });
    expect(rank.status === 200 && rank.body.data?.rank === 1, `rank: ${shown(rank)}`);
    const profile = await request('GET', `/users/${name}/profile`);
    expect(profile.body.data?.allTimeLbs?.time?.['60']?.english?.rank === 1, 'profile allTimeLbs: no rank 1');
  });
  await checks.check(
    'POST /users/revokeAllTokens: tokens issued before are refused (a Redis marker)',
    async () => {
      const old = await ctx.token();
      const res = await request('POST', '/users/revokeAllTokens', { token: old });
      expect(res.status === 200, shown(res));
      const refused = await request('GET', '/users', { token: old });
      expect(refused.status === 401, `the revoked token: ${shown(refused)}`);
      saved.revokedToken = old;
      // The marker covers tokens issued up to the end of the current second.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const fresh = await request('GET', '/users', { token: await ctx.token() });
      expect(fresh.status === 200, `a token issued after: ${shown(fresh)}`);
    },
  );
  return saved;
}

/** After `compose down` (volumes kept) and `up`: everything written before is still there. */
export async function dataSurvived(checks, ctx, saved) {
  const { request } = ctx;
  await checks.check(
    'after recreating the stack: the account, its result and its personal best (PostgreSQL volume)',
    async () => {
      const me = await request('GET', '/users', { token: await ctx.token() });
      expect(me.status === 200 && me.body.data?.name === saved.name, `account: ${shown(me)}`);
      const results = await request('GET', '/results', { token: await ctx.token() });
      expect(results.status === 200, shown(results));
      const ids = (results.body.data ?? []).map((r) => r._id ?? r.id);
      expect(ids.length === 1 && ids[0] === saved.resultId, `results: ${JSON.stringify(ids)}`);
      const board = await request('GET', `/leaderboards?${BOARD}`);
      expect(board.body.data?.entries?.[0]?.uid === saved.uid, `all-time board: ${shown(board)}`);
      const psas = await request('GET', '/psas');
      expect(
        psas.body.data?.some((p) => p.message === ctx.psaMessage),
        'the PSA is gone',
      );
    },
  );
  await checks.check(
    'after recreating the stack: the revoked token is still refused (Redis volume, append-only file)',
    async () => {
      const res = await request('GET', '/users', { token: saved.revokedToken });
      expect(res.status === 401, shown(res));
    },
  );
}
