import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
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
  const file = await open(temporary, 'wx', 0o600);
  try {
    await pipeline(source, file.createWriteStream({ autoClose: false }), { signal });
    await file.sync();
    await file.close();
    await rename(temporary, path);
  } catch (e) {
    source.destroy();
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw e;
  }
}

/** Writes an export to a stream that stays open afterwards (stdout). */
export async function writeExportTo(
  source: Readable,
  target: NodeJS.WritableStream,
  signal?: AbortSignal,
): Promise<void> {
  await pipeline(source, target, { end: false, signal });
}
