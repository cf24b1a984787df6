import type { ImportRecords, RecordKind, ResultRow, Sourced, UserBundle } from '../import-records';
import { type CollectionsWriterRepository, TABLES, type TableKind } from './collections-writer.repository';
import { emptyOutcome, type BatchOutcome, type FinishReport, type ImportWriter } from './import-writer';
import type { ResultsWriterRepository } from './results-writer.repository';

/**
 * `--dry-run`: answers what the database writer would, from reads only. A record is "imported" when its key is not
 * stored and the users it needs are stored or would be imported by this run (their uids are remembered); nothing is
 * written and nothing is rebuilt.
 */
export class DryRunWriter implements ImportWriter {
  private readonly pendingUsers = new Set<string>();
  /** Lower-cased names and chat ids the accounts of this run would take. */
  private readonly pendingNames = new Set<string>();
  private readonly pendingChatIds = new Set<string>();

  constructor(
    private readonly results: ResultsWriterRepository,
    private readonly collections: CollectionsWriterRepository,
  ) {}

  private async usersPresent(uids: string[]): Promise<Set<string>> {
    const unknown = uids.filter((u) => !this.pendingUsers.has(u));
    const stored = await this.collections.existingUsers(unknown);
    return new Set([...uids.filter((u) => this.pendingUsers.has(u)), ...stored]);
  }

  async write<K extends RecordKind>(kind: K, batch: Sourced<ImportRecords[K]>[]): Promise<BatchOutcome> {
    const outcome = emptyOutcome();
    if (kind === 'users') {
      const bundles = batch as Sourced<UserBundle>[];
      const stored = await this.collections.existingUsers(bundles.map((b) => b.row.user.uid));
      const holders = await this.collections.holders(
        bundles.map((b) => b.row.user.name.toLowerCase()),
        bundles.flatMap((b) => (b.row.user.chat_id === null ? [] : [b.row.user.chat_id])),
      );
      for (const { row, source } of bundles) {
        const { uid, name, chat_id: chatId } = row.user;
        if (stored.has(uid) || this.pendingUsers.has(uid)) {
          outcome.skipped++;
          continue;
        }
        this.pendingUsers.add(uid);
        outcome.imported++;
        const nameHolder = holders.names.get(name.toLowerCase());
        if (this.pendingNames.has(name.toLowerCase()) || (nameHolder !== undefined && nameHolder !== uid))
          outcome.adjusted.push({
            source,
            adjustment: {
              path: 'name',
              action: 'changed',
              reason: 'taken here: would be renamed',
              value: name,
            },
          });
        else this.pendingNames.add(name.toLowerCase());
        if (chatId === null) continue;
        const chatHolder = holders.chatIds.get(chatId);
        if (this.pendingChatIds.has(chatId) || (chatHolder !== undefined && chatHolder !== uid))
          outcome.adjusted.push({
            source,
            adjustment: {
              path: 'discordId',
              action: 'left out',
              reason: 'this chat account is linked to another account here',
              value: chatId,
            },
          });
        else this.pendingChatIds.add(chatId);
      }
      return outcome;
    }
    if (kind === 'results') {
      const rows = batch as Sourced<ResultRow>[];
      const stored = await this.results.existing(rows.map((r) => r.row.id));
      const present = await this.usersPresent(rows.map((r) => r.row.uid));
      for (const { row, source } of rows) {
        if (!present.has(row.uid))
          outcome.rejected.push({ source, reason: 'its user is not here (not in the dump, or refused)' });
        else if (stored.has(row.id)) outcome.skipped++;
        else outcome.imported++;
      }
      return outcome;
    }
    const spec = TABLES[kind as TableKind];
    const rows = batch as unknown as Sourced<Record<string, unknown>>[];
    const present = await this.usersPresent(rows.flatMap((r) => spec.users.map((c) => String(r.row[c]))));
    const stored = await this.collections.existing(
      spec,
      rows.map((r) => String(r.row[spec.key])),
    );
    for (const { row, source } of rows) {
      const missing = spec.users.map((c) => String(row[c])).filter((uid) => !present.has(uid));
      if (missing.length > 0)
        outcome.rejected.push({ source, reason: `user ${missing.join(' and ')} is not here` });
      else if (stored.has(String(row[spec.key]))) outcome.skipped++;
      else outcome.imported++;
    }
    return outcome;
  }

  finish(): Promise<FinishReport> {
    this.results.release();
    return Promise.resolve({ steps: ['dry run: nothing written, nothing rebuilt'] });
  }

  async close(): Promise<void> {
    this.results.release();
  }
}
