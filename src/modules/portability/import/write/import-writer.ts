import type { Adjustment, ImportRecords, RecordKind, SourceRef, Sourced } from '../import-records';

export interface RejectedRecord {
  source: SourceRef;
  reason: string;
}

export interface AdjustedRecord {
  source: SourceRef;
  adjustment: Adjustment;
}

/** What writing one batch did: records new here, records already here (a rerun), and records refused. */
export interface BatchOutcome {
  imported: number;
  skipped: number;
  rejected: RejectedRecord[];
  /** Changes the writer had to make (a name taken here, a chat account linked to someone else here). */
  adjusted: AdjustedRecord[];
}

/**
 * The write path every reader shares (the original's dump, our account export): batches of mapped, validated
 * records in, idempotent upserts out. A record whose key exists is skipped, so a rerun imports nothing new and a run
 * killed half-way finishes on the next. Each batch is one transaction; a user lands with everything nested in it.
 * Order matters: users before what references them (a record whose user is missing is refused, never an orphan).
 */
export interface ImportWriter {
  write<K extends RecordKind>(kind: K, batch: Sourced<ImportRecords[K]>[]): Promise<BatchOutcome>;
  /** After every batch: the derived state (boards, activity, last-result times), unless a dry run. */
  finish(): Promise<FinishReport>;
  close(): Promise<void>;
}

export interface FinishReport {
  /** What was rebuilt, one line each (for the summary). */
  steps: string[];
}

export const emptyOutcome = (): BatchOutcome => ({ imported: 0, skipped: 0, rejected: [], adjusted: [] });
