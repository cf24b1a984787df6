import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { EJSON } from 'bson';
import type { DocumentStream } from './document-stream';

/**
 * A mongoexport collection file: one Extended JSON document per line, relaxed (`{"n": 5}`) or canonical
 * (`{"n": {"$numberInt": "5"}}`); `EJSON.parse` turns both into the values BSON gives. A line that does not parse is
 * reported as a reject (with its line number), not fatal.
 */
export function readMongoexport(path: string): DocumentStream {
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  return { documents: documents(file), bytesRead: () => file.bytesRead };
}

async function* documents(file: NodeJS.ReadableStream): DocumentStream['documents'] {
  let line = 0;
  for await (const text of createInterface({ input: file, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let doc: unknown;
    try {
      doc = EJSON.parse(text, { relaxed: true });
    } catch (e) {
      yield { error: `line ${line}: not Extended JSON: ${(e as Error).message}` };
      continue;
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      yield { error: `line ${line}: not a document` };
    else yield { doc: doc as Record<string, unknown> };
  }
}
