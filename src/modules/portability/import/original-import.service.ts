import { Injectable } from '@nestjs/common';
import { runImport, type CollectionInput, type ImportSummary, type ProgressSink } from './import-pipeline';
import { ignoredCollection, ORIGINAL_COLLECTIONS } from './original/original-collections';
import { listDumpFiles, openDumpFile, type DumpFile } from './readers/dump-directory';
import type { RejectsSink } from './rejects-file';
import { ImportWriters } from './write/import-writers';

export class DumpPlanError extends Error {}

/** What a dump directory holds: the collections to import (in import order), and the files nothing reads. */
export interface DumpPlan {
  inputs: CollectionInput[];
  /** One line per file that is not imported, with why. */
  ignored: string[];
}

/**
 * Plans the import of a dump directory before anything connects: every file is either imported (a collection of the
 * original that carries over), or listed as ignored with the reason. No collection to import, or one collection in
 * two formats, is a usage error.
 */
export async function planDump(dir: string): Promise<DumpPlan> {
  let files: DumpFile[];
  try {
    files = await listDumpFiles(dir);
  } catch (e) {
    throw new DumpPlanError(`cannot read the dump directory ${dir}: ${(e as Error).message}`);
  }
  const byCollection = new Map<string, DumpFile>();
  for (const file of files) {
    const other = byCollection.get(file.collection);
    if (other)
      throw new DumpPlanError(
        `${file.collection} is there twice (${other.path} and ${file.path}): keep one of them`,
      );
    byCollection.set(file.collection, file);
  }
  const inputs: CollectionInput[] = [];
  for (const collection of ORIGINAL_COLLECTIONS) {
    const file = byCollection.get(collection.name);
    if (!file) continue;
    byCollection.delete(collection.name);
    inputs.push({ collection, bytes: file.bytes, open: () => openDumpFile(file) });
  }
  const ignored = [...byCollection.values()].map(
    (f) =>
      `ignored ${f.path}: ${ignoredCollection(f.collection) ?? 'not a collection of the original that carries over'}`,
  );
  if (inputs.length === 0)
    throw new DumpPlanError(
      `no collection to import in ${dir}: expected mongodump's <collection>.bson or .bson.gz, or mongoexport's ` +
        `<collection>.json, for ${ORIGINAL_COLLECTIONS.map((c) => c.name).join(', ')}`,
    );
  return { inputs, ignored };
}

/** Imports a planned dump with the database writer, or reads it through with the dry-run writer. */
@Injectable()
export class OriginalImportService {
  constructor(private readonly writers: ImportWriters) {}

  async run(
    plan: DumpPlan,
    options: { dryRun: boolean; progress: ProgressSink; rejects: RejectsSink },
  ): Promise<ImportSummary> {
    const writer = this.writers.open({ dryRun: options.dryRun });
    try {
      return await runImport(plan.inputs, writer, options.progress, options.rejects);
    } finally {
      await writer.close();
    }
  }
}
