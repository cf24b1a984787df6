/**
 * Every route of the original platform's contract (contract facts, endpoint tables of sections 1.6 and 7-11;
 * docs/decisions/0001-contract-and-gaps.md), as its web client and ApeKey scripts call them. `auth` is how the
 * original client authenticates the call: `public` (nothing), `bearer`, `fresh` (a token signed in within the last
 * minute), `apeKey` (also accepts an ApeKey), `admin` (Bearer of a user with the admin permission), `quoteMod`,
 * `github` (webhook signature). The `/dev/*` routes are left out on purpose (development data generators of the
 * original).
 */
export type OriginalAuth = 'public' | 'bearer' | 'fresh' | 'apeKey' | 'admin' | 'quoteMod' | 'github';

export interface OriginalRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path with `:param` placeholders, as in the contract facts. */
  path: string;
  auth: OriginalAuth;
}

const route = (method: OriginalRoute['method'], path: string, auth: OriginalAuth): OriginalRoute => ({
  method,
  path,
  auth,
});

export const ORIGINAL_ROUTES: readonly OriginalRoute[] = [
  route('GET', '/', 'public'),
  // 7. Users (U1-U43)
  route('GET', '/users', 'bearer'),
  route('POST', '/users/signup', 'bearer'),
  route('GET', '/users/checkName/:name', 'public'),
  route('DELETE', '/users', 'fresh'),
  route('PATCH', '/users/reset', 'fresh'),
  route('PATCH', '/users/name', 'fresh'),
  route('PATCH', '/users/leaderboardMemory', 'bearer'),
  route('PATCH', '/users/email', 'fresh'),
  route('PATCH', '/users/password', 'fresh'),
  route('GET', '/users/personalBests', 'apeKey'),
  route('DELETE', '/users/personalBests', 'fresh'),
  route('POST', '/users/optOutOfLeaderboards', 'fresh'),
  route('POST', '/users/resultFilterPresets', 'bearer'),
  route('DELETE', '/users/resultFilterPresets/:presetId', 'bearer'),
  route('GET', '/users/tags', 'apeKey'),
  route('POST', '/users/tags', 'bearer'),
  route('PATCH', '/users/tags', 'bearer'),
  route('DELETE', '/users/tags/:tagId', 'bearer'),
  route('DELETE', '/users/tags/:tagId/personalBest', 'bearer'),
  route('GET', '/users/customThemes', 'bearer'),
  route('POST', '/users/customThemes', 'bearer'),
  route('DELETE', '/users/customThemes', 'bearer'),
  route('PATCH', '/users/customThemes', 'bearer'),
  route('GET', '/users/discord/oauth', 'bearer'),
  route('POST', '/users/discord/link', 'bearer'),
  route('POST', '/users/discord/unlink', 'bearer'),
  route('GET', '/users/stats', 'apeKey'),
  route('POST', '/users/setStreakHourOffset', 'bearer'),
  route('GET', '/users/favoriteQuotes', 'bearer'),
  route('POST', '/users/favoriteQuotes', 'bearer'),
  route('DELETE', '/users/favoriteQuotes', 'bearer'),
  route('GET', '/users/:uidOrName/profile', 'public'),
  route('PATCH', '/users/profile', 'bearer'),
  route('GET', '/users/inbox', 'bearer'),
  route('PATCH', '/users/inbox', 'bearer'),
  route('POST', '/users/report', 'bearer'),
  route('GET', '/users/verificationEmail', 'bearer'),
  route('POST', '/users/forgotPasswordEmail', 'public'),
  route('POST', '/users/revokeAllTokens', 'fresh'),
  route('GET', '/users/testActivity', 'bearer'),
  route('GET', '/users/currentTestActivity', 'apeKey'),
  route('GET', '/users/streak', 'apeKey'),
  route('GET', '/users/friends', 'bearer'),
  // 8. Results (R1-R6)
  route('GET', '/results', 'apeKey'),
  route('GET', '/results/id/:resultId', 'apeKey'),
  route('GET', '/results/last', 'apeKey'),
  route('POST', '/results', 'bearer'),
  route('PATCH', '/results/tags', 'bearer'),
  route('DELETE', '/results', 'fresh'),
  // 9. Leaderboards (L1-L6)
  route('GET', '/leaderboards', 'public'),
  route('GET', '/leaderboards/rank', 'apeKey'),
  route('GET', '/leaderboards/daily', 'public'),
  route('GET', '/leaderboards/daily/rank', 'bearer'),
  route('GET', '/leaderboards/xp/weekly', 'public'),
  route('GET', '/leaderboards/xp/weekly/rank', 'bearer'),
  // 10.1 Configs
  route('GET', '/configs', 'bearer'),
  route('PATCH', '/configs', 'bearer'),
  route('DELETE', '/configs', 'bearer'),
  // 10.2 Presets
  route('GET', '/presets', 'bearer'),
  route('POST', '/presets', 'bearer'),
  route('PATCH', '/presets', 'bearer'),
  route('DELETE', '/presets/:presetId', 'bearer'),
  // 10.3 ApeKeys
  route('GET', '/ape-keys', 'bearer'),
  route('POST', '/ape-keys', 'bearer'),
  route('PATCH', '/ape-keys/:apeKeyId', 'bearer'),
  route('DELETE', '/ape-keys/:apeKeyId', 'bearer'),
  // 10.4 Quotes
  route('GET', '/quotes', 'quoteMod'),
  route('GET', '/quotes/isSubmissionEnabled', 'public'),
  route('POST', '/quotes', 'bearer'),
  route('POST', '/quotes/approve', 'quoteMod'),
  route('POST', '/quotes/reject', 'quoteMod'),
  route('GET', '/quotes/rating', 'bearer'),
  route('POST', '/quotes/rating', 'bearer'),
  route('POST', '/quotes/report', 'bearer'),
  // 10.5 Connections
  route('GET', '/connections', 'bearer'),
  route('POST', '/connections', 'bearer'),
  route('PATCH', '/connections/:id', 'bearer'),
  route('DELETE', '/connections/:id', 'bearer'),
  // 11. PSAs, public stats, configuration, admin, webhooks, docs
  route('GET', '/psas', 'public'),
  route('GET', '/public/speedHistogram', 'public'),
  route('GET', '/public/typingStats', 'public'),
  route('GET', '/configuration', 'public'),
  route('PATCH', '/configuration', 'admin'),
  route('GET', '/configuration/schema', 'admin'),
  route('GET', '/admin', 'admin'),
  route('POST', '/admin/toggleBan', 'admin'),
  route('POST', '/admin/clearStreakHourOffset', 'admin'),
  route('POST', '/admin/report/accept', 'admin'),
  route('POST', '/admin/report/reject', 'admin'),
  route('POST', '/admin/sendForgotPasswordEmail', 'admin'),
  route('POST', '/webhooks/githubRelease', 'github'),
  route('GET', '/docs', 'public'),
  route('GET', '/docs/public', 'public'),
  route('GET', '/docs/internal', 'public'),
  route('GET', '/docs/public.json', 'public'),
  route('GET', '/docs/internal.json', 'public'),
];
