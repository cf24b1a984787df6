// The container engine and the compose command: use a running Docker engine, or start dockerd (as root) with its log
// in a file; find `docker compose` (v2) or Debian's `docker-compose` (v1).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { hasCommand, run, sleep } from './run.mjs';

const ENGINE_START_TIMEOUT_MS = 60_000;

async function serverVersion() {
  const info = await run('docker', ['version', '--format', '{{.Server.Version}}'], {
    timeoutMs: 20_000,
  }).catch(() => null);
  return info && info.code === 0 ? info.stdout.trim() : null;
}

/** The last line of dockerd's log that says why it stopped (its `level=fatal` or `failed to start` line). */
function whyDockerdFailed(logFile) {
  const lines = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().split('\n') : [];
  const fatal = lines.filter((l) => /level=(fatal|error)|failed to start|permission denied/i.test(l)).pop();
  const line = (fatal ?? lines.pop() ?? 'no output').replace(/^time="[^"]*" /, '');
  return line.length > 240 ? `${line.slice(0, 240)}…` : line;
}

/**
 * Returns { ok: true, started, pid, version } once `docker` reaches an engine, or { ok: false, reason } with the
 * one-line reason no engine can be had here.
 */
export async function ensureEngine(logFile) {
  if (!(await hasCommand('docker'))) {
    return { ok: false, reason: 'no docker command (Debian: apt-get install -y docker.io)' };
  }
  const running = await serverVersion();
  if (running) return { ok: true, started: false, version: running };
  if (process.env.DOCKER_HOST) {
    return { ok: false, reason: `the engine at DOCKER_HOST=${process.env.DOCKER_HOST} does not answer` };
  }
  // Debian puts dockerd in /usr/sbin, which a non-login PATH may lack.
  const dockerd = (await hasCommand('dockerd'))
    ? 'dockerd'
    : existsSync('/usr/sbin/dockerd')
      ? '/usr/sbin/dockerd'
      : null;
  if (!dockerd) {
    return {
      ok: false,
      reason: 'no engine running and no dockerd to start (Debian: apt-get install -y docker.io)',
    };
  }
  if (process.getuid?.() !== 0) {
    return { ok: false, reason: 'no engine running, and starting dockerd needs root' };
  }
  const fd = openSync(logFile, 'a');
  const daemon = spawn(dockerd, [], { detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  let exited = null;
  daemon.on('exit', (code, signal) => (exited = signal ?? code));
  daemon.unref();
  const deadline = Date.now() + ENGINE_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await sleep(500);
    if (exited !== null) {
      return {
        ok: false,
        reason: `dockerd exited (${exited}): ${whyDockerdFailed(logFile)} (log: ${logFile})`,
      };
    }
    const version = await serverVersion();
    if (version) return { ok: true, started: true, pid: daemon.pid, version };
  }
  process.kill(daemon.pid, 'SIGTERM');
  return {
    ok: false,
    reason: `dockerd did not answer within 60 s: ${whyDockerdFailed(logFile)} (log: ${logFile})`,
  };
}

/**
 * Stops the dockerd this run started, unless containers it did not create run on it (another user of the engine):
 * then it is left running. Returns a line saying which.
 */
export async function releaseEngine(engine) {
  if (!engine.started) return 'engine: left as found (it was already running)';
  const others = await run('docker', ['ps', '-aq']);
  if (others.stdout.trim() !== '')
    return `engine: dockerd (pid ${engine.pid}) left running: containers of others use it`;
  process.kill(engine.pid, 'SIGTERM');
  for (let i = 0; i < 60; i++) {
    await sleep(500);
    try {
      process.kill(engine.pid, 0);
    } catch {
      return `engine: dockerd (pid ${engine.pid}) stopped`;
    }
  }
  return `engine: dockerd (pid ${engine.pid}) did not stop within 30 s`;
}

/** ['docker', 'compose'] (v2), ['docker-compose'] (v1) or COMPOSE from the environment; null when none works. */
export async function findCompose() {
  const candidates = process.env.COMPOSE
    ? [process.env.COMPOSE.split(' ').filter(Boolean)]
    : [['docker', 'compose'], ['docker-compose']];
  for (const command of candidates) {
    const probe = await run(command[0], [...command.slice(1), 'version'], { timeoutMs: 30_000 }).catch(
      () => null,
    );
    if (probe && probe.code === 0) {
      const version = probe.stdout.match(/v?(\d+\.\d+\.\d+)/)?.[1] ?? 'unknown';
      return { command, version, label: `${command.join(' ')} ${version}` };
    }
  }
  return null;
}
