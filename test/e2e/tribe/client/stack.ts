import { spawn, type ChildProcess } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { createDatabase } from '../../../../src/infra/database/database';
import { migrateToLatest } from '../../../../src/infra/database/migrator';
import { startDevStack, type DevStack } from '../../../../src/infra/embedded/dev-stack';
import { freePort } from '../../../../src/infra/embedded/free-port';

const ROOT = resolve(__dirname, '../../../..');

export interface Replica {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface ServerStack {
  stores: DevStack;
  replicas: Replica[];
  stop(): Promise<void>;
}

/**
 * Our servers as a self-hoster runs them, on stores of their own: an embedded PostgreSQL and a redis-server in a
 * temporary directory, migrated, and replicas of the production entry (`src/main.ts`, TypeScript loaded on the fly)
 * that share them, each with its port and, for the first, the Tribe port the client was built for.
 */
export async function startServers(options: {
  replicas: { name: string; port?: number; tribePort?: number }[];
  log: (line: string) => void;
}): Promise<ServerStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tribe-client-stores-'));
  const stores = await startDevStack({ dataDir });
  const replicas: Replica[] = [];
  const stop = async () => {
    for (const replica of replicas.reverse()) await replica.stop();
    await stores.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const db = createDatabase({ url: stores.databaseUrl, poolMax: 1 });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    const configFile = join(dataDir, 'server-config.json');
    writeFileSync(configFile, JSON.stringify({ tribe: { mode: 'enabled' } }));
    for (const spec of options.replicas) {
      replicas.push(await startReplica(spec, stores, configFile, options.log));
    }
    return { stores, replicas, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

async function startReplica(
  spec: { name: string; port?: number; tribePort?: number },
  stores: DevStack,
  configFile: string,
  log: (line: string) => void,
): Promise<Replica> {
  const port = spec.port ?? (await freePort());
  const child = spawn(
    process.execPath,
    ['--require', join(ROOT, 'test/support/ts-register.js'), join(ROOT, 'src/main.ts')],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        MODE: 'dev',
        AUTH_PROVIDER: 'none',
        HOST: '127.0.0.1',
        PORT: String(port),
        ...(spec.tribePort ? { TRIBE_PORT: String(spec.tribePort) } : {}),
        DATABASE_URL: stores.databaseUrl,
        REDIS_URL: stores.redisUrl,
        SERVER_CONFIG_FILE: configFile,
        JOBS_ENABLED: 'false',
        LOG_LEVEL: 'warn',
        SHUTDOWN_GRACE_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`replica ${spec.name} exited during start: ${output.trim()}`);
    try {
      if ((await fetch(`${url}/`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`replica ${spec.name} did not answer within 60 s: ${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  log(
    `replica ${spec.name}: pid ${child.pid}, API ${url}${spec.tribePort ? `, Tribe port ${spec.tribePort}` : ''}`,
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    name: spec.name,
    url,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
};

/** Serves a built client directory as its hosting does: files as they are, every other path its `index.html`. */
export async function serveClient(
  dir: string,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const root = resolve(dir);
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] as string);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) {
      response.writeHead(403).end();
      return;
    }
    if (!existsSync(file) || statSync(file).isDirectory()) {
      const page = join(file, 'index.html');
      file = existsSync(page) ? page : join(root, 'index.html');
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://localhost:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
