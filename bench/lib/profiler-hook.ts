import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

/**
 * Preloaded (`node -r`) into our server by `npm run bench -- --profile`: the first SIGUSR2 starts V8's CPU profiler,
 * the next one stops it and writes BENCH_PROFILE_FILE, so the profile covers exactly the measured load (not start-up
 * or warm-up). SIGUSR1 would open the debugger, hence SIGUSR2.
 */
let session: Session | null = null;

process.on('SIGUSR2', () => {
  if (!session) {
    const started = new Session();
    started.connect();
    started.post('Profiler.enable', () => started.post('Profiler.start'));
    session = started;
    return;
  }
  const running = session;
  session = null;
  running.post('Profiler.stop', (error, result) => {
    if (!error)
      writeFileSync(process.env.BENCH_PROFILE_FILE ?? 'server.cpuprofile', JSON.stringify(result.profile));
    running.disconnect();
  });
});
