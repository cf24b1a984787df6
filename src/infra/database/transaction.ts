import type { Kysely, Transaction } from 'kysely';
import type { DB } from './database.types';

/**
 * What repository methods accept as their query runner: the pool, or a transaction a service opened. Methods that
 * may run inside another feature's transaction take it as their last, optional parameter.
 */
export type Executor = Kysely<DB> | Transaction<DB>;
