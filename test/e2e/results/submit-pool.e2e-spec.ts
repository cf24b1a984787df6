import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, signed, submit } from './result-factory';

describe('POST /results with every database connection in use', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      // Every configuration read goes to the database, as when the cache expires under load.
      env: {
        databasePoolMax: 3,
        configCacheMs: 0,
        rateLimit: { globalPerMinute: 100_000, overrides: { resultsAdd: { max: 1000 } } },
      },
      configuration: {
        users: { xp: { enabled: true, gainMultiplier: 1, maxDailyBonus: 100, minDailyBonus: 5 } },
      },
    });
  });
  afterAll(() => t.close());

  // A configuration read inside the submission transaction used to wait for a pool connection that only the other
  // open submission transactions could free, while they waited for the same: with the pool full, nothing moved.
  it('four times as many concurrent submissions as pool connections are all saved', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser(t.db)));
    const responses = await Promise.all(
      users.map(({ uid }) => submit(t, uid, signed(clientResult({ wpm: 90, acc: 97 }), uid))),
    );
    expect(responses.map((r) => r.status)).toEqual(users.map(() => 200));
    for (const response of responses) expect(response.body.data.xp).toBeGreaterThan(0);
  }, 20_000);
});
