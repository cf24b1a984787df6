import { constants, createHistogram, PerformanceObserver } from 'node:perf_hooks';
import { Gauge, Histogram, type Registry } from 'prom-client';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal';
import processHandles from 'prom-client/lib/metrics/processHandles';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors';
import processRequests from 'prom-client/lib/metrics/processRequests';
import processResources from 'prom-client/lib/metrics/processResources';
import processStartTime from 'prom-client/lib/metrics/processStartTime';
import version from 'prom-client/lib/metrics/version';

/**
 * prom-client's default collectors that read everything when scraped and hold nothing in between. The two it also
 * has that hold something (`gc`, `eventLoopLag`) are replaced below: see `collectProcessMetrics`.
 */
export const SCRAPE_TIME_COLLECTORS = {
  processCpuTotal,
  processStartTime,
  osMemoryHeap,
  processOpenFileDescriptors,
  processMaxFileDescriptors,
  processResources,
  processHandles,
  processRequests,
  heapSizeAndUsed,
  heapSpacesSizeAndUsed,
  version,
};

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** The event loop delay's sampling interval, ms (prom-client's default). */
const EVENT_LOOP_RESOLUTION_MS = 10;

/**
 * prom-client's default metrics (the same names, help and labels as `collectDefaultMetrics`), registered on
 * `registry`; the returned function stops what keeps running between scrapes.
 *
 * `collectDefaultMetrics` starts a GC `PerformanceObserver` and an event-loop-delay monitor and offers no way to
 * stop either (prometheus/client_js#494, #500). The observer sits in Node's process-wide observer list, and through
 * its callback keeps the whole application that registered it reachable after `app.close()`: one application per
 * process in production, but the test suite builds hundreds in one process, and every one stayed in memory (issue 24).
 * So those two are ours here, stopped when the application closes.
 */
export function collectProcessMetrics(registry: Registry): () => void {
  for (const collect of Object.values(SCRAPE_TIME_COLLECTORS)) collect(registry, {});
  const stopGc = collectGcDuration(registry);
  const stopEventLoop = collectEventLoopLag(registry);
  return () => {
    stopGc();
    stopEventLoop();
  };
}

function collectGcDuration(registry: Registry): () => void {
  const histogram = new Histogram({
    name: 'nodejs_gc_duration_seconds',
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'] as const,
    buckets: [0.001, 0.01, 0.1, 1, 2, 5],
    registers: [registry],
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const detail = (entry as { detail?: { kind?: number } }).detail;
      const kind = GC_KINDS[detail?.kind ?? -1] ?? 'unknown';
      histogram.observe({ kind }, entry.duration / 1000);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/**
 * The event loop's delay, sampled as `monitorEventLoopDelay` does (the time between two runs of a timer due every
 * EVENT_LOOP_RESOLUTION_MS, the resolution included), by a timer of ours into a plain histogram. Node's own monitor
 * is an async resource that keeps the async context it was created in (an AsyncLocalStorage store, such as the one
 * jest runs each test hook in), and on Node 20 it stayed in memory after `disable()` (still there 40 s later in the
 * leak guard's reruns): test files that built an application were kept with it (docs/DEVELOPMENT.md "Test memory").
 * A cleared timer and a histogram that is no async resource leave nothing behind.
 */
function collectEventLoopLag(registry: Registry): () => void {
  const delays = createHistogram();
  let last = process.hrtime.bigint();
  const sampler = setInterval(() => {
    const now = process.hrtime.bigint();
    delays.record(now - last);
    last = now;
  }, EVENT_LOOP_RESOLUTION_MS);
  sampler.unref();
  const seconds = (ns: number) => ns / 1e9;
  const summary = [
    ['min', 'The minimum recorded event loop delay.', () => delays.min],
    ['max', 'The maximum recorded event loop delay.', () => delays.max],
    ['mean', 'The mean of the recorded event loop delays.', () => delays.mean],
    ['stddev', 'The standard deviation of the recorded event loop delays.', () => delays.stddev],
    ['p50', 'The 50th percentile of the recorded event loop delays.', () => delays.percentile(50)],
    ['p90', 'The 90th percentile of the recorded event loop delays.', () => delays.percentile(90)],
    ['p99', 'The 99th percentile of the recorded event loop delays.', () => delays.percentile(99)],
  ] as const;
  for (const [suffix, help, read] of summary) {
    new Gauge({
      name: `nodejs_eventloop_lag_${suffix}_seconds`,
      help,
      registers: [registry],
      collect() {
        this.set(seconds(read()));
      },
    });
  }
  new Gauge({
    name: 'nodejs_eventloop_lag_seconds',
    help: 'Lag of event loop in seconds.',
    registers: [registry],
    // How long a callback queued now waits for its turn: measured during the scrape.
    async collect() {
      const start = process.hrtime.bigint();
      await new Promise((resolve) => setImmediate(resolve));
      this.set(seconds(Number(process.hrtime.bigint() - start)));
    },
  });
  return () => clearInterval(sampler);
}
