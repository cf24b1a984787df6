import { LeaderboardModule } from '../../modules/leaderboards/leaderboards.module';
import { ResultsModule } from '../../modules/results/results.module';
import { ResultReviewService } from '../../modules/results/review/result-review.service';
import type { HeldResult } from '../../modules/results/review/result-reviews.repository';
import type { CommandGroup } from '../cli-context';
import { entityId, uid, wholeNumber } from '../arguments';
import { quarantineCommands } from './results-quarantine';

// The leaderboards register the approval hook that enters an approved result on the daily and weekly boards.
const modules = [ResultsModule, LeaderboardModule];

function describeHeld(held: HeldResult): string {
  const r = held.result;
  const reasons = held.reasons
    .map((reason) => {
      const figures = Object.entries(reason.figures).sort(([a], [b]) => a.localeCompare(b));
      return `${reason.check}: ${figures.map(([key, value]) => `${key} ${value}`).join(', ')}`;
    })
    .join('; ');
  const spacing = held.keyTiming?.keySpacing;
  const timing = spacing
    ? `spacing ${spacing.count} keys, mean ${spacing.meanMs} ms, cv ${spacing.cv}, ${spacing.distinct} distinct, ` +
      `repeated ${spacing.repeatedPercent}%, autocorrelation ${spacing.autocorrelation}`
    : 'no key timing';
  return (
    `${held.resultId}  ${held.uid} (${held.name})  ${r.mode} ${r.mode2} ${r.language}  ${r.wpm} wpm, ` +
    `acc ${r.acc}  held ${new Date(held.heldAt).toISOString()}\n    ${reasons}\n    ${timing}`
  );
}

/** The result review queue (the same decisions as `/admin/result/*`); each decision is logged with the moderator. */
export const resultsCommands: CommandGroup = (program, cli) => {
  const group = program
    .command('results')
    .description('results held for review, and results the anti-cheat refused (the quarantine)');
  group
    .command('held')
    .description('list held results, oldest first, with why they were held and their key timing')
    .option('--limit <n>', 'how many (1-200, default 50)', wholeNumber(1), 50)
    .option('--offset <n>', 'how many to skip', wholeNumber(0), 0)
    .action((options: { limit: number; offset: number }) =>
      cli.run(modules, async (app) => {
        const page = await app
          .get(ResultReviewService)
          .listHeld(Math.min(options.limit, 200), options.offset);
        if (page.count === 0) return 'no results held for review';
        return [...page.results.map(describeHeld), `${page.count} held in all`].join('\n');
      }),
    );
  for (const [name, verb] of [
    ['accept', 'approved'],
    ['reject', 'rejected'],
  ] as const) {
    group
      .command(name)
      .description(
        name === 'accept'
          ? 'approve held results: they enter the boards (all-time at the next live update)'
          : 'reject held results: kept and marked, never on a board',
      )
      .argument(
        '<resultIds...>',
        'ids of held results (results held)',
        (value: string, list: string[] = []) => [...list, entityId(value)],
      )
      .requiredOption('--moderator <uid>', 'your account uid, logged with the decision', uid)
      .option('--reason <text>', 'kept with a rejection')
      .action((ids: string[], options: { moderator: string; reason?: string }) =>
        cli.run(modules, async (app) => {
          const reviews = app.get(ResultReviewService);
          const decisions = ids.map((resultId) => ({ resultId, reason: options.reason }));
          if (name === 'accept') await reviews.approve(options.moderator, decisions);
          else await reviews.reject(options.moderator, decisions);
          return `${verb} ${ids.length} held result${ids.length === 1 ? '' : 's'}`;
        }),
      );
  }
  quarantineCommands(group, cli);
};
