import { single, type SourceCollection } from '../source-collection';
import {
  mapAdminUid,
  mapApeKey,
  mapBlocklist,
  mapConnection,
  mapNewQuote,
  mapPsa,
  mapQuoteRating,
  mapReport,
} from './collections';
import { mapConfig, mapPreset } from './configs';
import { mapResult, RESULT_FIELDS_LEFT_BEHIND } from './results';
import { mapUser, userFieldsLeftBehind } from './users';

/**
 * The original platform's collections that carry over, in the order they are imported: users first (everything
 * else refers to them), then what refers to users, then what stands alone.
 */
export const ORIGINAL_COLLECTIONS: SourceCollection[] = [
  {
    name: 'users',
    kind: 'users',
    batchSize: 500,
    map: single(mapUser),
    fieldsLeftBehind: userFieldsLeftBehind,
  },
  { name: 'admin-uids', kind: 'permissions', batchSize: 1000, map: single(mapAdminUid) },
  {
    name: 'results',
    kind: 'results',
    batchSize: 5000,
    map: single(mapResult),
    fieldsLeftBehind: (doc) => Object.keys(doc).filter((k) => RESULT_FIELDS_LEFT_BEHIND.has(k)),
  },
  { name: 'configs', kind: 'configs', batchSize: 1000, map: single(mapConfig) },
  { name: 'presets', kind: 'presets', batchSize: 1000, map: single(mapPreset) },
  { name: 'connections', kind: 'connections', batchSize: 2000, map: single(mapConnection) },
  {
    name: 'ape-keys',
    kind: 'apeKeys',
    batchSize: 1000,
    map: single(mapApeKey),
    // Use counts are not kept here (the original never shows them either).
    fieldsLeftBehind: (doc) => (doc.useCount === undefined ? [] : ['useCount']),
  },
  { name: 'blocklist', kind: 'blocklist', batchSize: 2000, map: mapBlocklist },
  { name: 'new-quotes', kind: 'newQuotes', batchSize: 1000, map: single(mapNewQuote) },
  { name: 'quote-rating', kind: 'quoteRatings', batchSize: 2000, map: single(mapQuoteRating) },
  { name: 'reports', kind: 'reports', batchSize: 1000, map: single(mapReport) },
  { name: 'psa', kind: 'psas', batchSize: 1000, map: single(mapPsa) },
];

/** Collections of the original that are read by nothing here, and why (listed in the summary when present). */
export function ignoredCollection(name: string): string | undefined {
  if (name.startsWith('leaderboards.'))
    return 'derived: the all-time boards are rebuilt from the personal bests';
  const reasons: Record<string, string> = {
    public: 'derived: public stats are summed from the users and boards here',
    logs: 'the original’s activity log; not carried over',
    errors: 'the original’s error log; not carried over',
    configuration: 'the server configuration: set it here (PATCH /configuration or SERVER_CONFIG_FILE)',
    'system.views': 'MongoDB internals',
  };
  return reasons[name] ?? (name.startsWith('system.') ? 'MongoDB internals' : undefined);
}
