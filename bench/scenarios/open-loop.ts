import { LARGE_BOARD, nameOf, userRanges } from '../lib/dataset';
import type { PlannedRequest } from '../lib/load';
import { runOpenLoop, type OpenLoopResult, type OpenLoopRun } from '../lib/open-loop';
import { notAvailable, warmTokens, type BenchContext, type ScenarioRow } from './context';
import { boardCount, boardQuery, randomPages } from './leaderboards';
import { Random } from './result-body';
import { planRound } from './submit';

/** Seconds of unmeasured sending at the same rate before each measured run (JIT, pools, caches). */
const WARM_UP_SECONDS = 2;

/**
 * Rates used when this run measured nothing to take half of and `--open-rate` is not given: half the maxima of the
 * issue's run on the 2-core bench machine (baseline 512 submissions/s and 987 pages/s, ours 380 profiles/s).
 */
export const DEFAULT_OPEN_RATES = { submit: 250, page: 500, profile: 190 } as const;

type Route = keyof typeof DEFAULT_OPEN_RATES;

/**
 * The arrival rate of each route: `--open-rate` when given, else half the maximum this run measured for the route
 * (the baseline's in scenarios 1 and 2; ours in scenario 4, which has no baseline), else the default. With a note
 * saying which, printed and kept in the report.
 */
export function openRates(
  rows: ScenarioRow[],
  override: number | undefined,
): Record<Route, { rate: number; source: string; oursMax?: number }> {
  const measured = (id: string, server: 'ours' | 'baseline') =>
    rows.find((r) => r.id === id && r.server === server)?.result?.requestsPerSecond;
  const pick = (route: Route, id: string, server: 'ours' | 'baseline') => {
    if (override !== undefined) return { rate: override, source: '--open-rate' };
    const max = measured(id, server);
    if (max !== undefined && max > 0) {
      return {
        rate: Math.max(1, Math.round(max / 2)),
        source: `half of ${server === 'ours' ? "ours'" : "the baseline's"} ${Math.round(max)}/s in ${id}`,
      };
    }
    return { rate: DEFAULT_OPEN_RATES[route], source: `default, ${id} not measured in this run` };
  };
  // Ours' closed-loop maximum in this run, for the note: above it, no latency target can hold.
  return {
    submit: { ...pick('submit', '1', 'baseline'), oursMax: measured('1', 'ours') },
    page: { ...pick('page', '2-1M', 'baseline'), oursMax: measured('2-1M', 'ours') },
    profile: { ...pick('profile', '4', 'ours'), oursMax: measured('4', 'ours') },
  };
}

function noteOf(result: OpenLoopResult, source: string, oursMax: number | undefined): string {
  return [
    `${result.targetRate}/s (${source})`,
    ...(oursMax === undefined
      ? []
      : [`ours served at most ${Math.round(oursMax)}/s closed-loop in this run`]),
    `achieved ${result.achievedRate.toFixed(0)}/s over ${result.requests} requests`,
    `max ${result.max.toFixed(1)} ms`,
    ...(result.lateSends > 0 ? [`${result.lateSends} sent over 1 ms late by the load generator`] : []),
    ...(result.clientCpuMsPerRequest === null
      ? []
      : [`load generator CPU ${result.clientCpuMsPerRequest.toFixed(2)} ms/req`]),
  ].join(', ');
}

/**
 * Scenario 8: latency at a realistic load. Requests arrive at a fixed rate (open loop, `bench/lib/open-loop.ts`),
 * about half the most the route can serve, and p50/p99 are measured from each request's scheduled send: submissions
 * (fresh users, as scenario 1), pages of the 1,000,000-entry board (as scenario 2) and profiles (as scenario 4).
 */
export async function openLoopScenario(
  context: BenchContext,
  rows: ScenarioRow[],
  override: number | undefined,
): Promise<ScenarioRow[]> {
  const server = context.servers.ours;
  const rates = openRates(rows, override);
  const out: ScenarioRow[] = [];
  const drive = async (rate: number, seconds: number, next: () => PlannedRequest) =>
    runOpenLoop({
      url: server.url,
      pid: server.pid,
      postgresPid: context.postgresPid,
      rate,
      duration: seconds,
      next,
    } satisfies OpenLoopRun);
  const measure = async (id: string, scenario: string, route: Route, next: () => PlannedRequest) => {
    const { rate, source, oursMax } = rates[route];
    context.log(`scenario 8: ${scenario} at ${rate}/s (${source}) ...`);
    await drive(rate, WARM_UP_SECONDS, next);
    const result = await drive(rate, context.duration, next);
    out.push({
      id,
      scenario: `${scenario}, open loop`,
      server: 'ours',
      result,
      note: noteOf(result, source, oursMax),
    });
  };

  // Submissions: one fresh user each (the spacing and duplicate checks pass), from a range no other scenario submits
  // for, tokens warmed first as in scenario 1.
  const { reads, openLoop } = userRanges(context.size, context.submitRequests);
  const users = Math.ceil(rates.submit.rate * (WARM_UP_SECONDS + context.duration)) + 1;
  if (users > openLoop.to - openLoop.from) {
    out.push(
      notAvailable(
        '8-submit',
        'POST /results, open loop',
        'ours',
        `not available: ${users} fresh users needed at ${rates.submit.rate}/s, the dataset spares ` +
          `${openLoop.to - openLoop.from}`,
      ),
    );
  } else {
    const { planned, tokens } = planRound(context, openLoop.to - users, openLoop.to, new Random(8));
    await warmTokens(context, server, tokens);
    let next = 0;
    await measure('8-submit', 'POST /results', 'submit', () => planned[next++] as PlannedRequest);
  }

  const page = (n: number) => `/leaderboards?${boardQuery(LARGE_BOARD)}&page=${n}&pageSize=50`;
  const count = await boardCount(server, page(0));
  if (count === null) {
    out.push(notAvailable('8-page', 'GET /leaderboards page, 1M board, open loop', 'ours', 'answers 404'));
  } else {
    await measure('8-page', 'GET /leaderboards page, 1M board', 'page', randomPages(page, count, 8));
  }

  const rng = new Random(48);
  await measure('8-profile', 'GET /users/{name}/profile', 'profile', () => ({
    method: 'GET',
    path: `/users/${nameOf(rng.int(reads.from, reads.to - 1))}/profile`,
  }));
  return out;
}
