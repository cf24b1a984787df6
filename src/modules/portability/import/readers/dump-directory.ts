import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentStream } from './document-stream';
import { readMongodump } from './mongodump';
import { readMongoexport } from './mongoexport';

/** One collection's file in a dump directory. */
export interface DumpFile {
  collection: string;
  path: string;
  format: 'bson' | 'bson.gz' | 'json';
  bytes: number;
}

const PATTERNS: [RegExp, DumpFile['format']][] = [
  [/^(.+)\.bson\.gz$/, 'bson.gz'],
  [/^(.+)\.bson$/, 'bson'],
  [/^(.+)\.json$/, 'json'],
];

/**
 * The collection files of a directory as the MongoDB tools write them: mongodump's `<collection>.bson` (or
 * `.bson.gz` with `--gzip`), mongoexport's `<collection>.json`. `*.metadata.json` (indexes, options) is not data.
 */
export async function listDumpFiles(dir: string): Promise<DumpFile[]> {
  const files: DumpFile[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (/\.metadata\.json(\.gz)?$/.test(name)) continue;
    for (const [pattern, format] of PATTERNS) {
      const match = pattern.exec(name);
      if (!match) continue;
      const path = join(dir, name);
      const info = await stat(path);
      if (info.isFile()) files.push({ collection: match[1] as string, path, format, bytes: info.size });
      break;
    }
  }
  return files;
}

/** The reader for the file's format. */
export function openDumpFile(file: DumpFile): DocumentStream {
  return file.format === 'json'
    ? readMongoexport(file.path)
    : readMongodump(file.path, file.format === 'bson.gz');
}
