import { AsyncLocalStorage } from 'node:async_hooks';
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

  it('once stopped, keeps nothing of the async context it was started in', async () => {
    // jest runs every hook in an AsyncLocalStorage whose store belongs to the test file: whatever of ours outlives the
    // stop while holding that store (a timer not cleared, Node's event-loop-delay monitor) keeps the whole file.
    const storage = new AsyncLocalStorage<object>();
    const store = (() => {
      const value = { file: 'of the caller' };
      storage.run(value, () => collectProcessMetrics(new Registry())());
      return new WeakRef(value);
    })();
    await tick();
    collectGarbage();
    expect(store.deref()).toBeUndefined();
    storage.disable();
  });

  it("reports the event loop's delay from its samples, the resolution included (as prom-client does)", async () => {
    const registry = new Registry();
    const stop = collectProcessMetrics(registry);
    try {
      await new Promise((resolve) => setTimeout(resolve, 60));
      const value = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]!.value;
      const min = await value('nodejs_eventloop_lag_min_seconds');
      expect(min).toBeGreaterThanOrEqual(0.009);
      expect(min).toBeLessThan(1);
      expect(await value('nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(min);
      expect(await value('nodejs_eventloop_lag_p50_seconds')).toBeGreaterThanOrEqual(min);
      expect(await value('nodejs_eventloop_lag_mean_seconds')).toBeGreaterThanOrEqual(min);
    } finally {
      stop();
    }
  });
});
