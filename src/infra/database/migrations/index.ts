import type { Migration } from 'kysely';
import * as foundation from './20261121000000_foundation';
import * as userCollections from './20261121000100_user_collections';
import * as results from './20261122020000_results';

/**
 * Every migration, by name. Names start with a UTC timestamp so they sort in the order they must run; a feature adds
 * its file here. A static list (not a directory scan) works the same under tsc, jest and the bundled CLI.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '20261121000000_foundation': foundation,
  '20261121000100_user_collections': userCollections,
  '20261122020000_results': results,
};
