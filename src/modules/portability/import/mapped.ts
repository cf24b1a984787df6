import type { Adjustment } from './import-records';

/**
 * What mapping one source document gives, for every reader (the original's dump, our account export): its records
 * (with what was changed or left out), or why it cannot be.
 */
export type Mapped<T> = { ok: true; value: T; adjustments: Adjustment[] } | { ok: false; reason: string };

export const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

export const accept = <T>(value: T, adjustments: Adjustment[] = []): Mapped<T> => ({
  ok: true,
  value,
  adjustments,
});

/** Collects adjustments under a path prefix. */
export class Notes {
  readonly list: Adjustment[] = [];

  leftOut(path: string, reason: string, value?: unknown): void {
    this.list.push({ path, action: 'left out', reason, ...(value === undefined ? {} : { value }) });
  }

  changed(path: string, reason: string, value?: unknown): void {
    this.list.push({ path, action: 'changed', reason, ...(value === undefined ? {} : { value }) });
  }
}
