import { spawn, spawnSync } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './free-port';

export interface RedisServerHandle {
  url: string;
  port: number;
  /** The cluster bus port (cluster mode only). */
  busPort?: number;
  stop(): Promise<void>;
}

export interface RedisServerOptions {
  /** Directory for the append-only file; omit for a purely in-memory server. */
  dataDir?: string;
  port?: number;
  databases?: number;
  /** Start in cluster mode, keeping the node's cluster state file (`nodes.conf`) in this directory. */
  clusterDir?: string;
  /** Cluster bus port (cluster mode; a free one by default): a restarted node takes its old one again. */
  busPort?: number;
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
  let busPort: number | undefined;
  if (options.clusterDir) {
    const dir = resolve(options.clusterDir);
    await mkdir(dir, { recursive: true });
    // The cluster bus gets its own free port: the default (port + 10000) may be taken or beyond 65535.
    busPort = options.busPort ?? (await freePort());
    args.push(
      '--cluster-enabled',
      'yes',
      '--cluster-port',
      String(busPort),
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
    );
  }
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
    busPort,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      // Cleared once the server is gone: a pending 5 s timer would keep the caller's process (jest's, after the
      // global teardown) alive that long.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface RedisClusterHandle {
  nodes: { host: string; port: number }[];
  /** Stops one master (an outage of its slots; fault tests). */
  stopNode(port: number): Promise<void>;
  /** Starts a stopped master again, empty, with its old identity and slots (its `nodes.conf`). */
  restartNode(port: number): Promise<void>;
  stop(): Promise<void>;
}

/** Slots of a Redis Cluster (0..16383). */
const CLUSTER_SLOTS = 16384;

/**
 * A local Redis Cluster of `masters` in-memory `redis-server` processes (no replicas), for tests: the nodes meet,
 * each takes an equal range of slots (`CLUSTER ADDSLOTSRANGE`, Redis >= 7), and the start waits for every node to
 * report `cluster_state:ok`. Only `redis-server` is needed (no `redis-cli --cluster create`).
 */
export async function startRedisCluster(options: {
  masters?: number;
  dir: string;
}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const servers = await Promise.all(
    Array.from({ length: masters }, () => startRedisServer({ clusterDir: options.dir })),
  );
  const stop = async () => {
    await Promise.allSettled(servers.map((s) => s.stop()));
  };
  const clients = servers.map(
    (s) => new Redis(s.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 }),
  );
  try {
    await Promise.all(clients.map((c) => c.connect()));
    // Every node meets the first (on its own bus port); gossip introduces the others to each other.
    const first = servers[0]!;
    await Promise.all(
      clients
        .slice(1)
        .map((c) => c.call('CLUSTER', 'MEET', '127.0.0.1', String(first.port), String(first.busPort))),
    );
    const per = Math.ceil(CLUSTER_SLOTS / masters);
    await Promise.all(
      clients.map((c, i) =>
        c.call(
          'CLUSTER',
          'ADDSLOTSRANGE',
          String(i * per),
          String(Math.min(CLUSTER_SLOTS, (i + 1) * per) - 1),
        ),
      ),
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      const infos = await Promise.all(clients.map((c) => c.call('CLUSTER', 'INFO') as Promise<string>));
      if (
        infos.every(
          (info) => info.includes('cluster_state:ok') && info.includes(`cluster_known_nodes:${masters}`),
        )
      )
        break;
      if (Date.now() > deadline) throw new Error(`Redis Cluster did not become ready: ${infos.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    await stop();
    throw e;
  } finally {
    for (const c of clients) c.disconnect();
  }
  return {
    nodes: servers.map((s) => ({ host: '127.0.0.1', port: s.port })),
    stopNode: async (port) => servers.find((s) => s.port === port)?.stop(),
    restartNode: async (port) => {
      const index = servers.findIndex((s) => s.port === port);
      const old = servers[index];
      if (!old) throw new Error(`no cluster node on port ${port}`);
      servers[index] = await startRedisServer({ port, busPort: old.busPort, clusterDir: options.dir });
    },
    stop,
  };
}
