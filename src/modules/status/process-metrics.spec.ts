import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { collectDefaultMetrics, Registry } from 'prom-client';
import eventLoopLag from 'prom-client/lib/metrics/eventLoopLag';
import gc from 'prom-client/lib/metrics/gc';
import { collectProcessMetrics, SCRAPE_TIME_COLLECTORS } from './process-metrics';

/** A full garbage collection, as jest's own leak detector gets one (no `--expose-gc` needed). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('collectProcessMetrics', () => {
  it('covers every collector of collectDefaultMetrics (a prom-client upgrade that adds one fails here)', () => {
    expect(Object.keys(SCRAPE_TIME_COLLECTORS).concat('eventLoopLag', 'gc').sort()).toEqual(
      [...collectDefaultMetrics.metricsList].sort(),
    );
  });

  it("registers prom-client's default metric names", async () => {
    const registry = new Registry();
    const stop = collectProcessMetrics(registry);
    try {
      const expected = [...Object.values(SCRAPE_TIME_COLLECTORS), eventLoopLag, gc].flatMap(
        (c) => c.metricNames,
      );
      const names = (await registry.getMetricsAsJSON()).map((m) => m.name);
      expect(names.sort()).toEqual([...new Set(expected)].sort());
      const text = await registry.metrics();
      expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
      expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    } finally {
      stop();
    }
  });

  it('times garbage collections by kind', async () => {
    const registry = new Registry();
    const stop = collectProcessMetrics(registry);
    try {
      collectGarbage();
      // Performance entries reach observers asynchronously.
      await tick();
      await tick();
      expect(await registry.getSingleMetricAsString('nodejs_gc_duration_seconds')).toMatch(
        /^nodejs_gc_duration_seconds_count\{kind="major"\} [1-9]/m,
      );
    } finally {
      stop();
    }
  });

  it('once stopped, leaves nothing that keeps its metrics reachable', async () => {
    const gcHistogram = (() => {
      const registry = new Registry();
      collectProcessMetrics(registry)();
      return new WeakRef(registry.getSingleMetric('nodejs_gc_duration_seconds')!);
    })();
    await tick();
    collectGarbage();
    expect(gcHistogram.deref()).toBeUndefined();
  });
});
