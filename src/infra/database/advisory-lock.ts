import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from './database';

const LOCK_RETRY_MS = 25;

/** A stable signed 64-bit key for a lock name, as PostgreSQL advisory locks take bigint keys. */
export function advisoryLockKey(name: string): bigint {
  return createHash('sha256').update(name).digest().readBigInt64BE(0);
}

/**
 * Runs `fn` only if this process wins the session-level advisory lock `name`; with N replicas exactly one runs a job
 * per period. Returns `{ ran: false }` without waiting when another holder has it, or, with `waitMs`, when it is still
 * held after that long (retrying every LOCK_RETRY_MS: a wait that cannot hang on a lock never released). The lock
 * lives on one pooled connection for the duration and is released even when `fn` throws.
 */
export async function withAdvisoryLock<T>(
  db: Database,
  name: string,
  fn: () => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<{ ran: true; value: T } | { ran: false }> {
  const key = advisoryLockKey(name).toString();
  const deadline = Date.now() + (options.waitMs ?? 0);
  return db.connection().execute(async (conn) => {
    for (;;) {
      const { rows } = await sql<{
        locked: boolean;
      }>`SELECT pg_try_advisory_lock(${key}::bigint) AS locked`.execute(conn);
      if (rows[0]?.locked) break;
      if (Date.now() >= deadline) return { ran: false } as const;
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
    try {
      return { ran: true, value: await fn() } as const;
    } finally {
      await sql`SELECT pg_advisory_unlock(${key}::bigint)`.execute(conn);
    }
  });
}
