import { uidOf, userRanges } from '../lib/dataset';
import type { PlannedRequest } from '../lib/load';
import { measured, warmTokens, type BenchContext, type ScenarioRow, type ServerKind } from './context';
import { Random, submitBody } from './result-body';

/**
 * Scenario 1: `POST /results` by many users. Each request is a different user of the server's own range (so the
 * spacing and duplicate checks pass and runs never interfere), with a realistic, correctly hashed body. Bodies and
 * tokens are made before the run so the load generator spends its time sending; tokens are warmed into our server's
 * cache first (a user's token is verified once an hour, not per submission).
 */
export async function submitScenario(context: BenchContext, kind: ServerKind): Promise<ScenarioRow> {
  const server = context.servers[kind];
  const range = userRanges(context.size, context.submitRequests)[
    kind === 'ours' ? 'submitOurs' : 'submitBaseline'
  ];
  const rng = new Random(kind === 'ours' ? 1 : 2);
  const clientTime = Date.now();
  context.log(`scenario 1 (${kind}): signing ${range.to - range.from} tokens and results ...`);
  const planned: PlannedRequest[] = [];
  const tokens: string[] = [];
  for (let i = range.from; i < range.to; i++) {
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
  if (kind === 'ours') {
    context.log(`scenario 1 (${kind}): warming the token cache ...`);
    await warmTokens(context, server, tokens);
  }
  let next = 0;
  context.log(
    `scenario 1 (${kind}): ${planned.length} submissions on ${context.connections} connections ...`,
  );
  const profiler = kind === 'ours' ? context.profiler : undefined;
  await profiler?.start();
  const result = await measured(context, server, {
    amount: planned.length,
    next: () => planned[next++ % planned.length] as PlannedRequest,
  });
  await profiler?.stop();
  return { id: '1', scenario: 'POST /results', server: kind, result };
}
