import type { Migration } from 'kysely';
import * as foundation from './20261121000000_foundation';
import * as userCollections from './20261121000100_user_collections';
import * as configsPresets from './20261122040000_configs_presets';
import * as quotes from './20261122040100_quotes';
import * as releaseJobs from './20261122040200_release_jobs';
import * as connections from './20261122030000_connections';
import * as apeKeys from './20261122030100_ape_keys';
import * as customThemes from './20261122010000_custom_themes';
import * as results from './20261122020000_results';
import * as leaderboards from './20261122050000_leaderboards';
import * as leaderboardShards from './20261122060000_leaderboard_shards';
import * as leaderboardBests from './20261122070000_leaderboard_bests';
import * as psasQuoteRatings from './20261124100000_psas_quote_ratings';
import * as resultBoardFacts from './20261124110000_result_board_facts';
import * as usersCompat from './20261124130000_users_compat';
import * as apeKeyAccess from './20261124140000_ape_key_access';
import * as liveRanks from './20261124160000_live_ranks';
import * as testActivityCoveringKey from './20261124170000_test_activity_covering_key';
import * as resultReviews from './20261126100000_result_reviews';
import * as blocklist from './20261126200000_blocklist';
import * as apeKeyHashScheme from './20261126200100_ape_key_hash_scheme';
import * as usersEmailLookup from './20261126400000_users_email_lookup';
import * as boardRemovals from './20261126400100_board_removals';
import * as refusedResults from './20261127100000_refused_results';
import * as accountFileKeys from './20261201100000_account_file_keys';

/**
 * Every migration, by name. Names start with a UTC timestamp so they sort in the order they must run; a feature adds
 * its file here. A static list (not a directory scan) works the same under tsc, jest and the bundled CLI.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '20261121000000_foundation': foundation,
  '20261121000100_user_collections': userCollections,
  '20261122040000_configs_presets': configsPresets,
  '20261122040100_quotes': quotes,
  '20261122040200_release_jobs': releaseJobs,
  '20261122030000_connections': connections,
  '20261122030100_ape_keys': apeKeys,
  '20261122010000_custom_themes': customThemes,
  '20261122020000_results': results,
  '20261122050000_leaderboards': leaderboards,
  '20261122060000_leaderboard_shards': leaderboardShards,
  '20261122070000_leaderboard_bests': leaderboardBests,
  '20261124100000_psas_quote_ratings': psasQuoteRatings,
  '20261124110000_result_board_facts': resultBoardFacts,
  '20261124130000_users_compat': usersCompat,
  '20261124140000_ape_key_access': apeKeyAccess,
  '20261124160000_live_ranks': liveRanks,
  '20261124170000_test_activity_covering_key': testActivityCoveringKey,
  '20261126100000_result_reviews': resultReviews,
  '20261126200000_blocklist': blocklist,
  '20261126200100_ape_key_hash_scheme': apeKeyHashScheme,
  '20261126400000_users_email_lookup': usersEmailLookup,
  '20261126400100_board_removals': boardRemovals,
  '20261127100000_refused_results': refusedResults,
  '20261201100000_account_file_keys': accountFileKeys,
};
