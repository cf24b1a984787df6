import { keptWhenAlone } from '../environment';

const LATE = 'leak guard: released late: ';

/**
 * The global teardown of a rerun alone (rerun.config.js): jest is done with the file, and no other test file lives in
 * this process to hold it (a later file can: V8 shares a map made in one file's context with the next file's copy of
 * a library, as a heap snapshot of a clean file kept so showed). Fails the rerun if the file is still in memory
 * after its grace period.
 */
export default async function rerunTeardown(): Promise<void> {
  const { testPath } = JSON.parse(process.env.LEAK_GUARD_RERUN ?? '{}') as { testPath?: string };
  if (!testPath) throw new Error('rerun-teardown: LEAK_GUARD_RERUN names no test file');
  const { kept, late } = await keptWhenAlone(testPath);
  // Read by reporter.js: held for a while (a timer, a pool's idle timeout), but by nothing for good.
  if (late) process.stderr.write(`${LATE}${late}\n`);
  if (kept.length > 0) {
    const error = new Error(
      'Run alone, the test file is still in memory well after it ended: no other test file holds it, so something ' +
        "it started still references it (a process-wide listener, observer or timer, an unref'd server). Find it " +
        `with a heap snapshot (docs/DEVELOPMENT.md, "Test memory").\n${kept.map((line) => `  - ${line}`).join('\n')}`,
    );
    error.stack = error.message;
    throw error;
  }
}
