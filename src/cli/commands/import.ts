import { AppError } from '../../common/app-error';
import {
  AccountExportError,
  AccountImportService,
} from '../../modules/portability/import/account/account-import.service';
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
import { directory, existingFile, outputFile, uid, userName } from '../arguments';
import { UsageError, type CliContext, type CommandGroup } from '../cli-context';
import type { ProgressSink } from '../../modules/portability/import/import-pipeline';

/** Bars on a terminal, plain lines otherwise (a log, CI). */
function progressFor(cli: CliContext): ProgressSink {
  const stream = cli.io.progress ?? process.stderr;
  return (stream as NodeJS.WriteStream).isTTY === true
    ? new TerminalProgress(stream)
    : new PlainProgress((line) => cli.io.err(line));
}

const stopped = (e: unknown) =>
  new AppError(
    500,
    `import stopped: ${(e as Error).message}. What was written stays; run the same command again to go on ` +
      '(what is already here is skipped).',
  );

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
        const progress = progressFor(cli);
        cli.io.err(`${options.dryRun ? 'dry run of the import' : 'importing'} from ${dir}`);
        let summary;
        try {
          summary = await app
            .get(OriginalImportService)
            .run(plan, { dryRun: options.dryRun === true, progress, rejects });
        } catch (e) {
          throw stopped(e);
        } finally {
          await rejects.close();
        }
        const rejectsNote = options.rejects
          ? `${rejects.count} rejected or changed items written to ${options.rejects}`
          : `${rejects.count} rejected or changed items (list them with --rejects FILE)`;
        return summaryLines(summary, { ignored: plan.ignored, rejectsNote }).join('\n');
      });
    });
  group
    .command('account')
    .description(
      'import an account export (GET /users/export or `users export`, plain or gzip): the account keeps its uid; ' +
        'a file signed here or by a trusted instance imports as it is, any other only with --untrusted; safe to rerun',
    )
    .argument('<file>', 'the export file (NDJSON, or NDJSON compressed with gzip)', existingFile)
    .option('--uid <newUid>', 'import the account under this uid (when its uid is taken here)', uid)
    .option('--name <newName>', 'import the account under this name (when its name is taken here)', userName)
    .option(
      '--untrusted',
      'import a file that is unsigned, signed by a key not trusted here, or changed since it was signed: its results ' +
        'are judged as live submissions and nothing else of the file is granted (docs/account-files.md)',
    )
    .option('--dry-run', 'read, map and check everything, write nothing, print the same summary')
    .option('--rejects <file>', 'write refused records and changed parts as NDJSON to this file', outputFile)
    .action(
      async (
        path: string,
        options: { uid?: string; name?: string; untrusted?: boolean; dryRun?: boolean; rejects?: string },
      ) => {
        await cli.run([ImportModule], async (app) => {
          const service = app.get(AccountImportService);
          let plan;
          try {
            plan = await service.plan(path, {
              uid: options.uid,
              name: options.name,
              untrusted: options.untrusted === true,
            });
          } catch (e) {
            if (e instanceof AccountExportError) throw new AppError(422, `${path}: ${e.message}`);
            throw e;
          }
          const rejects: RejectsSink = options.rejects
            ? await RejectsFile.open(options.rejects)
            : new CountingRejects();
          const progress = progressFor(cli);
          const what = `${plan.uid} (${plan.name})${plan.resuming ? ', already here: completing it' : ''}`;
          cli.io.err(
            `${options.dryRun ? 'dry run of the import of' : 'importing'} account ${what} from ${path}`,
          );
          cli.io.err(AccountImportService.pathLine(plan));
          let summary;
          try {
            summary = await service.run(plan, { dryRun: options.dryRun === true, progress, rejects });
          } catch (e) {
            throw stopped(e);
          } finally {
            await rejects.close();
          }
          const rejectsNote = options.rejects
            ? `${rejects.count} rejected or changed items written to ${options.rejects}`
            : `${rejects.count} rejected or changed items (list them with --rejects FILE)`;
          return summaryLines(summary, {
            ignored: [],
            notes: summary.notes,
            rejectsNote,
            leftBehindSection: 'Your data',
          }).join('\n');
        });
      },
    );
};
