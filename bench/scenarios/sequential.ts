import { LARGE_BOARD, userRanges } from '../lib/dataset';
import { runLoad, type LoadResult, type PlannedRequest } from '../lib/load';
import type { ServerProcess } from '../lib/server-process';
import { warmTokens, type BenchContext, type ScenarioRow, type ServerKind } from './context';
import { boardCount, boardQuery } from './leaderboards';
import { Random } from './result-body';
import { planRound } from './submit';

/** Requests per route and server, one at a time; submissions are one per fresh user. */
const SEQUENTIAL = { root: 3_000, page: 2_000, submit: 1_000 } as const;
const WARM_UP = 200;

/** One request at a time over one keep-alive connection: the CPU a request costs when nothing queues. */
function sequential(
  context: BenchContext,
  server: ServerProcess,
  amount: number,
  next: () => PlannedRequest,
): Promise<LoadResult> {
  return runLoad({
    url: server.url,
    pid: server.pid,
    postgresPid: context.postgresPid,
    connections: 1,
    amount,
    next,
  });
}

/**
 * Scenario 11 (issue 30, item 4): low concurrency. `GET /`, a page of the 1M board and a submission, sent one at a
 * time to ours and to the baseline, for the CPU each request costs the server process when no request waits for
 * another: the framework's per-request tax without the queueing of the loaded scenarios. Target: `GET /` at most 2×
 * the baseline's CPU.
 */
export async function sequentialScenario(context: BenchContext): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  const pages = Math.max(1, Math.ceil(((await boardCount(context.servers.ours, pagePath(0))) ?? 1) / 50));
  // The first read users: only read by scenarios 4 and 5, never submitted for, so the spacing check passes.
  const fresh = userRanges(context.size, context.submitRequests).reads;
  for (const kind of ['ours', 'baseline'] as const satisfies readonly ServerKind[]) {
    const server = context.servers[kind];
    const root = (): PlannedRequest => ({ method: 'GET', path: '/' });
    context.log(`scenario 11 (${kind}): ${SEQUENTIAL.root} GET / one at a time ...`);
    await sequential(context, server, WARM_UP, root);
    rows.push(
      row('11-root', 'GET / one at a time', kind, await sequential(context, server, SEQUENTIAL.root, root)),
    );

    const rng = new Random(11);
    const page = (): PlannedRequest => ({ method: 'GET', path: pagePath(rng.int(0, pages - 1)) });
    context.log(`scenario 11 (${kind}): ${SEQUENTIAL.page} pages of the 1M board one at a time ...`);
    await sequential(context, server, WARM_UP, page);
    rows.push(
      row(
        '11-page',
        'GET /leaderboards page, 1M board, one at a time',
        kind,
        await sequential(context, server, SEQUENTIAL.page, page),
      ),
    );

    // Half for each server.
    const from = fresh.from + (kind === 'ours' ? 0 : SEQUENTIAL.submit);
    const { planned, tokens } = planRound(context, from, from + SEQUENTIAL.submit, new Random(Date.now()));
    if (kind === 'ours') await warmTokens(context, server, tokens);
    let next = 0;
    context.log(`scenario 11 (${kind}): ${SEQUENTIAL.submit} submissions one at a time ...`);
    rows.push(
      row(
        '11-submit',
        'POST /results one at a time',
        kind,
        await sequential(context, server, SEQUENTIAL.submit, () => planned[next++] as PlannedRequest),
      ),
    );
  }
  return rows;
}

function pagePath(page: number): string {
  return `/leaderboards?${boardQuery(LARGE_BOARD)}&page=${page}&pageSize=50`;
}

function row(id: string, scenario: string, server: ServerKind, result: LoadResult): ScenarioRow {
  return { id, scenario, server, result, note: '1 connection, one request at a time' };
}
