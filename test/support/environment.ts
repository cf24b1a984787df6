import type { ChildProcess } from 'node:child_process';
import { Server, Socket } from 'node:net';
import { basename, join, relative } from 'node:path';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TestEnvironment } from 'jest-environment-node';
import type { FileResource, FileResources } from './file-resources';

/**
 * Jest's node environment, plus a check when each test file ends that it left nothing behind. On two cores jest runs
 * every file of `npm test` in one process, one after the other: anything a file leaves open (an app, a pool, a
 * client, a server, an observer in a process-wide list) keeps that file's whole module graph in memory until the run
 * ends, and the run outgrew Node's default heap that way (issue 24). A file fails (naming what and where) when:
 *
 * - something it opened through the support code (`createTestApp`, stub servers, proxies, child processes) is still
 *   open after its last `afterAll` (it is closed then, so the next files do not pay for it);
 * - a socket, server or child process that it started still holds the event loop a moment later;
 * - an earlier file of the same process is still in memory well after it ended, after a full garbage collection:
 *   something of it is still referenced from outside it (a global listener, a timer, an unref'd server).
 */
export default class LeakCheckingEnvironment extends TestEnvironment {
  private readonly testPath: string;
  private readonly rootDir: string;
  private readonly releaseGraceMs: number;
  private readonly toleratedRetained: number;
  private handlesBefore = new WeakSet<object>();
  private failed = false;

  constructor(...[config, context]: ConstructorParameters<typeof TestEnvironment>) {
    super(config, context);
    this.testPath = context.testPath;
    this.rootDir = config.globalConfig.rootDir;
    const grace = config.projectConfig.testEnvironmentOptions.releaseGraceMs;
    this.releaseGraceMs = typeof grace === 'number' ? grace : RELEASE_GRACE_MS;
    const tolerated = config.projectConfig.testEnvironmentOptions.toleratedRetainedFiles;
    this.toleratedRetained = typeof tolerated === 'number' ? tolerated : TOLERATED_RETAINED_FILES;
  }

  override async setup(): Promise<void> {
    await super.setup();
    for (const handle of activeHandles()) this.handlesBefore.add(handle);
  }

  async handleTestEvent(event: CircusEvent, state: CircusState): Promise<void> {
    if ((event.name === 'test_done' && (event.test?.errors.length ?? 0) > 0) || event.name === 'hook_failure')
      this.failed = true;
    if (event.name !== 'run_finish') return;
    const left = [...(await this.closeResources()), ...(await this.handlesLeftOpen())];
    if (left.length > 0) {
      state.unhandledErrors.push(
        report(`${this.file()} left open what keeps it in memory for the rest of the run:`, left),
      );
    }
    const retained = await retainedEarlierFiles(this.releaseGraceMs);
    const files = retained.filter((line) => !line.startsWith(SNAPSHOT_LINE));
    if (files.length > 0) {
      retainedSoFar.push(...files);
      const message =
        'An earlier test file is still in memory well after it ended: something outside it still references it ' +
        "(a process-wide listener, observer or timer, an unref'd server). Find it with a heap snapshot " +
        '(docs/DEVELOPMENT.md, "Test memory").';
      // A leak keeps every file; Node itself keeps a few files of a run at most (TOLERATED_RETAINED_FILES): those are
      // told, and the run fails once more are kept than that.
      if (retainedSoFar.length > this.toleratedRetained) {
        const snapshot = retained.filter((line) => line.startsWith(SNAPSHOT_LINE));
        state.unhandledErrors.push(report(message, [...retainedSoFar.splice(0), ...snapshot]));
      } else {
        process.stderr.write(
          `${report(`${message} Tolerated: ${retainedSoFar.length} of ${this.toleratedRetained} this run.`, retained).message}\n`,
        );
      }
    }
    if (state.unhandledErrors.length > 0) this.failed = true;
  }

