import { BSON } from 'bson';

/** MongoDB's limit on a document (16 MiB), with room for what mongodump writes around it. */
const MAX_DOCUMENT_BYTES = 48 * 1024 * 1024;

/** A dump file the reader cannot go on with (a corrupt length prefix, a cut-off last document): fatal. */
class DumpFormatError extends Error {}

/**
 * Splits a stream of concatenated BSON documents (a mongodump `.bson` file) on each document's int32 length prefix.
 * Only the unfinished tail of a chunk is carried over, so memory stays at about one chunk plus one document.
 */
export async function* bsonDocumentBuffers(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    let buffer = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (buffer.length - offset >= 4) {
      const size = buffer.readInt32LE(offset);
      if (size < 5 || size > MAX_DOCUMENT_BYTES)
        throw new DumpFormatError(`corrupt BSON: a document claims ${size} bytes`);
      if (buffer.length - offset < size) break;
      yield buffer.subarray(offset, offset + size);
      offset += size;
    }
    buffer = buffer.subarray(offset);
    // A copy, so the tail does not pin the whole chunk it was cut from.
    pending = buffer.length > 0 ? Buffer.from(buffer) : Buffer.alloc(0);
  }
  if (pending.length > 0)
    throw new DumpFormatError(`truncated BSON: ${pending.length} bytes after the last document`);
}

/** Documents as the `bson` package reads them: Int32 and Double as numbers, Int64 as numbers when exact. */
export function deserialize(buffer: Buffer): Record<string, unknown> {
  return BSON.deserialize(buffer, { promoteLongs: true, promoteValues: true }) as Record<string, unknown>;
}
