import { nameOf, userRanges } from '../lib/dataset';
import { measured, type BenchContext, type ScenarioRow } from './context';
import { Random } from './result-body';

/** Scenario 4: public profiles of random full users (by name, as the site's profile page asks). */
export async function profileScenario(context: BenchContext): Promise<ScenarioRow> {
  const server = context.servers.ours;
  const { from, to } = userRanges(context.size, context.submitRequests).reads;
  const rng = new Random(4);
  context.log('scenario 4: GET /users/{name}/profile ...');
  const result = await measured(context, server, {
    next: () => ({ method: 'GET', path: `/users/${nameOf(rng.int(from, to - 1))}/profile` }),
    profile: '4',
  });
  return { id: '4', scenario: 'GET /users/{name}/profile', server: 'ours', result };
}
