import { uidOf, userRanges } from '../lib/dataset';
import type { LoadResult, PlannedRequest } from '../lib/load';
import { measured, warmTokens, type BenchContext, type ScenarioRow, type ServerKind } from './context';
import { Random, submitBody } from './result-body';

interface Round {
  planned: PlannedRequest[];
  tokens: string[];
}

/** One round's requests: one per user of the slice, each with its own token and a fresh, correctly hashed result. */
export function planRound(context: BenchContext, from: number, to: number, rng: Random): Round {
  const clientTime = Date.now();
  const planned: PlannedRequest[] = [];
  const tokens: string[] = [];
  for (let i = from; i < to; i++) {
    const uid = uidOf(i);
    const token = context.issuer.token(uid);
    tokens.push(token);
    planned.push({
      method: 'POST',
      path: '/results',
      headers: { authorization: `Bearer ${token}` },
      body: submitBody(rng, uid, clientTime + i),
    });
  }
  return { planned, tokens };
}

function best(results: LoadResult[]): LoadResult {
  return results.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
}

/**
 * Scenario 1: `POST /results` by many users. Each request is a different user of the server's own range (so the
 * spacing and duplicate checks pass and runs never interfere), with a realistic, correctly hashed body. Bodies and
 * tokens are made before each round so the load generator only sends; our server's token cache is warmed first (a
 * user's token is verified once an hour, not per submission). Ours and the baseline alternate in rounds and each
 * reports its best round, so a burst of other work on the machine does not decide the ratio.
 */
export async function submitScenario(context: BenchContext, rounds: number): Promise<ScenarioRow[]> {
  const ranges = userRanges(context.size, context.submitRequests);
  const perRound = Math.floor(context.submitRequests / rounds);
  const runs: Record<ServerKind, LoadResult[]> = { ours: [], baseline: [] };
  const rng = new Random(1);
  for (let round = 0; round < rounds; round++) {
    for (const kind of ['ours', 'baseline'] as const) {
      const server = context.servers[kind];
      const range = ranges[kind === 'ours' ? 'submitOurs' : 'submitBaseline'];
      const from = range.from + round * perRound;
      const { planned, tokens } = planRound(context, from, from + perRound, rng);
      if (kind === 'ours') await warmTokens(context, server, tokens);
      context.log(`scenario 1 (${kind}), round ${round + 1}/${rounds}: ${perRound} submissions ...`);
      let next = 0;
      runs[kind].push(
        await measured(context, server, {
          amount: planned.length,
          next: () => planned[next++ % planned.length] as PlannedRequest,
          // The first round of each is the one profiled (--profile): ours, and the floor to compare its layers with.
          ...(round === 0 ? { profile: kind === 'ours' ? '1' : '1-baseline' } : {}),
        }),
      );
    }
  }
  return (['ours', 'baseline'] as const).map((kind) => ({
    id: '1',
    scenario: 'POST /results',
    server: kind,
    result: best(runs[kind]),
    note:
      rounds > 1
        ? `best of ${rounds} rounds of ${perRound} (requests/s ${runs[kind].map((r) => Math.round(r.requestsPerSecond)).join(', ')})`
        : undefined,
  }));
}
