import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { AppError } from '../../common/app-error';
import { ImportModule } from '../../modules/portability/import/import.module';
import {
  DumpPlanError,
  OriginalImportService,
  planDump,
} from '../../modules/portability/import/original-import.service';
import { PlainProgress, summaryLines, TerminalProgress } from '../../modules/portability/import/progress';
import {
  CountingRejects,
  RejectsFile,
  type RejectsSink,
} from '../../modules/portability/import/rejects-file';
import { UsageError, type CommandGroup } from '../cli-context';

function directory(value: string): string {
  const path = resolve(value);
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    throw new InvalidArgumentError(`${value} does not exist`);
  }
  if (!isDirectory) throw new InvalidArgumentError(`${value} is not a directory`);
  return path;
}

/** A file to (over)write, in a directory that exists. */
function outputFile(value: string): string {
  const path = resolve(value);
  try {
    if (!statSync(dirname(path)).isDirectory()) throw new Error();
  } catch {
    throw new InvalidArgumentError(`the directory of ${value} does not exist`);
  }
  try {
    if (statSync(path).isDirectory()) throw new InvalidArgumentError(`${value} is a directory`);
  } catch (e) {
    if (e instanceof InvalidArgumentError) throw e;
  }
  return path;
}

export const importCommands: CommandGroup = (program, cli) => {
  const group = program.command('import').description('bring data over from another instance');
  group
    .command('original')
    .description(
      "import the original platform's MongoDB dump (mongodump .bson/.bson.gz or mongoexport .json); safe to rerun",
    )
    .argument('<dir>', 'the dump directory of the database (e.g. dump/monkeytype)', directory)
    .option('--dry-run', 'read, map and validate everything, write nothing, print the same summary')
    .option(
      '--rejects <file>',
      'write refused documents and changed parts as NDJSON to this file',
      outputFile,
    )
    .action(async (dir: string, options: { dryRun?: boolean; rejects?: string }) => {
      let plan;
      try {
        plan = await planDump(dir);
      } catch (e) {
        if (e instanceof DumpPlanError) throw new UsageError(e.message);
        throw e;
      }
      await cli.run([ImportModule], async (app) => {
        const rejects: RejectsSink = options.rejects
          ? await RejectsFile.open(options.rejects)
          : new CountingRejects();
        const stream = cli.io.progress ?? process.stderr;
        const progress =
          (stream as NodeJS.WriteStream).isTTY === true
            ? new TerminalProgress(stream)
            : new PlainProgress((line) => cli.io.err(line));
        cli.io.err(`${options.dryRun ? 'dry run of the import' : 'importing'} from ${dir}`);
        let summary;
        try {
          summary = await app
            .get(OriginalImportService)
            .run(plan, { dryRun: options.dryRun === true, progress, rejects });
        } catch (e) {
          throw new AppError(
            500,
            `import stopped: ${(e as Error).message}. What was written stays; run the same command again to go on ` +
              '(what is already here is skipped).',
          );
        } finally {
          await rejects.close();
        }
        const rejectsNote = options.rejects
          ? `${rejects.count} rejected or changed items written to ${options.rejects}`
          : `${rejects.count} rejected or changed items (list them with --rejects FILE)`;
        return summaryLines(summary, { ignored: plan.ignored, rejectsNote }).join('\n');
      });
    });
};
