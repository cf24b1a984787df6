import { sql } from 'kysely';
import type { Executor } from '../../../../infra/database/transaction';

/**
 * Many rows in one statement: the rows go as one JSON parameter and `json_populate_recordset` types them by the
 * table's own row type, so a batch of thousands is one round trip with no parameter limit. Columns are listed, so a
 * column added later keeps its default. `ON CONFLICT DO NOTHING` makes every insert idempotent on the table's keys.
 * Returns the `returning` column of the rows actually inserted.
 */
export async function insertRows(
  executor: Executor,
  table: string,
  columns: readonly string[],
  rows: readonly object[],
  returning: string,
  where?: ReturnType<typeof sql>,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  const picked = sql.join(columns.map((c) => sql.ref(`i.${c}`)));
  const result = await sql<{ key: string }>`
    INSERT INTO ${sql.table(table)} (${cols})
    SELECT ${picked} FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(rows)}::json) i
    ${where ? sql`WHERE ${where}` : sql``}
    ON CONFLICT DO NOTHING
    RETURNING ${sql.ref(returning)}::text AS key`.execute(executor);
  return result.rows.map((r) => r.key);
}

/** Which of `keys` exist in `table.column`. */
export async function existingKeys(
  executor: Executor,
  table: string,
  column: string,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const result = await sql<{ key: string }>`
    SELECT ${sql.ref(column)}::text AS key FROM ${sql.table(table)}
    WHERE ${sql.ref(column)}::text = ANY(${[...keys]}::text[])`.execute(executor);
  return new Set(result.rows.map((r) => r.key));
}

/** PostgreSQL errors a single bad row causes (data exceptions, integrity violations): worth retrying row by row. */
export function isRowError(e: unknown): boolean {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}
