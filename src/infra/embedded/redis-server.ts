import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { freePort } from './free-port';

export interface RedisServerHandle {
  /** `redis://127.0.0.1:<port>`, or `rediss://` with TLS; never with the password. */
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
  /** The default user's password (`requirepass`), also the one it presents to its master and cluster peers. */
  password?: string;
  /** ACL users besides the default one, each with every permission. */
  users?: { name: string; password: string }[];
  /** TLS only (no plain port), on the cluster bus and for replication too. */
  tls?: RedisServerTls;
  /**
   * A process group of its own: a terminal's Ctrl-C then reaches only the caller, which stops the server after its
   * app (`npm run dev`, the bench runner). Without it (tests) Ctrl-C stops the server too.
   */
  ownProcessGroup?: boolean;
}

/** PEM files of a TLS redis-server: its certificate (also its client certificate towards peers) and the CA. */
export interface RedisServerTls {
  certFile: string;
  keyFile: string;
  caFile: string;
  /** Require a client certificate signed by the CA (`tls-auth-clients yes`). */
  authClients?: boolean;
}

/** The arguments that secure a redis-server: a password, ACL users, TLS in place of the plain port. */
function securityArgs(options: RedisServerOptions, port: number): string[] {
  const args: string[] = [];
  if (options.password) args.push('--requirepass', options.password, '--masterauth', options.password);
  // An ACL rule is one config line of several words: `user <name> on ><password> ~* &* +@all`.
  for (const user of options.users ?? [])
    args.push('--user', user.name, 'on', `>${user.password}`, '~*', '&*', '+@all');
  const tls = options.tls;
  if (!tls) return ['--port', String(port), ...args];
  return [
    '--port',
    '0',
    '--tls-port',
    String(port),
    '--tls-cert-file',
    tls.certFile,
    '--tls-key-file',
    tls.keyFile,
    '--tls-ca-cert-file',
    tls.caFile,
    '--tls-auth-clients',
    tls.authClients ? 'yes' : 'no',
    '--tls-replication',
    'yes',
    ...(options.clusterDir ? ['--tls-cluster', 'yes'] : []),
    ...args,
  ];
}

/** ioredis options to reach a server started with `options` (as its administrator: the default user). */
export function adminClientOptions(options: Pick<RedisServerOptions, 'password' | 'tls'>): {
  password?: string;
  tls?: { ca: Buffer; cert: Buffer; key: Buffer };
} {
  const tls = options.tls;
  return {
    ...(options.password ? { password: options.password } : {}),
    // The server's own certificate serves as a client certificate too (what its cluster peers present).
    ...(tls
      ? {
          tls: {
            ca: readFileSync(tls.caFile),
            cert: readFileSync(tls.certFile),
            key: readFileSync(tls.keyFile),
          },
        }
      : {}),
  };
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
        // Destroyed, not ended: a TLS port waits for a handshake and never answers a half-close, so an ended socket
        // would stay open (and keep its caller's process busy) until the server times the handshake out.
        socket.destroy();
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
    ...securityArgs(options, port),
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
  const child = spawn('redis-server', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: options.ownProcessGroup === true,
  });
  // Stopped when the caller exits without stopping it (in its own process group no Ctrl-C reaches it).
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
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
    url: `${options.tls ? 'rediss' : 'redis'}://127.0.0.1:${port}`,
    port,
    busPort,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      // The deadline is cleared once the server is gone: a pending timer would keep a test process alive.
      let deadline: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (deadline = setTimeout(r, 5000)))]);
      clearTimeout(deadline);
      if (child.exitCode === null) child.kill('SIGKILL');
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
  /** A password, ACL users and TLS for every node (cluster bus and replication included). */
  security?: Pick<RedisServerOptions, 'password' | 'users' | 'tls'>;
}): Promise<RedisClusterHandle> {
  const masters = options.masters ?? 3;
  const security = options.security ?? {};
  const servers = await Promise.all(
    Array.from({ length: masters }, () => startRedisServer({ ...security, clusterDir: options.dir })),
  );
  const stop = async () => {
    await Promise.allSettled(servers.map((s) => s.stop()));
  };
  const clients = servers.map(
    (s) =>
      new Redis(s.port, '127.0.0.1', {
        lazyConnect: true,
        maxRetriesPerRequest: 0,
        ...adminClientOptions(security),
      }),
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
      servers[index] = await startRedisServer({
        ...security,
        port,
        busPort: old.busPort,
        clusterDir: options.dir,
      });
    },
    stop,
  };
}
