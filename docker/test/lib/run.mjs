// Process helpers of the container test: run a command (output to the run's log, or captured), time things, log.
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';

const started = Date.now();

/** Seconds since the test started, for the progress lines. */
export function elapsed() {
  return ((Date.now() - started) / 1000).toFixed(1).padStart(6);
}

export function say(line) {
  process.stdout.write(`[${elapsed()}s] ${line}\n`);
}

export const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a command; resolves with { code, stdout, stderr, ms }. Never rejects on a non-zero exit (callers decide),
 * only when the command cannot be started. `log`: also append its output to this file. `input`: written to stdin.
 */
export function run(command, args, options = {}) {
  const { env, cwd, log, input, timeoutMs } = options;
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(command, args, {
      cwd,
      env: env ? { ...process.env, ...env } : process.env,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const sink = (chunk) => {
      if (log) appendFileSync(log, chunk);
    };
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      sink(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      sink(chunk);
    });
    if (input !== undefined) child.stdin.end(input);
    const timer = timeoutMs ? setTimeout(() => child.kill('SIGKILL'), timeoutMs) : null;
    child.on('error', (e) => {
      if (timer) clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** Like run, but a non-zero exit is an error carrying the command's last output lines. */
export async function must(command, args, options = {}) {
  const result = await run(command, args, options);
  if (result.code !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${tail}`);
  }
  return result;
}

/** True when `command --version` (or the given args) runs. */
export async function hasCommand(command, args = ['--version']) {
  try {
    return (await run(command, args, { timeoutMs: 20_000 })).code === 0;
  } catch {
    return false;
  }
}
