import { performance } from 'node:perf_hooks';
import { createTestApp, type TestApp } from '../../support/test-app';

const SLOWDOWN_MS = 400;

async function elapsedMs(t: TestApp, url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await t.request('GET', url);
  return { status: res.status, ms: performance.now() - started };
}

describe('dev.responseSlowdownMs (contract facts §1.2a)', () => {
  describe('MODE=dev', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ mode: 'dev', configuration: { dev: { responseSlowdownMs: SLOWDOWN_MS } } });
    });
    afterAll(() => t.close());

    it('delays every response, unknown routes included, by the configured time', async () => {
      for (const url of ['/', '/psas', '/nowhere']) {
        const { status, ms } = await elapsedMs(t, url);
        expect(status).not.toBe(500);
        // Timers never fire early; a millisecond of slack for clock rounding.
        expect(ms).toBeGreaterThanOrEqual(SLOWDOWN_MS - 1);
      }
    });

    it('follows a configuration change and costs nothing at 0', async () => {
      await t.configure({ dev: { responseSlowdownMs: 0 } });
      try {
        const { status, ms } = await elapsedMs(t, '/');
        expect(status).toBe(200);
        expect(ms).toBeLessThan(SLOWDOWN_MS);
      } finally {
        await t.configure({ dev: { responseSlowdownMs: SLOWDOWN_MS } });
      }
    });
  });

  describe('production', () => {
    let t: TestApp;
    // Long enough that a delay could not hide in the noise of a busy machine.
    const CONFIGURED_MS = 5_000;
    beforeAll(async () => {
      t = await createTestApp({ configuration: { dev: { responseSlowdownMs: CONFIGURED_MS } } });
    });
    afterAll(() => t.close());

    it('ignores the setting: it only applies with MODE=dev', async () => {
      const { status, ms } = await elapsedMs(t, '/');
      expect(status).toBe(200);
      expect(ms).toBeLessThan(CONFIGURED_MS);
    });
  });
});
