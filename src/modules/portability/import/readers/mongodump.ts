import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { bsonDocumentBuffers, deserialize } from './bson-documents';
import type { DocumentStream } from './document-stream';

/**
 * A mongodump collection file: `<collection>.bson`, or `<collection>.bson.gz` (`mongodump --gzip`, read through a
 * gunzip stream). Documents are cut on their length prefix and parsed one at a time with the `bson` package; the
 * ETA follows the bytes read from the file (compressed bytes for `.gz`).
 */
export function readMongodump(path: string, gzip: boolean): DocumentStream {
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  const source = gzip ? file.pipe(createGunzip()) : file;
  if (gzip) file.on('error', (e) => source.destroy(e));
  return { documents: documents(source as AsyncIterable<Buffer>), bytesRead: () => file.bytesRead };
}

async function* documents(chunks: AsyncIterable<Buffer>): DocumentStream['documents'] {
  for await (const buffer of bsonDocumentBuffers(chunks)) {
    let doc: Record<string, unknown>;
    try {
      doc = deserialize(buffer);
    } catch (e) {
      yield { error: `not a BSON document: ${(e as Error).message}` };
      continue;
    }
    yield { doc };
  }
}
