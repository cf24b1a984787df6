/**
 * The reviewed expectations of the authorization matrix (authorization-matrix.e2e-spec.ts), one row per route of the
 * running app. A new route fails the matrix until it has a row here; `auth` is compared with the route's policy
 * metadata, so changing a route's policy means changing its row in the same review.
 */
export type Outcome = 'pass' | { status: number; message: string };
export type EntityKind = 'preset' | 'tag' | 'apeKey' | 'result' | 'connection' | 'theme';

export interface RouteRow {
  /**
   * public: no account needed; signature: authenticates itself (the Authorization header is ignored);
   * unregistered: a valid token of a user without an account; fresh: Bearer signed in within 60 s, never ApeKey;
   * apeKey: Bearer or ApeKey; admin / quoteMod: Bearer with that permission; canReport / canManageApeKeys: Bearer
   * of a user whose flag support has not revoked; premium: Bearer of a premium user; bearer: Bearer only.
   */
  auth:
    | 'public'
    | 'signature'
    | 'unregistered'
    | 'fresh'
    | 'apeKey'
    | 'admin'
    | 'quoteMod'
    | 'canReport'
    | 'canManageApeKeys'
    | 'premium'
    | 'bearer';
  /** Body sent in every case (default `{}` for methods with a body). */
  body?: unknown;
  /** What a self-authenticating route answers to every caller of the matrix (none of them signs the request). */
  selfAuth?: Outcome;
  /** Routes that refuse banned users (a handler rule, so metadata cannot say), with a body that reaches the rule. */
  banned?: { expect: Outcome; body?: unknown };
  /**
   * Owner scoping: the caller names another user's entity (path `param`, or in the `body`) and must get this answer,
   * and the entity must stay unchanged.
   */
  othersIds?: { entity: EntityKind; param?: string; body?: (id: string) => unknown; expect: Outcome };
}

const THEME_COLORS = Object.fromEntries(
  ['bg', 'main', 'caret', 'sub', 'text', 'error', 'errorExtra', 'colorfulError', 'colorfulErrorExtra'].map(
    (k) => [k, '#111'],
  ),
);

const NOT_FOUND = (message: string): Outcome => ({ status: 404, message });

