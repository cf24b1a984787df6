import type { ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
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
 *   something of it is still referenced from outside it (a global listener, a timer, an unref'd server). A few such
 *   files are told, not failed, during the run (Node's and jest's own objects now and then keep a file of a full run
 *   for a while), and each is run again alone when the run ends (./leak-guard/reporter.js): the run fails if it is
 *   kept again there, where nothing of other files can hold it. Past `toleratedRetainedFiles` the run fails at once
 *   (a leak in shared code keeps every file).
 */
export default class LeakCheckingEnvironment extends TestEnvironment {
  private readonly testPath: string;
  private readonly rootDir: string;
  private readonly releaseGraceMs: number;
  private readonly toleratedRetained: number;
  private readonly project: string;
  private readonly options: Record<string, unknown>;
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
    this.project = config.projectConfig.displayName?.name ?? '';
    this.options = config.projectConfig.testEnvironmentOptions;
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
    this.checkEarlierFiles(state, await retainedEarlierFiles(this.releaseGraceMs));
    if (state.unhandledErrors.length > 0) this.failed = true;
  }

  /**
   * Earlier files still in memory: told and written down for a rerun alone (TEST_RETAINED_FILES_LOG, set by
   * ./leak-guard/reporter.js), or, once more are kept in this process than tolerated, a failure of this file.
   */
  private checkEarlierFiles(state: CircusState, retained: Retained[]): void {
    if (retained.length === 0) return;
    retainedSoFar.push(...retained);
    const lines = (entries: Retained[]) => [...entries.map(describeRetained), ...snapshotLines(retained)];
    if (retainedSoFar.length > this.toleratedRetained) {
      state.unhandledErrors.push(report(RETAINED_MESSAGE, lines(retainedSoFar.splice(0))));
      return;
    }
    tell(`Told: ${retainedSoFar.length} of ${this.toleratedRetained} this run.`, retained);
  }

  override async teardown(): Promise<void> {
    const global = this.global as object | null;
    await super.teardown();
    // A failed file's errors stay referenced by jest's results: only clean files are watched for staying in memory.
    if (this.failed || !global) return;
    // Names the file in a heap snapshot: what retains it retains its global, which holds this.
    Object.defineProperty(global, Symbol('retained test file'), { value: new RetainedTestFile(this.file()) });
    watchRelease(
      { file: this.file(), testPath: this.testPath, project: this.project, options: this.options },
      global,
    );
    // Jest keeps the environment past the file now and then (V8's feedback of its runtime held one, in a heap snapshot
    // of a file run alone): it need not keep the file's global with it.
    (this as { global: unknown }).global = null;
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
 * How many earlier files may stay in memory in one process before the run fails at once
 * (`testEnvironmentOptions.toleratedRetainedFiles`); up to that many are told, and each is rerun alone when the run
 * ends. On Node 24, Node's own objects kept one or two files of a full run (a heap snapshot showed the path through
 * the prototype map of a core class, fs's WriteStream, made in that file's context), and jest now and then one (through
 * its jest-message-util loaded in that file's context): such a file is clean alone. A leak in shared code keeps every
 * file; a leak confined to one file is kept again when it runs alone.
 */
const TOLERATED_RETAINED_FILES = 5;

const RETAINED_MESSAGE =
  'An earlier test file is still in memory well after it ended: something outside it still references it ' +
  "(a process-wide listener, observer or timer, an unref'd server). Find it with a heap snapshot " +
  '(docs/DEVELOPMENT.md, "Test memory").';

const SNAPSHOT_LINE = 'heap snapshot: ';

/** The files seen retained so far in this process (module state: one per worker process). */
const retainedSoFar: Retained[] = [];

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
  readonly file: string;

  constructor(file: string) {
    // A string of its own: a heap snapshot shows its text (of a slice of a longer string, as `relative` gives, none).
    this.file = Buffer.from(file).toString();
  }
}

/** A test file that ended cleanly, as the rerun of it alone needs it (./leak-guard/reporter.js). */
interface EndedFile {
  /** Relative to the root directory, for reports. */
  file: string;
  testPath: string;
  /** The jest project it ran in (its display name): the rerun uses that project's configuration. */
  project: string;
  /** Its testEnvironmentOptions, command-line overrides included (the rerun keeps them, its grace period among them). */
  options: Record<string, unknown>;
}

interface Watched extends EndedFile {
  global: WeakRef<object>;
  at: number;
}

interface Retained extends EndedFile {
  at: number;
  /** A heap snapshot written when TEST_HEAP_SNAPSHOT_DIR is set. */
  snapshot?: string;
}

/** Files of this process that ended cleanly, until they are seen released (module state: one per worker process). */
const ended: Watched[] = [];

function watchRelease(file: EndedFile, global: object): void {
  ended.push({ ...file, global: new WeakRef(global), at: Date.now() });
}

function describeRetained(entry: Retained): string {
  return `${entry.file}, ${Math.round((Date.now() - entry.at) / 1000)} s after it ended`;
}

function snapshotLines(retained: Retained[]): string[] {
  return retained.flatMap((e) => (e.snapshot ? [`${SNAPSHOT_LINE}${e.snapshot}`] : []));
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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Earlier files (ended over `graceMs` ago) whose global is still reachable after a full collection. */
let lastCheck = 0;

async function retainedEarlierFiles(graceMs: number): Promise<Retained[]> {
  // A full collection takes a moment on a large heap: look at most every third of the grace period, not after every
  // file (a file that stays is still reported, a little later).
  if (Date.now() - lastCheck < graceMs / 3) return [];
  const due = ended.filter((e) => Date.now() - e.at >= graceMs);
  if (due.length === 0) return [];
  lastCheck = Date.now();
  for (const e of due) ended.splice(ended.indexOf(e), 1);
  return stillThere(due);
}

/**
 * The files still in memory after a few collections, waiting longer each time (100 ms to 1.6 s, 3.1 s in all, and
 * only while something is still there): what a collection frees can hold more in its callbacks (FinalizationRegistry
 * cleanups, native objects such as a TLS context letting go of their JavaScript side), which run as tasks of their own
 * after it, later on a busy machine.
 */
async function stillThere(watched: Watched[]): Promise<Retained[]> {
  let retained = watched;
  for (let round = 0; round < 6 && retained.length > 0; round++) {
    if (round > 0) await sleep(50 * 2 ** round);
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    retained = retained.filter((e) => e.global.deref() !== undefined);
  }
  const found: Retained[] = retained.map(({ global: _global, ...e }) => e);
  // TEST_HEAP_SNAPSHOT_DIR: a snapshot to look for what retains them (their globals hold a `RetainedTestFile`).
  // Written in a later turn: the deref above keeps its targets alive until this one ends.
  const snapshots = process.env.TEST_HEAP_SNAPSHOT_DIR;
  if (snapshots && found.length > 0) {
    await new Promise((resolve) => setImmediate(resolve));
    found[0]!.snapshot = writeHeapSnapshot(
      join(snapshots, `${basename(found[0]!.file)}-${Date.now()}.heapsnapshot`),
    );
  }
  return found;
}

/**
 * Tells of files still in memory, and writes them down for a rerun alone when the run ends (TEST_RETAINED_FILES_LOG,
 * set by ./leak-guard/reporter.js).
 */
function tell(count: string, retained: Retained[]): void {
  const log = process.env.TEST_RETAINED_FILES_LOG;
  if (log) {
    for (const { testPath, project, options } of retained)
      appendFileSync(log, `${JSON.stringify({ testPath, project, options })}\n`);
  }
  const then = log
    ? 'It runs again alone when the run ends, and fails the run if it is kept there too.'
    : 'No rerun alone in this run (no leak-guard reporter): nothing fails for it unless more are kept.';
  const lines = [...retained.map(describeRetained), ...snapshotLines(retained)];
  process.stderr.write(`${report(`${RETAINED_MESSAGE} ${count} ${then}`, lines).message}\n`);
}

/**
 * The files given, each up to its grace period after it ended to leave memory (collected every half second, so that
 * files that go are not waited for), then checked as an earlier file is.
 */
async function releasedWithin(watched: Watched[]): Promise<Retained[]> {
  const deadline = (e: Watched) => e.at + graceOf(e);
  let waiting = watched;
  while (waiting.length > 0 && waiting.some((e) => Date.now() < deadline(e))) {
    await sleep(500);
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
    waiting = waiting.filter((e) => e.global.deref() !== undefined);
  }
  return stillThere(waiting);
}

/**
 * After a rerun alone (./leak-guard/rerun-teardown.ts, once jest is done with every test file): `kept`, lines naming
 * the file if it is still in memory after its grace period (and a heap snapshot, when TEST_HEAP_SNAPSHOT_DIR is set),
 * or saying that it never ended cleanly in this process; `late`, a line when it left memory only after its grace period,
 * while the snapshot was written (something held it for a while, nothing for good).
 */
export async function keptWhenAlone(testPath: string): Promise<{ kept: string[]; late?: string }> {
  const watched = ended.filter((e) => e.testPath === testPath);
  if (watched.length === 0)
    return { kept: [`${testPath} did not end cleanly in this process: nothing to watch`] };
  ended.splice(0);
  const kept = await releasedWithin(watched);
  if (kept.length === 0) return { kept: [] };
  collectGarbage();
  await new Promise((resolve) => setImmediate(resolve));
  if (watched.every((e) => e.global.deref() === undefined)) {
    const [first] = kept;
    const seconds = Math.round((Date.now() - first!.at) / 1000);
    const late = `${first!.file} left memory ${seconds} s after it ended, past its grace period of ${graceOf(first!) / 1000} s`;
    return { kept: [], late };
  }
  return { kept: [...kept.map(describeRetained), ...snapshotLines(kept)] };
}

/**
 * When the run ends (called by ./leak-guard/reporter.js, in this process when jest runs in band): the files no later
 * file has checked yet, the last ones of the run, given their grace period too; those still in memory are told and
 * written down for a rerun alone. Jest's workers, when it runs some, end without such a check of their last files.
 */
async function checkLastFiles(): Promise<number> {
  const kept = await releasedWithin(ended.splice(0));
  if (kept.length > 0) tell('Told when the run ended.', kept);
  return kept.length;
}

export const LEAK_GUARD = Symbol.for('typing-platform.leak-guard');
(globalThis as Record<symbol, unknown>)[LEAK_GUARD] = { checkLastFiles };

function graceOf(file: EndedFile): number {
  const grace = file.options.releaseGraceMs;
  return typeof grace === 'number' ? grace : RELEASE_GRACE_MS;
}