  override async teardown(): Promise<void> {
    const global = this.global as object | null;
    await super.teardown();
    // A failed file's errors stay referenced by jest's results: only clean files are watched for staying in memory.
    if (this.failed || !global) return;
    // Names the file in a heap snapshot: what retains it retains its global, which holds this.
    Object.defineProperty(global, Symbol('retained test file'), { value: new RetainedTestFile(this.file()) });
    watchRelease(this.file(), global);
  }

  private file(): string {
    return relative(this.rootDir, this.testPath);
  }

  private async closeResources(): Promise<string[]> {
    const resources = (this.global as { __TEST_FILE_RESOURCES__?: FileResources }).__TEST_FILE_RESOURCES__;
    if (!resources) return [];
    const problems: string[] = [];
    const left = [...resources.owned];
    for (const resource of left) {
      problems.push(`${resource.what} still open (opened ${this.where(resource)}); close it in afterAll`);
    }
    for (const resource of [...left, ...resources.shared]) {
      await resource.close().catch((e: unknown) => {
        problems.push(`${resource.what} failed to close: ${e instanceof Error ? e.message : String(e)}`);
      });
    }
    resources.owned.clear();
    resources.shared.clear();
    return problems;
  }

  /** The test file's own frames of where a resource was opened (all frames when none is the file's). */
  private where(resource: FileResource): string {
    const frames = resource.openedAt.split('\n').filter((line) => line.trim().startsWith('at '));
    const own = frames.filter((line) => line.includes(this.testPath));
    return (own.length > 0 ? own : frames.slice(1, 4))
      .map((line) => line.trim().replace(`${this.rootDir}/`, ''))
      .join(' ← ');
  }

