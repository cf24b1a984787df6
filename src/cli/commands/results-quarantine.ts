import type { Command } from 'commander';
import { ResultsModule } from '../../modules/results/results.module';
import {
  SubmissionOutcomesService,
  type CheckRate,
} from '../../modules/results/outcomes/submission-outcomes.service';
import { ImportModule } from '../../modules/portability/import/import.module';
import { ReinstateRefusedService } from '../../modules/portability/import/reinstate-refused.service';
import {
  countReplays,
  QuarantineService,
  type Replayed,
  type ReplayCount,
} from '../../modules/results/quarantine/quarantine.service';
import type {
  RefusedFilter,
  RefusedResult,
} from '../../modules/results/quarantine/refused-results.repository';
import { isoDate, uid, wholeNumber } from '../arguments';
import type { CliContext } from '../cli-context';

interface FilterOptions {
  check?: string;
  since?: number;
  uid?: string;
}

function filterOf(options: FilterOptions): RefusedFilter {
  return { check: options.check, since: options.since, uid: options.uid };
}

function withFilterOptions(command: Command): Command {
  return command
    .option('--check <name>', 'only those refused by this check (speed, accuracy, chart, variation, ...)')
    .option('--since <date>', 'only those refused since this ISO date or date-time', isoDate)
    .option('--uid <uid>', "only this account's", uid);
}

function describeRefused(refused: RefusedResult): string {
  const body = refused.body;
  const figures = Object.entries(refused.figures)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');
  return (
    `${refused.id}  ${refused.uid}  ${new Date(refused.refusedAt).toISOString()}  ${refused.status}:${refused.check}  ` +
    `${String(body.mode)} ${String(body.mode2)} ${String(body.language)}  ${String(body.wpm)} wpm, acc ` +
    `${String(body.acc)}\n    ${figures || 'no figures'}`
  );
}

function countLines(counts: ReplayCount[]): string[] {
  return counts.map(
    (c) =>
      `${c.check.padEnd(14)} ${String(c.refused).padStart(6)} refused: ${c.wouldAccept} would be accepted, ` +
      `${c.wouldHold} held for review, ${c.stillRefused} still refused`,
  );
}

function passingOf(counts: ReplayCount[]): number {
  return counts.reduce((n, c) => n + c.wouldAccept + c.wouldHold, 0);
}

function rateLines(title: string, window: { submissions: number; checks: CheckRate[] }): string[] {
  const lines = [`${title}: ${window.submissions} submissions judged`];
  for (const c of window.checks) {
    lines.push(
      `  ${c.check.padEnd(14)} refused ${String(c.refused).padStart(6)} (${(100 * c.refusalRate).toFixed(2)} %)` +
        `  held ${c.held}`,
    );
  }
  if (window.checks.length === 0) lines.push('  nothing refused or held');
  return lines;
}

/**
 * The quarantine of refused results (docs/anti-cheat.md "Nothing refused is lost") and the refusal rates, under
 * `results`: list what was refused, replay it against today's thresholds, watch the rates.
 */
export function quarantineCommands(group: Command, cli: CliContext): void {
  withFilterOptions(
    group
      .command('refused')
      .description(
        'list results the anti-cheat refused (kept in the quarantine), oldest first, with their figures',
      )
      .option('--limit <n>', 'how many (1-1000, default 100)', wholeNumber(1), 100),
  ).action((options: FilterOptions & { limit: number }) =>
    cli.run([ResultsModule], async (app) => {
      const refused = await app.get(QuarantineService).list(filterOf(options), Math.min(options.limit, 1000));
      if (refused.length === 0) return 'no refused results kept';
      return [...refused.map(describeRefused), `${refused.length} listed`].join('\n');
    }),
  );

  withFilterOptions(
    group
      .command('replay')
      .description(
        "judge the quarantine again with today's thresholds and reinstate what passes (as results of their " +
          'accounts, at the time they were refused; held where today holds them); --dry-run only counts',
      )
      .option('--dry-run', 'count, per check, how many would pass today; change nothing'),
  ).action((options: FilterOptions & { dryRun?: boolean }) =>
    cli.run([ResultsModule, ImportModule], async (app) => {
      if (options.dryRun) {
        const all: Replayed[] = [];
        await app.get(QuarantineService).replay(filterOf(options), async (page) => {
          all.push(...page);
        });
        if (all.length === 0) return 'no refused results kept';
        const counts = countReplays(all);
        return [
          ...countLines(counts),
          `${passingOf(counts)} of ${all.length} would pass today (dry run: nothing changed)`,
        ].join('\n');
      }
      const report = await app
        .get(ReinstateRefusedService)
        .reinstate(filterOf(options), (done) => cli.io.err(`reinstated ${done} so far ...`));
      const total = report.counts.reduce((n, c) => n + c.refused, 0);
      if (total === 0) return 'no refused results kept';
      return [
        ...countLines(report.counts),
        `${report.reinstated} of ${total} reinstated (${passingOf(report.counts)} pass today)`,
        ...report.rejected.map((r) => `not reinstated ${r.id}: ${r.reason}`),
        ...report.steps,
      ].join('\n');
    }),
  );

  group
    .command('rates')
    .description('refusal and hold rates per check over the last hour and day, across replicas')
    .action(() =>
      cli.run([ResultsModule], async (app) => {
        const rates = await app.get(SubmissionOutcomesService).rates();
        return [...rateLines('last hour', rates.lastHour), ...rateLines('last 24 hours', rates.lastDay)].join(
          '\n',
        );
      }),
    );
}
