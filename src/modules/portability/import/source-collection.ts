import type { ImportRecords, RecordKind } from './import-records';
import type { Mapped } from './original/mapped';

/**
 * One collection of a source, as a reader describes it to the pipeline: what its documents become (`kind`), how to map
 * one document to records of that kind (zero or more), and which of its fields carry over nowhere (counted).
 * The dump importer has one per collection of the original; an account-export reader would have one per record type.
 */
export interface SourceCollection<K extends RecordKind = RecordKind> {
  name: string;
  kind: K;
  /** Documents per batch (one transaction each). */
  batchSize: number;
  map(doc: Record<string, unknown>): Mapped<ImportRecords[K][]>;
  fieldsLeftBehind?(doc: Record<string, unknown>): string[];
}

/** Wraps a one-record mapper as a collection mapper. */
export function single<T>(map: (doc: Record<string, unknown>) => Mapped<T>) {
  return (doc: Record<string, unknown>): Mapped<T[]> => {
    const mapped = map(doc);
    return mapped.ok ? { ...mapped, value: [mapped.value] } : mapped;
  };
}
