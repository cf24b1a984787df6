import { createTestApp, type TestApp } from '../../support/test-app';
import { FULL_CONFIGURATION, fetchExport, seedFullAccount, seedResults } from './support';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ configuration: FULL_CONFIGURATION });
  });
  afterAll(() => t.close());
  it('exports', async () => {
    const a = await seedFullAccount(t, 'SmokeUser');
    await seedResults(t, a.uid, 1200, 1_600_000_000_000);
    const res = await fetchExport(t, await t.bearer(a.uid), { 'accept-encoding': 'gzip' });
    console.log(res.status, res.headers, res.raw.length, res.text.length);
    console.log(res.text.split('\n').slice(0, 30).join('\n'));
    console.log(res.text.split('\n').slice(-3).join('\n'));
  });
});
