// The drain test: `docker stop` sends SIGTERM through tini to Node; /readyz must turn 503 while requests are still
// served (the load balancer's cue), then the process must finish, log "shutdown complete" and exit 0 before the
// grace period of compose.yml runs out (after which Docker would SIGKILL it: exit 137).
import { expect } from './checks.mjs';
import { must, run, seconds, sleep } from './run.mjs';

/** docker stop: /readyz turns 503 while requests are still served, then the process exits 0 within the grace. */
export async function drain(checks, { api, request, dc }) {
  const config = (await dc(['config'])).stdout;
  const grace = Number(config.match(/stop_grace_period: (\d+)s/)?.[1] ?? 10);
  const stopTimeout = (
    await must('docker', ['inspect', '--format', '{{.Config.StopTimeout}}', api])
  ).stdout.trim();
  const started = Date.now();
  const stopping = run('docker', ['stop', '--time', String(grace), api]);
  let draining = null;
  let served = null;
  while (Date.now() - started < 4_000 && (draining === null || served === null)) {
    try {
      const ready = await request('GET', '/readyz', { timeoutMs: 1_000 });
      if (ready.status === 503) draining ??= ready.body.message;
      if (draining) served ??= (await request('GET', '/configuration', { timeoutMs: 2_000 })).status;
    } catch {
      // not listening yet or any more
    }
    await sleep(100);
  }
  const stop = await stopping;
  const ms = Date.now() - started;
  const state = (
    await must('docker', ['inspect', '--format', '{{.State.ExitCode}} {{.State.OOMKilled}}', api])
  ).stdout.trim();
  const [exitCode] = state.split(' ');
  const logs = await run('docker', ['logs', api]);
  await checks.check(
    'docker stop: /readyz answers 503 while draining and requests are still served',
    async () => {
      expect(draining === 'Not ready: draining', `readyz during the grace: ${draining}`);
      expect(served === 200, `GET /configuration during the grace: ${served}`);
    },
  );
  await checks.check(
    `docker stop: the API drains and exits 0 within the grace period (${grace} s)`,
    async () => {
      expect(stop.code === 0, `docker stop exited ${stop.code}: ${stop.stderr}`);
      expect(exitCode === '0', `exit code ${state}`);
      expect(ms < grace * 1000, `took ${seconds(ms)}`);
      expect(
        `${logs.stdout}${logs.stderr}`.includes('shutdown complete'),
        'no "shutdown complete" in its log',
      );
      return `exit 0 after ${seconds(ms)}`;
    },
  );
  return `exit ${exitCode} in ${seconds(ms)} (grace ${grace} s, StopTimeout ${stopTimeout})`;
}
