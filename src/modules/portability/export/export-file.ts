import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Writes an export to `path` atomically: into a hidden temporary file beside it, flushed to disk, then renamed over
 * `path`. A failure or an interruption (`signal`) removes the temporary file, so `path` is either the complete
 * export or what it was before.
 */
export async function writeExportFile(source: Readable, path: string, signal?: AbortSignal): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.partial`);
  try {
    // `flush`: the data is on disk before the rename makes it the file (a crash leaves the old file or the new one).
    await pipeline(source, createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true }), {
      signal,
    });
    await rename(temporary, path);
  } catch (e) {
    source.destroy();
    await rm(temporary, { force: true });
    throw signal?.aborted ? (signal.reason as Error) : e;
  }
}

/** Writes an export to a stream that stays open afterwards (stdout). */
export async function writeExportTo(
  source: Readable,
  target: NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await pipeline(source, target, { end: false, signal });
  } catch (e) {
    throw signal?.aborted ? (signal.reason as Error) : e;
  }
}
