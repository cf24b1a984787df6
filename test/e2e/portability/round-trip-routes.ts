import type { ParsedExport } from './support';

/**
 * The GET routes of the round trip (issue 22, item 4): for every GET route of the app's route table, the requests
 * that show what a user holds there, or why the route says nothing of one user. A route missing here fails the round
 * trip, so a new route is compared, or excluded with its reason, from the day it exists.
 */
export interface Probe {
  url: string;
  query?: Record<string, string | number | boolean>;
  /** Whose token: the moved account's, a moderator's on each instance, or none (public). */
  auth: 'account' | 'moderator' | 'none';
  /** The status both answer (the comparison also asserts it, so two equal errors are not taken for success). */
  status?: number;
  /** What of the answer belongs to the account (a moderator's list holds everyone's). */
  pick?: (data: unknown, account: MovedAccount) => unknown;
}

export interface MovedAccount {
  uid: string;
  name: string;
  /** The account's export on the source instance (its result ids, counts). */
  exported: ParsedExport;
  /** Users the account is connected to who were not moved (their connections stay behind). */
  leftBehind: string[];
  premium: boolean;
}

const BOARDS = [
  { language: 'english', mode: 'time', mode2: '15' },
  { language: 'english', mode: 'time', mode2: '60' },
];

/** The entries of a moderator's list that are the account's. */
const ofAccount = (data: unknown, account: MovedAccount) =>
  (data as { uid?: string; submittedBy?: string }[]).filter(
    (e) => e.uid === account.uid || e.submittedBy === account.uid,
  );

/** The account's results to compare one by one: all of them, or a spread of a long history. */
function resultIds(account: MovedAccount): string[] {
  const ids = account.exported.records
    .filter((r) => r.type === 'result')
    .map((r) => (r.data as { id: string }).id);
  if (ids.length <= 60) return ids;
  const step = Math.floor(ids.length / 50);
  return [...ids.filter((_, i) => i % step === 0), ids[ids.length - 1]!];
}

/** Pages of GET /results up to the cap and one past it (the cap answers the same on both). */
function resultPages(url: string, account: MovedAccount): Probe[] {
  const cap = account.premium ? 10_000 : 1_000;
  const pages: Probe[] = [{ url, auth: 'account' }];
  for (let offset = 0; offset < Math.min(cap, account.exported.end!.counts.result); offset += 500)
    pages.push({ url, auth: 'account', query: { limit: 500, offset } });
  if (account.exported.end!.counts.result > cap)
    pages.push({ url, auth: 'account', query: { limit: 500, offset: cap }, status: 422 });
  return pages;
}

export function probesOf(account: MovedAccount): Record<string, Probe[] | string> {
  const own = (url: string, status = 200): Probe[] => [{ url, auth: 'account', status }];
  const boards = (
    url: string,
    extra: Record<string, string | number | boolean> = {},
    auth: Probe['auth'] = 'none',
  ) => BOARDS.map((query) => ({ url, query: { ...query, ...extra }, auth }));
  return {
    '/users': own('/users'),
    '/users/personalBests': ['time', 'words', 'quote', 'zen', 'custom'].map((mode) => ({
      url: '/users/personalBests',
      query: { mode },
      auth: 'account' as const,
    })),
    '/users/stats': own('/users/stats'),
    '/users/streak': own('/users/streak'),
    '/users/testActivity': own('/users/testActivity', account.premium ? 200 : 503),
    '/users/currentTestActivity': own('/users/currentTestActivity'),
    '/users/tags': own('/users/tags'),
    '/users/customThemes': own('/users/customThemes'),
    '/users/favoriteQuotes': own('/users/favoriteQuotes'),
    '/users/inbox': own('/users/inbox'),
    '/users/:uidOrName/profile': [
      { url: `/users/${account.name}/profile`, auth: 'none' },
      { url: `/users/${account.uid}/profile`, query: { isUid: true }, auth: 'none' },
    ],
    '/users/profile/:uidOrName': [{ url: `/users/profile/${account.name}`, auth: 'none' }],
    '/users/checkName/:name': [{ url: `/users/checkName/${account.name}`, auth: 'none' }],
    '/configs': own('/configs'),
    '/presets': own('/presets'),
    '/connections': own('/connections'),
    '/users/friends': own('/users/friends'),
    '/ape-keys': own('/ape-keys'),
    '/results': resultPages('/results', account),
    '/users/results': resultPages('/users/results', account),
    '/results/last': own('/results/last'),
    '/results/id/:resultId': resultIds(account).map((id) => ({ url: `/results/id/${id}`, auth: 'account' })),
    '/leaderboards': [
      ...boards('/leaderboards'),
      ...boards('/leaderboards', { friendsOnly: true }, 'account'),
    ],
    '/leaderboards/rank': boards('/leaderboards/rank', {}, 'account'),
    '/leaderboards/daily': [
      ...boards('/leaderboards/daily'),
      ...boards('/leaderboards/daily', { friendsOnly: true }, 'account'),
    ],
    '/leaderboards/daily/rank': boards('/leaderboards/daily/rank', {}, 'account'),
    '/leaderboards/xp/weekly': [
      { url: '/leaderboards/xp/weekly', auth: 'none' },
      { url: '/leaderboards/xp/weekly', query: { friendsOnly: true }, auth: 'account' },
    ],
    '/leaderboards/weekly-xp': [{ url: '/leaderboards/weekly-xp', auth: 'none' }],
    '/leaderboards/xp/weekly/rank': own('/leaderboards/xp/weekly/rank'),
    '/admin/result/held': [
      {
        url: '/admin/result/held',
        auth: 'moderator',
        pick: (d, a) => ofAccount((d as { results: unknown }).results, a),
      },
    ],
    '/admin/result/rates': 'the instance’s result check rates, not a user’s',
    '/quotes': [{ url: '/quotes', auth: 'moderator', pick: ofAccount }],
    // Compared as a whole file below (the second export against the first).
    '/users/export': 'compared record by record: the export of the second instance against the first',
    '/': 'the service status, not a user’s',
    '/metrics': 'the process’s metrics, not a user’s',
    '/configuration': 'the instance’s server configuration, not a user’s',
    '/configuration/schema': 'the schema of the server configuration',
    '/configuration/instance': 'the instance’s own id and signing key, not a user’s',
    '/psas': 'the instance’s announcements',
    '/quotes/isSubmissionEnabled': 'an instance setting',
    '/quotes/rating':
      'a quote’s aggregate over every user of the instance (an imported account adds its own ratings to it)',
    '/admin': 'answers whether the caller is an admin: permissions are not carried over (README "Your data")',
    '/users/chat/oauth': 'the chat platform’s sign-in link (no data)',
    '/users/discord/oauth': 'the chat platform’s sign-in link (no data)',
    '/users/verificationEmail': 'asks the identity provider to send a mail (no data)',
    '/public/speedHistogram': 'instance-wide, summed over every user on the all-time boards',
    '/public/typingStats': 'instance-wide, summed over every user',
  };
}
