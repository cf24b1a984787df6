import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../../src/infra/embedded/free-port';
import { openedByTest } from './file-resources';

export interface AppProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown hooks, no drained requests, as a crashed or OOM-killed server. */
  kill(): Promise<void>;
}

const ROOT = resolve(__dirname, '../..');

/**
 * The production entry (`src/main.ts`) in a child Node process, configured from the environment only, listening on
 * a free port; resolves once `GET /` answers.
 */
export async function startAppProcess(env: Record<string, string>, port?: number): Promise<AppProcess> {
  const listenPort = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    ['--require', resolve(ROOT, 'test/support/ts-register.js'), resolve(ROOT, 'src/main.ts')],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env, PORT: String(listenPort), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start: ${stderr.trim()}`);
    try {
      if ((await fetch(`${url}/`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 30 s: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const closed = openedByTest('server process (startAppProcess)', kill);
  return {
    url,
    child,
    async kill() {
      closed();
      await kill();
    },
  };
}
