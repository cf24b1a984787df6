import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

async function waitUntilServing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`did not answer ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Starts a server as its own process (never in the load generator's process), logging to `logFile`, and resolves
 * once `readyPath` answers. `nodeArgs` lets a run preload the profiler hook.
 */
export async function startServerProcess(options: {
  name: string;
  script: string;
  url: string;
  readyPath: string;
  env: Record<string, string>;
  logFile: string;
  nodeArgs?: string[];
}): Promise<ServerProcess> {
  mkdirSync(dirname(options.logFile), { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'w' });
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = exitOf(child);
  try {
    await waitUntilServing(`${options.url}${options.readyPath}`, child, 60_000);
  } catch (e) {
    child.kill('SIGKILL');
    await exited;
    const tail = readFileSync(options.logFile, 'utf8').split('\n').slice(-30).join('\n');
    throw new Error(`${options.name} ${(e as Error).message}; last log lines:\n${tail}`, { cause: e });
  }
  return {
    name: options.name,
    pid: child.pid as number,
    url: options.url,
    stop: async () => {
      if (child.exitCode === null) {
        // A server that hangs on shutdown is killed.
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      log.end();
    },
  };
}

/** Samples a process's resident set size from /proc while a scenario runs; the report shows the maximum. */
export class RssSampler {
  private timer: NodeJS.Timeout | null = null;
  private maxKb = 0;

  constructor(private readonly pid: number) {}

  static readKb(pid: number): number | null {
    try {
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) : null;
    } catch {
      return null;
    }
  }

  start(): void {
    this.maxKb = RssSampler.readKb(this.pid) ?? 0;
    this.timer = setInterval(() => {
      this.maxKb = Math.max(this.maxKb, RssSampler.readKb(this.pid) ?? 0);
    }, 100);
  }

  /** Maximum RSS seen, in MB; null where /proc is not available. */
  stop(): number | null {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const last = RssSampler.readKb(this.pid);
    if (last === null && this.maxKb === 0) return null;
    return Math.max(this.maxKb, last ?? 0) / 1024;
  }
}
