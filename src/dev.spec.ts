import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './infra/embedded/free-port';

/** The processes whose parent is `pid`, with their command names (from /proc). */
function childrenOf(pid: number): { pid: number; name: string }[] {
  const out: { pid: number; name: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid)
        out.push({ pid: Number(entry), name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => T | undefined | false): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// `npm run dev` in a terminal: Ctrl-C sends SIGINT to the whole foreground process group. The dev entry runs here as
// the leader of a group of its own (as a shell makes it), through the tests' TypeScript hook.
describe('npm run dev stops cleanly on Ctrl-C', () => {
  let root: string;
  let dev: ChildProcess | undefined;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'dev-stop-'));
    // Reachable by the postgres user when the tests run as root.
    chmodSync(root, 0o755);
  });
  afterAll(() => {
    if (dev?.pid && dev.exitCode === null && dev.signalCode === null) process.kill(-dev.pid, 'SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  it('closes the app before PostgreSQL and redis-server stop, and leaves neither running', async () => {
    const port = await freePort();
    dev = spawn(
      process.execPath,
      ['-r', resolve(__dirname, '../test/support/ts-register.js'), resolve(__dirname, 'dev.ts')],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? root,
          DEV_DATA_DIR: root,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_PRETTY: 'false',
          LOG_LEVEL: 'info',
        },
      },
    );
    let output = '';
    dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((r) => dev?.once('exit', (code) => r(code)));
    const pid = dev.pid as number;

    await waitFor('the dev server', 110_000, () => {
      if (dev?.exitCode !== null) throw new Error(`dev exited early (${dev?.exitCode}): ${output}`);
      return output.includes('Press Ctrl-C to stop.');
    });
    const stores = childrenOf(pid).filter((p) => p.name === 'postgres' || p.name === 'redis-server');
    expect(stores.map((p) => p.name).sort()).toEqual(['postgres', 'redis-server']);
    // Connections in the pool and a Redis client in use, as after a few requests.
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);

    process.kill(-pid, 'SIGINT');
    const code = await Promise.race([
      exited,
      new Promise<'hung'>((r) => setTimeout(() => r('hung'), 60_000).unref()),
    ]);

    expect({ code, stoppedStores: stores.filter((p) => alive(p.pid)) }).toEqual({
      code: 0,
      stoppedStores: [],
    });
    expect(output).toContain('request completed'); // the app's log lines are in `output`
    expect(output).toContain('Stopping ...');
    const trouble = output
      .split('\n')
      .filter((line) => /pool error|degraded mode|redis client error|terminating connection/i.test(line));
    expect(trouble).toEqual([]);
  }, 180_000);
});
