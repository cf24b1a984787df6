import { uidOf, userRanges } from '../lib/dataset';
import type { ServerProcess } from '../lib/server-process';
import { cycle, measured, warm, warmTokens, type BenchContext, type ScenarioRow } from './context';

/** Users whose history the scenario reads, and who each get one ApeKey (their result count stays as seeded). */
const READERS = 100;

async function createApeKey(server: ServerProcess, token: string): Promise<string> {
  const response = await fetch(`${server.url}/ape-keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', enabled: true }),
  });
  const body = (await response.json()) as { message: string; data: { apeKey?: string } | null };
  if (response.status !== 200 || !body.data?.apeKey) {
    throw new Error(`POST /ape-keys answered ${response.status}: ${body.message}`);
  }
  return body.data.apeKey;
}

/**
 * Scenario 5: `GET /results` (the default page: the whole history of 50 results) by the same users, with Bearer tokens
 * and then with ApeKeys created through `POST /ape-keys`. Both credentials are warmed first: a token is verified once
 * an hour, an ApeKey's bcrypt check once a minute (then both come from the server's caches).
 */
export async function resultsReadScenario(context: BenchContext): Promise<ScenarioRow[]> {
  const server = context.servers.ours;
  const { from } = userRanges(context.size, context.submitRequests).reads;
  const uids = Array.from({ length: READERS }, (_, i) => uidOf(from + i));
  const tokens = uids.map((uid) => context.issuer.token(uid));

  // Keys of earlier runs would reach the per-user maximum; the dataset is the bench's own.
  await context.pool.query('DELETE FROM ape_keys WHERE uid = ANY($1)', [uids]);
  context.log(`scenario 5: creating ${READERS} ApeKeys through POST /ape-keys ...`);
  const keys: string[] = [];
  for (let i = 0; i < tokens.length; i += 4) {
    keys.push(...(await Promise.all(tokens.slice(i, i + 4).map((token) => createApeKey(server, token)))));
  }

  await warmTokens(context, server, tokens);
  context.log('scenario 5: GET /results with Bearer ...');
  const nextToken = cycle(tokens);
  const bearer = await measured(context, server, {
    next: () => ({ method: 'GET', path: '/results', headers: { authorization: `Bearer ${nextToken()}` } }),
    profile: '5b',
  });

  const nextKey = cycle(keys);
  const apeKeyRequest = () => ({
    method: 'GET' as const,
    path: '/results',
    headers: { authorization: `ApeKey ${nextKey()}` },
  });
  await warm(context, server, keys.length, apeKeyRequest);
  context.log('scenario 5: GET /results with ApeKey ...');
  const apeKey = await measured(context, server, { next: apeKeyRequest, profile: '5a' });
  return [
    { id: '5b', scenario: 'GET /results (Bearer)', server: 'ours', result: bearer },
    { id: '5a', scenario: 'GET /results (ApeKey)', server: 'ours', result: apeKey },
  ];
}
