import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { EJSON } from 'bson';
import type { Adjustment, SourceRef } from './import-records';

/** Where refused documents and the changed or left-out parts of imported ones are reported. */
export interface RejectsSink {
  rejected(source: SourceRef, reason: string, document: Record<string, unknown> | undefined): Promise<void>;
  adjusted(source: SourceRef, adjustment: Adjustment): Promise<void>;
  close(): Promise<void>;
  /** Lines written so far. */
  readonly count: number;
}

/** Extended JSON (relaxed) keeps ObjectIds, dates and 64-bit numbers recognisable in the rejects file. */
function ejson(value: unknown): unknown {
  return value === undefined ? undefined : EJSON.serialize({ v: value }, { relaxed: true }).v;
}

/**
 * `--rejects FILE`: NDJSON, one line per refused document `{ collection, _id, reason, document }` and one per change
 * to an imported document `{ collection, _id, path, action, reason, value }`. Writes wait for the file (backpressure).
 */
export class RejectsFile implements RejectsSink {
  private readonly stream: WriteStream;
  count = 0;

  constructor(path: string) {
    this.stream = createWriteStream(path, { flags: 'w' });
    this.stream.on('error', () => undefined);
  }

  static async open(path: string): Promise<RejectsFile> {
    const file = new RejectsFile(path);
    await Promise.race([
      once(file.stream, 'open'),
      once(file.stream, 'error').then(([e]) => Promise.reject(e as Error)),
    ]);
    return file;
  }

  private async line(value: object): Promise<void> {
    this.count++;
    if (!this.stream.write(`${JSON.stringify(value)}\n`)) await once(this.stream, 'drain');
  }

  rejected(source: SourceRef, reason: string, document: Record<string, unknown> | undefined): Promise<void> {
    return this.line({ collection: source.collection, _id: source.id, reason, document: ejson(document) });
  }

  adjusted(source: SourceRef, adjustment: Adjustment): Promise<void> {
    return this.line({
      collection: source.collection,
      _id: source.id,
      path: adjustment.path,
      action: adjustment.action,
      reason: adjustment.reason,
      value: ejson(adjustment.value),
    });
  }

  async close(): Promise<void> {
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

/** Without `--rejects`: counted only (the summary says how many, and that `--rejects FILE` lists them). */
export class CountingRejects implements RejectsSink {
  count = 0;

  rejected(): Promise<void> {
    this.count++;
    return Promise.resolve();
  }

  adjusted(): Promise<void> {
    this.count++;
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
