import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { resolve } from 'node:path';
import { freePort } from './free-port';

export interface RedisServerHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** Directory for the append-only file; omit for a purely in-memory server. */
  dataDir?: string;
  port?: number;
  databases?: number;
}

export function redisServerAvailable(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolvePromise, reject) => {
    const attempt = () => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.end();
        resolvePromise();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline)
          reject(new Error(`redis-server did not listen on ${port} within ${timeoutMs} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Starts the system's `redis-server` on a free loopback port. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerHandle> {
  if (!redisServerAvailable()) {
    throw new Error(
      'redis-server was not found on PATH. Install it (Debian: apt-get install -y redis-server) or set REDIS_URL.',
    );
  }
  const port = options.port ?? (await freePort());
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--databases',
    String(options.databases ?? 16),
  ];
  if (options.dataDir) {
    const dir = resolve(options.dataDir);
    await mkdir(dir, { recursive: true });
    args.push('--dir', dir, '--appendonly', 'yes');
  } else {
    args.push('--appendonly', 'no');
  }
  const child = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    await Promise.race([
      waitForPort(port, 10_000),
      exited.then(() => Promise.reject(new Error(`redis-server exited early: ${stderr.trim()}`))),
    ]);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