  /** Sockets, servers and child processes started during the file and still holding the event loop. */
  private async handlesLeftOpen(): Promise<string[]> {
    // Clients and servers that were just closed may need a few turns of the event loop to let go of their sockets.
    const deadline = Date.now() + HANDLE_GRACE_MS;
    for (;;) {
      const left = activeHandles().filter((h) => !this.handlesBefore.has(h));
      if (left.length === 0) return [];
      if (Date.now() >= deadline) return left.map((h) => `${describeHandle(h)} still open`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** How long sockets of clients closed by the last `afterAll` may take to go. */
const HANDLE_GRACE_MS = 2000;

/**
 * How long after its end an earlier file may still be in memory (a pending timer, a socket closing); the test of this
 * environment sets it lower (`testEnvironmentOptions.releaseGraceMs`).
 */
const RELEASE_GRACE_MS = 30_000;

/**
 * How many earlier files may stay in memory in one run before it fails (`testEnvironmentOptions.toleratedRetainedFiles`):
 * on Node 24, Node's own objects kept one or two files of a full run (a heap snapshot shows the path through the
 * prototype map of a core class, e.g. fs's WriteStream, made in that file's context); a leak of ours keeps every file.
 */
const TOLERATED_RETAINED_FILES = 5;

const SNAPSHOT_LINE = 'heap snapshot: ';

/** The files seen retained so far in this process (module state: one per worker process). */
const retainedSoFar: string[] = [];

interface CircusEvent {
  name: string;
  test?: { errors: unknown[] };
}

interface CircusState {
  unhandledErrors: unknown[];
}

function report(title: string, problems: string[]): Error {
  const error = new Error(`${title}\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  // The list is the whole message: no stack of this environment's own frames under it.
  error.stack = '';
  return error;
}

/** The handles holding the event loop (`process._getActiveHandles`, in Node since its early days), stdio aside. */
function activeHandles(): object[] {
  const all = (process as unknown as { _getActiveHandles?: () => object[] })._getActiveHandles?.() ?? [];
  const stdio: unknown[] = [process.stdin, process.stdout, process.stderr];
  return all.filter((h) => !stdio.includes(h));
}

const STORE_PORTS: [string | undefined, string][] = [
  [process.env.TEST_PG_ADMIN_URL, 'PostgreSQL'],
  [process.env.TEST_REDIS_URL, 'Redis'],
];

function storeName(port: number | undefined): string {
  for (const [url, name] of STORE_PORTS) {
    if (url && port !== undefined && new URL(url).port === String(port)) return ` (${name})`;
  }
  const cluster = process.env.TEST_REDIS_CLUSTER_NODES?.split(',') ?? [];
  if (cluster.some((node) => node.endsWith(`:${port}`))) return ' (Redis Cluster node)';
  return '';
}

function describeHandle(handle: object): string {
  if (handle instanceof Socket) {
    if (handle.remotePort !== undefined)
      return `a connection to ${handle.remoteAddress}:${handle.remotePort}${storeName(handle.remotePort)}`;
    // No peer address any more: say what kind and state it is in (a half-closed one waits for its peer's close).
    const kind = (handle as unknown as { _handle?: { constructor?: { name?: string } } })._handle?.constructor
      ?.name;
    const what = kind ? `a ${kind} socket` : 'a socket';
    return handle.writable ? what : `${what} (half-closed: ended, waiting for the peer)`;
  }
  if (handle instanceof Server) {
    const address = handle.address();
    return `a server listening on ${typeof address === 'object' && address ? `${address.address}:${address.port}` : address}`;
  }
  const child = handle as Partial<ChildProcess>;
  if (typeof child.pid === 'number' && Array.isArray(child.spawnargs))
    return `child process ${child.pid} (${child.spawnargs.join(' ')})`;
  return `a ${handle.constructor?.name ?? 'handle'}`;
}

/** A heap snapshot's clue to which file's global it is looking at (see `retainedEarlierFiles`). */
class RetainedTestFile {
  constructor(readonly file: string) {}
}

/** Files of this process that ended cleanly, until they are seen released (module state: one per worker process). */
const ended: { file: string; global: WeakRef<object>; at: number }[] = [];

function watchRelease(file: string, global: object): void {
  ended.push({ file, global: new WeakRef(global), at: Date.now() });
}

let gc: (() => void) | undefined;

/** A full garbage collection, obtained as jest's own leak detector does it (no `--expose-gc` on the command line). */
function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Earlier files (ended over `graceMs` ago) whose global is still reachable after a full collection. */
let lastCheck = 0;

async function retainedEarlierFiles(graceMs: number): Promise<string[]> {
  // A full collection takes a moment on a large heap: look at most every third of the grace period, not after every
  // file (a file that stays is still reported, a little later).
  if (Date.now() - lastCheck < graceMs / 3) return [];
  const due = ended.filter((e) => Date.now() - e.at >= graceMs);
  if (due.length === 0) return [];
  lastCheck = Date.now();
  for (const e of due) ended.splice(ended.indexOf(e), 1);
  // A few rounds, waiting longer each time (100 ms to 1.6 s, 3.1 s in all, and only while something is still there):
  // what a collection frees can hold more in its callbacks (FinalizationRegistry cleanups, native objects such as a
  // TLS context letting go of their JavaScript side), which run as tasks of their own after it, later on a busy
  // machine. A file that is still there after the last round is reported.
  let retained = due;
  for (let round = 0; round < 6 && retained.length > 0; round++) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** round));
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    retained = retained.filter((e) => e.global.deref() !== undefined);
  }
  const lines = retained.map((e) => `${e.file}, ${Math.round((Date.now() - e.at) / 1000)} s after it ended`);
  // TEST_HEAP_SNAPSHOT_DIR: a snapshot to look for what retains them (their globals hold a `RetainedTestFile`).
  // Written in a later turn: the deref above keeps its targets alive until this one ends.
  const snapshots = process.env.TEST_HEAP_SNAPSHOT_DIR;
  if (snapshots && retained.length > 0) {
    await new Promise((resolve) => setImmediate(resolve));
    const file = writeHeapSnapshot(
      join(snapshots, `${basename(retained[0]!.file)}-${Date.now()}.heapsnapshot`),
    );
    lines.push(`${SNAPSHOT_LINE}${file}`);
  }
  return lines;
}
