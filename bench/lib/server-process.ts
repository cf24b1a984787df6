import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  /** Sends a message over the IPC channel and resolves with the first answer starting with `reply`. */
  ask(message: string, reply: string): Promise<string>;
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
    // The IPC channel carries the profiler's start and stop (bench/lib/profiler-hook.ts).
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    // A process group of its own: a terminal's Ctrl-C reaches only the runner, which stops the servers in order and
    // then the stores; the exit hook kills a server the runner could not stop (it crashed, or exited at once).
    detached: true,
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
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
    ask: (message, reply) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${options.name} did not answer "${message}"`)),
          30_000,
        );
        const onMessage = (answer: unknown) => {
          if (typeof answer !== 'string' || !answer.startsWith(reply)) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(answer.slice(reply.length));
        };
        child.on('message', onMessage);
        child.send(message);
      }),
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

/** Linux reports process CPU time in clock ticks of 1/100 s (USER_HZ). */
const TICKS_PER_SECOND = 100;

/**
 * Watches a server process from /proc while a scenario runs: its resident set size (sampled every 100 ms; the report
 * shows the maximum) and the CPU time it used (user + system), which, per request, stays comparable when other work
 * on the machine slows the run down.
 */
export class ProcessSampler {
  private timer: NodeJS.Timeout | null = null;
  private maxKb = 0;
  private cpuAtStart: number | null = null;

  constructor(private readonly pid: number) {}

  static readKb(pid: number): number | null {
    try {
      const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) : null;
    } catch {
      return null;
    }
  }

  /** utime + stime in seconds. */
  static readCpuSeconds(pid: number): number | null {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
    } catch {
      return null;
    }
  }

  start(): void {
    this.maxKb = ProcessSampler.readKb(this.pid) ?? 0;
    this.cpuAtStart = ProcessSampler.readCpuSeconds(this.pid);
    this.timer = setInterval(() => {
      this.maxKb = Math.max(this.maxKb, ProcessSampler.readKb(this.pid) ?? 0);
    }, 100);
  }

  /** Maximum RSS seen (MB) and CPU seconds used; null where /proc is not available. */
  stop(): { rssMb: number | null; cpuSeconds: number | null } {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const last = ProcessSampler.readKb(this.pid);
    const cpu = ProcessSampler.readCpuSeconds(this.pid);
    return {
      rssMb: last === null && this.maxKb === 0 ? null : Math.max(this.maxKb, last ?? 0) / 1024,
      cpuSeconds: cpu === null || this.cpuAtStart === null ? null : cpu - this.cpuAtStart,
    };
  }
}
