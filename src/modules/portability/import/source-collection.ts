import type { ImportRecords, RecordKind } from './import-records';
import type { Mapped } from './mapped';

/**
 * What a collection's documents become: one kind of record of the write path, or `none` (read and counted, never
 * written: every document is left out on purpose or refused, each with its reason).
 */
export type CollectionKind = RecordKind | 'none';

type RecordOf<K extends CollectionKind> = K extends RecordKind ? ImportRecords[K] : never;

/**
 * One collection of a source, as a reader describes it to the pipeline: what its documents become (`kind`), how to map
 * one document to records of that kind (zero or more), and which of its fields carry over nowhere (counted).
 * The dump importer has one per collection of the original; the account importer one per record type.
 */
export interface SourceCollection<K extends CollectionKind = CollectionKind> {
  name: string;
  kind: K;
  /** Documents per batch (one transaction each). */
  batchSize: number;
  map(doc: Record<string, unknown>): Mapped<RecordOf<K>[]>;
  fieldsLeftBehind?(doc: Record<string, unknown>): string[];
}

/** Wraps a one-record mapper as a collection mapper. */
export function single<T>(map: (doc: Record<string, unknown>) => Mapped<T>) {
  return (doc: Record<string, unknown>): Mapped<T[]> => {
    const mapped = map(doc);
    return mapped.ok ? { ...mapped, value: [mapped.value] } : mapped;
  };
}
