import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';

/**
 * Preloaded (`node -r`) into our server by the benchmark; it changes nothing until the runner asks over the IPC
 * channel. 'profile:start' / 'profile:stop:<file>' run V8's CPU profiler around exactly the measured load (not start-up
 * or warm-up) and write it to the file; 'memory' answers where the resident memory is (heap spaces, external);
 * 'heap:snapshot' writes a heap snapshot and answers its file name.
 * (Signals are taken: Nest's shutdown hooks listen to SIGUSR2, and SIGUSR1 opens the debugger.)
 */
let session: Session | null = null;

/** V8's protocol takes the two `include…` flags (garbage counts too); Node's types do not list them yet. */
const SAMPLING = {
  samplingInterval: 16384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as { samplingInterval: number };

// The channel must not keep a stopping server alive.
process.channel?.unref();

const mb = (bytes: number) => Math.round(bytes / 1048576);

process.on('message', (message: unknown) => {
  if (message === 'memory') {
    const usage = process.memoryUsage();
    const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, mb(s.space_size)]));
    process.send?.(
      `memory:${JSON.stringify({ rss: mb(usage.rss), heapTotal: mb(usage.heapTotal), heapUsed: mb(usage.heapUsed), external: mb(usage.external), arrayBuffers: mb(usage.arrayBuffers), spaces })}`,
    );
  } else if (message === 'heap:snapshot') {
    process.send?.(`heap:${writeHeapSnapshot(process.env.BENCH_HEAP_SNAPSHOT ?? undefined)}`);
  } else if (message === 'profile:start' && !session) {
    const started = new Session();
    started.connect();
    // The allocation profile beside it: sampled every 16 KB allocated, objects kept or not (issue 30 item 2 asks what
    // a request allocates, which the garbage collector then pays for).
    started.post('HeapProfiler.startSampling', SAMPLING, () =>
      started.post('Profiler.enable', () =>
        started.post('Profiler.start', () => process.send?.('profile:started')),
      ),
    );
    session = started;
  } else if (typeof message === 'string' && message.startsWith('profile:stop:') && session) {
    const file = message.slice('profile:stop:'.length);
    const running = session;
    session = null;
    running.post('Profiler.stop', (error, result) => {
      if (!error) writeFileSync(file, JSON.stringify(result.profile));
      running.post('HeapProfiler.stopSampling', (heapError, heap) => {
        if (!heapError)
          writeFileSync(file.replace(/\.cpuprofile$/, '.heapprofile'), JSON.stringify(heap.profile));
        running.disconnect();
        process.send?.('profile:written');
      });
    });
  }
});
