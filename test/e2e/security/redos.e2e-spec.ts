import { getMetadataStorage } from 'class-validator';
import { NUMERIC } from '../../../src/common/validation/transforms';
import { createUser } from '../../support/factories';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';

/** Every regular expression a DTO of the running app applies to input (`@Matches` and validators built on it). */
function dtoPatterns(): { where: string; pattern: RegExp }[] {
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<{ name: string }, { propertyName: string; constraints?: unknown[] }[]>;
  };
  const found: { where: string; pattern: RegExp }[] = [];
  for (const [target, metadatas] of storage.validationMetadatas) {
    for (const m of metadatas) {
      const pattern = m.constraints?.find((c): c is RegExp => c instanceof RegExp);
      if (pattern) found.push({ where: `${target.name}.${m.propertyName}`, pattern });
    }
  }
  // Transforms test patterns too: the numeric query transform sees every `?page=`-like value, signed in or not.
  found.push({ where: 'ToNumber', pattern: NUMERIC });
  return found;
}

// Long runs of one character that many patterns accept, ended by one they refuse: the input shape that makes an
// ambiguous pattern backtrack. Lengths grow slowly first, so an exponential pattern shows up (tens of ms at ~24-40
// characters) before it could hang the test; 20,000 characters fit in one body (BODY_LIMIT_BYTES is 100 KiB).
const RUNS = ['.', 'a', '1', '-', '_', ' ', '#', 'e', '|', 'aa.'];
const ENDINGS = ['/', '<', '\n', '\u0000', '!', '"'];
const LENGTHS = [8, 12, 16, 20, 24, 28, 32, 36, 40, 100, 1000, 20_000];
const BUDGET_MS = 50;

function timeMs(pattern: RegExp, input: string): number {
  const started = process.hrtime.bigint();
  pattern.lastIndex = 0;
  pattern.test(input);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** The slowest case of `pattern`, stopping at the first input over the budget. */
function slowestCase(pattern: RegExp): string | null {
  for (const length of LENGTHS) {
    for (const run of RUNS) {
      for (const ending of ENDINGS) {
        const input = run.repeat(Math.ceil(length / run.length)) + ending;
        // The best of three, so a GC pause or a busy machine is not taken for backtracking.
        const ms = Math.min(...[0, 1, 2].map(() => timeMs(pattern, input)));
        if (ms > BUDGET_MS)
          return `${JSON.stringify(run)} x ${length} + ${JSON.stringify(ending)}: ${ms.toFixed(0)} ms`;
      }
    }
  }
  return null;
}

describe('ReDoS', () => {
  let t: TestApp;
  let captcha: StubServer;

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({ env: { captcha: { verifyUrl: captcha.url, secret: 'captcha-secret' } } });
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });

  it('no DTO pattern takes more than a blink on a long adversarial string', () => {
    const patterns = dtoPatterns();
    expect(patterns.length).toBeGreaterThan(10);
    const slow = patterns
      .map(({ where, pattern }) => ({ where, pattern: String(pattern), slowest: slowestCase(pattern) }))
      .filter((p) => p.slowest !== null);
    expect(slow).toEqual([]);
  });

  it('refuses a quote-report comment of dots ending in "/" at once (it used to backtrack exponentially)', async () => {
    const { uid } = await createUser(t.db);
    const body = (comment: string) => ({
      quoteId: 42,
      quoteLanguage: 'english',
      reason: 'Incorrect source',
      comment,
      captcha: 'token',
    });
    const started = Date.now();
    const res = await t.request('POST', '/quotes/report', {
      auth: await t.bearer(uid),
      body: body(`${'.'.repeat(60)}/`),
    });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(422);
    expect(res.body.validationErrors).toContain('"comment" must not contain /, < or >');
    const fine = await t.request('POST', '/quotes/report', {
      auth: await t.bearer(uid),
      body: body('Wrong author... and the date.'),
    });
    expect(fine.status).toBe(200);
  });
});
