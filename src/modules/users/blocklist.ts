import { createHash } from 'node:crypto';

export type BlocklistKind = 'name' | 'email' | 'chatId';

/** What identifies a person who was banned: any of these found on the blocklist refuses the action. */
export type BlocklistSubject = Partial<Record<BlocklistKind, string | null>>;

export interface BlocklistEntry {
  kind: BlocklistKind;
  hash: string;
}

/** The original platform's hash: SHA-256 hex of the lower-cased value (domain facts §5.10), so its entries carry over. */
export function blocklistHash(value: string): string {
  return createHash('sha256').update(value.toLowerCase()).digest('hex');
}

/** The entries a subject's non-empty values hash to (a deleted banned account's, or the ones an action checks). */
export function blocklistEntries(subject: BlocklistSubject): BlocklistEntry[] {
  const entries: BlocklistEntry[] = [];
  for (const kind of ['name', 'email', 'chatId'] as const) {
    const value = subject[kind];
    if (typeof value === 'string' && value !== '') entries.push({ kind, hash: blocklistHash(value) });
  }
  return entries;
}
