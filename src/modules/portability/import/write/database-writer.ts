import type { Clock } from '../../../../common/clock';
import type { ServerConfigurationService } from '../../../../common/server-configuration/server-configuration.service';
import type { ImportRecords, RecordKind, ResultRow, Sourced, SourceRef, UserBundle } from '../import-records';
import { type CollectionsWriterRepository, TABLES, type TableKind } from './collections-writer.repository';
import type { DerivedStateService } from './derived-state.service';
import { emptyOutcome, type BatchOutcome, type FinishReport, type ImportWriter } from './import-writer';
import { replayResults } from './result-replay';
import type { ResultsWriterRepository } from './results-writer.repository';
import { isRowError } from './rows';
import type { UsersWriterRepository } from './users-writer.repository';

function merge(into: BatchOutcome, from: BatchOutcome): BatchOutcome {
  into.imported += from.imported;
  into.skipped += from.skipped;
  into.rejected.push(...from.rejected);
  into.adjusted.push(...from.adjusted);
  return into;
}

/**
 * Writes into PostgreSQL: one transaction per batch, idempotent (see ImportWriter). With `deriveFromResults`, results
 * change their accounts as submissions do (result-replay.ts): counters, streak, XP computed here, personal bests,
 * activity, holds; without it (the original's dump, a trusted account file) those come from the source.
 */
export class DatabaseImportWriter implements ImportWriter {
  constructor(
    private readonly users: UsersWriterRepository,
    private readonly results: ResultsWriterRepository,
    private readonly collections: CollectionsWriterRepository,
    private readonly derived: DerivedStateService,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    private readonly deriveFromResults: boolean,
  ) {}

  async write<K extends RecordKind>(kind: K, batch: Sourced<ImportRecords[K]>[]): Promise<BatchOutcome> {
    try {
      return await this.writeBatch(kind, batch);
    } catch (e) {
      // One bad row (a value PostgreSQL refuses) must not sink its batch: write the batch row by row to find it.
      if (!isRowError(e)) throw e;
      if (batch.length === 1)
        return { ...emptyOutcome(), rejected: [{ source: batch[0]!.source, reason: (e as Error).message }] };
      const outcome = emptyOutcome();
      for (const item of batch) merge(outcome, await this.write(kind, [item]));
      return outcome;
    }
  }

  private writeBatch<K extends RecordKind>(
    kind: K,
    batch: Sourced<ImportRecords[K]>[],
  ): Promise<BatchOutcome> {
    if (kind === 'users') return this.writeUsers(batch as Sourced<UserBundle>[]);
    if (kind === 'results') return this.writeResults(batch as Sourced<ResultRow>[]);
    return this.writeRows(kind as TableKind, batch as Sourced<ImportRecords[TableKind]>[]);
  }

  private async writeUsers(batch: Sourced<UserBundle>[]): Promise<BatchOutcome> {
    const written = await this.users.transaction((trx) => this.users.write(batch, this.clock.now(), trx));
    return {
      imported: written.inserted.size,
      skipped: batch.length - written.inserted.size,
      rejected: [],
      adjusted: written.adjusted,
    };
  }

  private async writeResults(batch: Sourced<ResultRow>[]): Promise<BatchOutcome> {
    const rows = batch.map((b) => b.row);
    let written;
    if (this.deriveFromResults) {
      const xp = (await this.configuration.get()).users.xp;
      written = await this.results.writeDeriving(rows, (fresh, stored) =>
        replayResults(fresh, stored.accounts, stored, xp),
      );
    } else written = await this.results.write(rows);
    const byId = new Map(batch.map((b) => [b.row.id, b.source]));
    const rejected = written.missingUser.map((id) => ({
      source: byId.get(id) as SourceRef,
      reason: 'its user is not here (not in the dump, or refused)',
    }));
    return {
      imported: written.inserted,
      skipped: batch.length - written.inserted - rejected.length,
      rejected,
      adjusted: [],
    };
  }

  private async writeRows(
    kind: TableKind,
    batch: Sourced<ImportRecords[TableKind]>[],
  ): Promise<BatchOutcome> {
    const spec = TABLES[kind];
    return this.collections.transaction(async (trx) => {
      const uids = batch.flatMap((b) =>
        spec.users.map((c) => String((b.row as unknown as Record<string, unknown>)[c])),
      );
      const present = await this.collections.existingUsers(uids, trx);
      const field = (item: (typeof batch)[number], column: string) =>
        String((item.row as unknown as Record<string, unknown>)[column]);
      const about = spec.about;
      const owned =
        about === undefined
          ? new Set<string>()
          : await this.collections.owned(
              spec,
              batch.map((b) => ({ row: field(b, about.column), uid: field(b, spec.users[0]!) })),
              trx,
            );
      const outcome = emptyOutcome();
      const writable: typeof batch = [];
      for (const item of batch) {
        const missing = spec.users.map((c) => field(item, c)).filter((uid) => !present.has(uid));
        if (missing.length > 0)
          outcome.rejected.push({ source: item.source, reason: `user ${missing.join(' and ')} is not here` });
        else if (
          about !== undefined &&
          !owned.has(`${field(item, about.column)}\u0000${field(item, spec.users[0]!)}`)
        )
          outcome.rejected.push({
            source: item.source,
            reason: `${about.column} ${field(item, about.column)} is not a ${about.table} row of this user here`,
          });
        else writable.push(item);
      }
      const inserted = await this.collections.insert(
        kind,
        writable.map((b) => b.row),
        trx,
      );
      outcome.imported = inserted.length;
      outcome.skipped = writable.length - inserted.length;
      return outcome;
    });
  }

  finish(): Promise<FinishReport> {
    this.results.release();
    return this.derived.rebuild();
  }

  async close(): Promise<void> {
    this.results.release();
  }
}
