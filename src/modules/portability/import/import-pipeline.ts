import { performance } from 'node:perf_hooks';
import type { ImportRecords, RecordKind, SourceRef, Sourced } from './import-records';
import type { DocumentStream } from './readers/document-stream';
import type { RejectsSink } from './rejects-file';
import type { SourceCollection } from './source-collection';
import type { BatchOutcome, FinishReport, ImportWriter } from './write/import-writer';

/** One collection to import: how its documents map, and its file. */
export interface CollectionInput {
  collection: SourceCollection;
  bytes: number;
  open(): DocumentStream;
}

export interface CollectionSummary {
  name: string;
  read: number;
  imported: number;
  skipped: number;
  rejected: number;
  /** Parts of imported documents changed or left out (each in the rejects file). */
  adjusted: number;
  /** Fields that carry over nowhere, by name, with how many documents had them. */
  fieldsLeftBehind: Record<string, number>;
  ms: number;
}

export interface ImportSummary {
  collections: CollectionSummary[];
  finish: FinishReport;
  ms: number;
}

/** Where the pipeline reports how far it is (a terminal's bars, plain lines, or nothing). */
export interface ProgressSink {
  start(name: string, totalBytes: number): void;
  update(name: string, documents: number, bytesRead: number): void;
  done(summary: CollectionSummary): void;
  stop(): void;
}

interface Pending<K extends RecordKind> {
  items: Sourced<ImportRecords[K]>[];
  documents: Map<SourceRef, Record<string, unknown>>;
}

/**
 * Reads each collection as a stream, maps and validates every document, and hands batches to the writer: users
 * first, then the rest in the order given. One batch is written while the next is read (two in memory at most), and
 * reading waits for the writer, so memory stays flat whatever the dump's size. Rejected documents and adjusted parts
 * go to the rejects sink with their reason; nothing is dropped silently.
 */
export async function runImport(
  inputs: CollectionInput[],
  writer: ImportWriter,
  progress: ProgressSink,
  rejects: RejectsSink,
): Promise<ImportSummary> {
  const started = performance.now();
  const collections: CollectionSummary[] = [];
  try {
    for (const input of inputs) collections.push(await importCollection(input, writer, progress, rejects));
  } finally {
    progress.stop();
  }
  const finish = await writer.finish();
  return { collections, finish, ms: Math.round(performance.now() - started) };
}

async function importCollection(
  input: CollectionInput,
  writer: ImportWriter,
  progress: ProgressSink,
  rejects: RejectsSink,
): Promise<CollectionSummary> {
  const { collection } = input;
  const started = performance.now();
  const summary: CollectionSummary = {
    name: collection.name,
    read: 0,
    imported: 0,
    skipped: 0,
    rejected: 0,
    adjusted: 0,
    fieldsLeftBehind: {},
    ms: 0,
  };
  progress.start(collection.name, input.bytes);
  const stream = input.open();
  let pending: Pending<RecordKind> = { items: [], documents: new Map() };
  let writing: Promise<void> | null = null;

  const account = async (batch: Pending<RecordKind>, outcome: BatchOutcome) => {
    summary.imported += outcome.imported;
    summary.skipped += outcome.skipped;
    summary.rejected += outcome.rejected.length;
    summary.adjusted += outcome.adjusted.length;
    for (const r of outcome.rejected)
      await rejects.rejected(r.source, r.reason, batch.documents.get(r.source));
    for (const a of outcome.adjusted) await rejects.adjusted(a.source, a.adjustment);
  };
  const flush = async () => {
    const batch = pending;
    pending = { items: [], documents: new Map() };
    if (writing) await writing;
    // A collection of kind `none` maps to no records: nothing of it is ever written.
    if (batch.items.length === 0 || collection.kind === 'none') return void (writing = null);
    const write = writer.write(collection.kind, batch.items).then((o) => account(batch, o));
    // Handled when awaited (next flush or the end); marked handled now, so a failure while reading is not "unhandled".
    write.catch(() => undefined);
    writing = write;
  };

  let lastReport = 0;
  for await (const entry of stream.documents) {
    summary.read++;
    if ('error' in entry) {
      summary.rejected++;
      await rejects.rejected({ collection: collection.name, id: '?' }, entry.error, undefined);
      continue;
    }
    const { doc } = entry;
    const source: SourceRef = { collection: collection.name, id: docId(doc) };
    for (const field of collection.fieldsLeftBehind?.(doc) ?? [])
      summary.fieldsLeftBehind[field] = (summary.fieldsLeftBehind[field] ?? 0) + 1;
    const mapped = collection.map(doc);
    if (!mapped.ok) {
      summary.rejected++;
      await rejects.rejected(source, mapped.reason, doc);
    } else {
      for (const adjustment of mapped.adjustments) await rejects.adjusted(source, adjustment);
      summary.adjusted += mapped.adjustments.length;
      if (mapped.value.length === 0) summary.skipped++;
      for (const row of mapped.value) pending.items.push({ source, row });
      pending.documents.set(source, doc);
    }
    if (pending.items.length >= collection.batchSize) await flush();
    const now = performance.now();
    if (now - lastReport > 100) {
      lastReport = now;
      progress.update(collection.name, summary.read, stream.bytesRead());
    }
  }
  await flush();
  if (writing) await writing;
  summary.ms = Math.round(performance.now() - started);
  progress.update(collection.name, summary.read, input.bytes);
  progress.done(summary);
  return summary;
}

function docId(doc: Record<string, unknown>): string {
  const id = doc._id as { toHexString?: () => string } | string | number | undefined;
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  return id?.toHexString?.() ?? (id === undefined ? '?' : String(id));
}
