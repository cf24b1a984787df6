import type { INestApplicationContext } from '@nestjs/common';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { AccountExportService } from '../../modules/portability/export/account-export.service';
import { writeExportFile, writeExportTo } from '../../modules/portability/export/export-file';
import { PortabilityModule } from '../../modules/portability/portability.module';
import { outputFile, uidOrName } from '../arguments';
import type { CliContext } from '../cli-context';

/**
 * `users export <uidOrName> [--out FILE]`: the account's export (the format GET /users/export answers), for an
 * operator answering a request by mail. To a file atomically (nothing at FILE until the export is complete), or to
 * stdout (then the summary goes to stderr, so stdout is only the NDJSON). Ctrl-C stops it and leaves nothing behind.
 */
export function registerUsersExport(group: Command, cli: CliContext): void {
  group
    .command('export')
    .description(
      "write an account's data export (NDJSON, the format of GET /users/export) to a file or stdout",
    )
    .argument('<uidOrName>', 'account uid, or name (case-insensitive)', uidOrName)
    .option('--out <file>', 'write to this file (replaced only once complete); default: stdout', outputFile)
    .action((who: string, options: { out?: string }) =>
      cli.run([PortabilityModule], async (app) => {
        const summary = await exportAccount(app, cli, who, options.out);
        if (options.out !== undefined) return summary;
        cli.io.err(summary);
        return undefined;
      }),
    );
}

async function exportAccount(
  app: INestApplicationContext,
  cli: CliContext,
  who: string,
  out: string | undefined,
): Promise<string> {
  const exports = app.get(AccountExportService);
  const uid = await exports.resolveAccount(who);
  const started = performance.now();
  const bar = new SingleBar({
    stream: cli.io.progress ?? process.stderr,
    format: 'exporting {uid} [{bar}] {value}/{total} results | {records} records | {duration}s',
    noTTYOutput: cli.io.progress !== undefined,
  });
  const exported = await exports.open(uid, {
    countResults: true,
    onProgress: (p) => bar.update(p.results, { records: p.records }),
  });
  bar.start(exported.results ?? 0, 0, { uid, records: 0 });
  const interrupted = new AbortController();
  const interrupt = () => interrupted.abort(new Error('interrupted: nothing was written'));
  process.once('SIGINT', interrupt);
  try {
    if (out === undefined)
      await writeExportTo(exported.stream, cli.io.data ?? process.stdout, interrupted.signal);
    else await writeExportFile(exported.stream, out, interrupted.signal);
  } finally {
    process.off('SIGINT', interrupt);
    bar.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const { records, results } = exported.progress;
  return (
    `exported ${uid} (${exported.name}): ${records} records, ${results} results, ` +
    `to ${out ?? 'stdout'} in ${seconds.toFixed(1)} s`
  );
}