export const EXPECTATIONS: Record<string, RouteRow> = {
  'GET /': { auth: 'public' },
  'GET /metrics': {
    auth: 'signature',
    // Production without METRICS_TOKEN or METRICS_PORT: the API port hides the route (docs/security.md).
    selfAuth: NOT_FOUND('Unknown request URL (GET: /metrics)'),
  },
  'POST /webhooks/githubRelease': {
    auth: 'signature',
    selfAuth: { status: 401, message: 'Missing Github signature header' },
  },
  'GET /configuration': { auth: 'public' },
  'PATCH /configuration': { auth: 'admin' },
  'GET /configuration/schema': { auth: 'admin' },
  // The public key account files are signed with, and the instance id (docs/account-files.md).
  'GET /configuration/instance': { auth: 'public' },
  'GET /psas': { auth: 'public' },
  'GET /public/speedHistogram': { auth: 'public' },
  'GET /public/typingStats': { auth: 'public' },

  'GET /admin': { auth: 'admin' },
  'POST /admin/toggleBan': { auth: 'admin' },
  'POST /admin/clearStreakHourOffset': { auth: 'admin' },
  'POST /admin/report/accept': { auth: 'admin' },
  'POST /admin/report/reject': { auth: 'admin' },
  'GET /admin/result/held': { auth: 'admin' },
  'GET /admin/result/rates': { auth: 'admin' },
  'POST /admin/result/accept': { auth: 'admin' },
  'POST /admin/result/reject': { auth: 'admin' },
  'POST /admin/sendForgotPasswordEmail': { auth: 'admin' },

  'GET /ape-keys': { auth: 'canManageApeKeys' },
  'POST /ape-keys': { auth: 'canManageApeKeys' },
  'PATCH /ape-keys/:apeKeyId': {
    auth: 'canManageApeKeys',
    body: { name: 'renamed' },
    othersIds: { entity: 'apeKey', param: 'apeKeyId', expect: NOT_FOUND('ApeKey not found') },
  },
  'DELETE /ape-keys/:apeKeyId': {
    auth: 'canManageApeKeys',
    othersIds: { entity: 'apeKey', param: 'apeKeyId', expect: NOT_FOUND('ApeKey not found') },
  },

  'GET /configs': { auth: 'bearer' },
  'PATCH /configs': { auth: 'bearer' },
  'DELETE /configs': { auth: 'bearer' },

  'GET /connections': { auth: 'bearer' },
  'POST /connections': { auth: 'bearer' },
  'PATCH /connections/:id': {
    auth: 'bearer',
    body: { status: 'accepted' },
    othersIds: {
      entity: 'connection',
      param: 'id',
      expect: NOT_FOUND('No permission or connection not found'),
    },
  },
  'DELETE /connections/:id': {
    auth: 'bearer',
    othersIds: {
      entity: 'connection',
      param: 'id',
      expect: NOT_FOUND('No permission or connection not found'),
    },
  },
  'GET /users/friends': { auth: 'bearer' },

  'GET /leaderboards': { auth: 'public' },
  'GET /leaderboards/rank': { auth: 'apeKey' },
  'GET /leaderboards/daily': { auth: 'public' },
  'GET /leaderboards/daily/rank': { auth: 'bearer' },
  'GET /leaderboards/xp/weekly': { auth: 'public' },
  'GET /leaderboards/weekly-xp': { auth: 'public' },
  'GET /leaderboards/xp/weekly/rank': { auth: 'bearer' },

  'GET /presets': { auth: 'bearer' },
  'POST /presets': { auth: 'bearer' },
  'PATCH /presets': {
    auth: 'bearer',
    othersIds: {
      entity: 'preset',
      body: (id) => ({ _id: id, name: 'stolen', config: {} }),
      expect: NOT_FOUND('Preset not found'),
    },
  },
  'DELETE /presets/:presetId': {
    auth: 'bearer',
    othersIds: { entity: 'preset', param: 'presetId', expect: NOT_FOUND('Preset not found') },
  },

  'GET /quotes': { auth: 'quoteMod' },
  'POST /quotes': { auth: 'bearer' },
  'POST /quotes/approve': { auth: 'quoteMod' },
  'POST /quotes/reject': { auth: 'quoteMod' },
  'POST /quotes/report': { auth: 'canReport' },
  'GET /quotes/isSubmissionEnabled': { auth: 'public' },
  'GET /quotes/rating': { auth: 'bearer' },
  'POST /quotes/rating': { auth: 'bearer' },

  'POST /results': { auth: 'bearer' },
  'GET /results': { auth: 'apeKey' },
  'GET /users/results': { auth: 'apeKey' },
  'GET /results/id/:resultId': {
    auth: 'apeKey',
    othersIds: { entity: 'result', param: 'resultId', expect: NOT_FOUND('Result not found') },
  },
  'DELETE /results': { auth: 'fresh' },
  'GET /results/last': { auth: 'apeKey' },
  'PATCH /results/tags': {
    auth: 'bearer',
    othersIds: {
      entity: 'result',
      body: (id) => ({ resultId: id, tagIds: [] }),
      expect: NOT_FOUND('Result not found'),
    },
  },

  'GET /users': { auth: 'bearer' },
  'DELETE /users': { auth: 'fresh' },
  'POST /users/signup': { auth: 'unregistered' },
  'GET /users/checkName/:name': { auth: 'public' },
  'POST /users/forgotPasswordEmail': { auth: 'public' },
  'PATCH /users/name': {
    auth: 'fresh',
    banned: {
      body: { name: 'banned_rename' },
      expect: { status: 403, message: 'Banned users cannot change their name' },
    },
  },
  'PATCH /users/email': { auth: 'fresh' },
  'PATCH /users/password': { auth: 'fresh' },
  'PATCH /users/reset': {
    auth: 'fresh',
    banned: { expect: { status: 403, message: 'Banned users cannot reset their account' } },
  },
  'POST /users/revokeAllTokens': { auth: 'fresh' },
  'POST /users/optOutOfLeaderboards': { auth: 'bearer' },
  'PATCH /users/leaderboardMemory': { auth: 'bearer' },
  'GET /users/verificationEmail': { auth: 'bearer' },
  'POST /users/report': { auth: 'canReport' },
  'POST /users/resultFilterPresets': { auth: 'bearer' },
  'DELETE /users/resultFilterPresets/:presetId': { auth: 'bearer' },
  // Issue 22: the caller's own data only (banned users too: a copy of one's data is not a privilege).
  'GET /users/export': { auth: 'bearer' },

  'GET /users/:uidOrName/profile': { auth: 'public' },
  'GET /users/profile/:uidOrName': { auth: 'public' },
  'PATCH /users/profile': {
    auth: 'bearer',
    banned: {
      body: { bio: 'hello' },
      expect: { status: 403, message: 'Banned users cannot update their profile' },
    },
  },

  'GET /users/personalBests': { auth: 'apeKey' },
  'DELETE /users/personalBests': { auth: 'fresh' },
  'GET /users/stats': { auth: 'apeKey' },
  'GET /users/streak': { auth: 'apeKey' },
  'PATCH /users/streak/hourOffset': { auth: 'bearer' },
  'POST /users/streakHourOffset': { auth: 'bearer' },
  'POST /users/setStreakHourOffset': { auth: 'bearer' },
  'GET /users/testActivity': { auth: 'premium' },
  'GET /users/currentTestActivity': { auth: 'apeKey' },

  'GET /users/tags': { auth: 'apeKey' },
  'POST /users/tags': { auth: 'bearer' },
  'PATCH /users/tags': {
    auth: 'bearer',
    othersIds: {
      entity: 'tag',
      body: (id) => ({ tagId: id, newName: 'stolen' }),
      expect: NOT_FOUND('Tag not found'),
    },
  },
  'DELETE /users/tags/:tagId': {
    auth: 'bearer',
    othersIds: { entity: 'tag', param: 'tagId', expect: NOT_FOUND('Tag not found') },
  },
  'DELETE /users/tags/:tagId/personalBest': {
    auth: 'bearer',
    othersIds: { entity: 'tag', param: 'tagId', expect: NOT_FOUND('Tag not found') },
  },
  'GET /users/customThemes': { auth: 'bearer' },
  'POST /users/customThemes': { auth: 'bearer' },
  'PATCH /users/customThemes': {
    auth: 'bearer',
    othersIds: {
      entity: 'theme',
      body: (id) => ({ themeId: id, theme: { name: 'stolen', colors: THEME_COLORS } }),
      expect: NOT_FOUND('Custom theme not found'),
    },
  },
  'DELETE /users/customThemes': {
    auth: 'bearer',
    othersIds: {
      entity: 'theme',
      body: (id) => ({ themeId: id }),
      expect: NOT_FOUND('Custom theme not found'),
    },
  },
  'GET /users/favoriteQuotes': { auth: 'bearer' },
  'POST /users/favoriteQuotes': { auth: 'bearer' },
  'DELETE /users/favoriteQuotes': { auth: 'bearer' },
  'GET /users/inbox': { auth: 'bearer' },
  'PATCH /users/inbox': { auth: 'bearer' },

  'GET /users/chat/oauth': { auth: 'bearer' },
  'POST /users/chat/link': { auth: 'bearer' },
  'POST /users/chat/unlink': {
    auth: 'bearer',
    banned: { expect: { status: 403, message: 'Banned accounts cannot unlink Discord' } },
  },
  'GET /users/discord/oauth': { auth: 'bearer' },
  'POST /users/discord/link': { auth: 'bearer' },
  'POST /users/discord/unlink': {
    auth: 'bearer',
    banned: { expect: { status: 403, message: 'Banned accounts cannot unlink Discord' } },
  },
};
