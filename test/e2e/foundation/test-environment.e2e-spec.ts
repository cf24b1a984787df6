import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

interface Run {
  output: string;
  /** Each fixture file's PASS/FAIL line, by file name (of the run itself: the reruns alone are indented). */
  outcome: Record<string, 'PASS' | 'FAIL'>;
  /** jest's exit code: 1 when a file failed or the leak guard's reporter failed the run. */
  code: number;
}

/**
 * Runs jest on test/fixtures/leak-guard in a child process (the stores of this run, inherited through env), with the
 * leak guard's reporter, which reruns alone each file told as still in memory.
 */
function runFixtures(...extra: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [
        resolve(ROOT, 'node_modules/jest/bin/jest.js'),
        '--config',
        resolve(ROOT, 'test/fixtures/leak-guard/jest.config.js'),
        '--runInBand',
        // File b leaves a PostgreSQL connection open on purpose: it would hold the child process up.
        '--forceExit',
        '--ci',
        ...extra,
      ],
      { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        // Anything but jest's own exit codes (0, or 1 for a failed run) is a broken run.
        if (error && error.code !== 1) {
          fail(new Error(`jest on the fixtures: ${error.message}\n${output}`));
          return;
        }
        const outcome: Run['outcome'] = {};
        for (const [, status, file] of output.matchAll(/^(PASS|FAIL) .*?([\w-]+\.leak-spec\.ts)/gm))
          outcome[file!] = status as 'PASS' | 'FAIL';
        done({ output, outcome, code: error ? 1 : 0 });
      },
    );
  });
}

/** A fixture's outcome; when it is not the one expected, the failure carries the fixtures' run output (the why). */
function expectOutcome(run: Run, file: string, status: 'PASS' | 'FAIL'): void {
  if (run.outcome[file] !== status)
    throw new Error(
      `${file}: expected ${status}, got ${run.outcome[file]}. The fixtures' run printed:\n${run.output}`,
    );
  expect(run.outcome[file]).toBe(status);
}

/** The leak guard reporter's verdict on a fixture it reran alone; when it is not the one expected, the run's output. */
function expectVerdict(run: Run, file: string, verdict: RegExp): void {
  const line = new RegExp(
    `^  - test/fixtures/leak-guard/${file.replace(/\./g, '\\.')} \\(leak-guard\\): ([^\\n]*)`,
    'm',
  );
  const given = run.output.match(line)?.[1];
  if (!given || !verdict.test(given))
    throw new Error(
      `${file}: expected a verdict matching ${verdict}, got ${given}. The fixtures' run printed:\n${run.output}`,
    );
  expect(given).toMatch(verdict);
}

const KEPT_ALONE = /^KEPT IN MEMORY when run alone: a leak of that file/;

describe('test environment (test/support/environment.ts)', () => {
  // The first files of the fixtures, each run's own outcome fixed by their order (sequencer.js); then, in runs of their
  // own: a leak of one file (g), followed by d, which reports it as still in memory, or alone, the last file of its
  // run; a file that stays in memory only through another one of the run (i, kept by h); a file that Node's own
  // resources keep, alone too (j); and clean files. Files told as still in memory run again alone when the run ends.
  let run: Run;
  let singleLeak: Run;
  let lastLeak: Run;
  let keptByAnother: Run;
  let keptByNode: Run;
  let clean: Run;

  beforeAll(async () => {
    // The first run alone (its files start test apps); the others, lighter, side by side.
    run = await runFixtures('leak-guard/(a|b|c|d|e|e2|f)-');
    [singleLeak, lastLeak, keptByAnother, keptByNode, clean] = await Promise.all([
      runFixtures('g-timer-leak', 'd-clean'),
      runFixtures('g-timer-leak'),
      runFixtures(
        '--testEnvironmentOptions',
        JSON.stringify({ releaseGraceMs: 1000, toleratedRetainedFiles: 2 }),
        'h-keeps-later-listeners',
        'i-listener-kept-by-another',
        'd-clean',
      ),
      runFixtures('j-first-fetch'),
      runFixtures('c-clean-with-servers', 'd-clean'),
    ]);
  }, 300_000);

  it('fails a file that leaves an app open, naming where it was opened', () => {
    expectOutcome(run, 'a-app-left-open.leak-spec.ts', 'FAIL');
    expect(run.output).toMatch(
      /a-app-left-open\.leak-spec\.ts left open what keeps it in memory[^\n]*\n\s+- test app \(createTestApp\) still open \(opened at [^\n]*a-app-left-open\.leak-spec\.ts:\d+/,
    );
  });

  it('fails a file that leaves a server or a store connection open, whoever opened them', () => {
    expectOutcome(run, 'b-sockets-left-open.leak-spec.ts', 'FAIL');
    const report = run.output.slice(run.output.indexOf('b-sockets-left-open.leak-spec.ts left open'));
    expect(report).toMatch(/- a server listening on 127\.0\.0\.1:\d+ still open/);
    expect(report).toMatch(/- a connection to 127\.0\.0\.1:\d+ \(PostgreSQL\) still open/);
  });

  it('passes files that release what they opened, and reports nothing of theirs as left open', () => {
    expectOutcome(run, 'c-clean-with-servers.leak-spec.ts', 'PASS');
    expectOutcome(run, 'd-clean.leak-spec.ts', 'PASS');
    expect(run.output).not.toMatch(/(c-clean-with-servers|d-clean)\.leak-spec\.ts left open/);
  });

  it('fails the run once more files stay in memory than it tolerates (here: observers in a process-wide list)', () => {
    expectOutcome(run, 'e-process-observer.leak-spec.ts', 'PASS');
    expectOutcome(run, 'e2-another-observer.leak-spec.ts', 'PASS');
    expectOutcome(run, 'f-clean.leak-spec.ts', 'FAIL');
    // The failure lists both: the one told earlier (if e2 saw e) and the one over the limit.
    const failure = run.output.slice(run.output.indexOf('FAIL leak-guard test/fixtures/leak-guard/f-clean'));
    expect(failure).toMatch(
      /An earlier test file is still in memory[^\n]*\n\s+- test\/fixtures\/leak-guard\/e-process-observer\.leak-spec\.ts, \d+ s after it ended\n\s+- test\/fixtures\/leak-guard\/e2-another-observer\.leak-spec\.ts, \d+ s after it ended/,
    );
  });

  it('fails the run when one file alone leaks: told during the run, kept again when it runs alone', () => {
    expectOutcome(singleLeak, 'g-timer-leak.leak-spec.ts', 'PASS');
    expectOutcome(singleLeak, 'd-clean.leak-spec.ts', 'PASS');
    expect(singleLeak.output).toMatch(
      /still in memory[^\n]*Told: 1 of 1 this run\. It runs again alone[^\n]*\n\s+- test\/fixtures\/leak-guard\/g-timer-leak\.leak-spec\.ts/,
    );
    expectVerdict(singleLeak, 'g-timer-leak.leak-spec.ts', KEPT_ALONE);
    expect(singleLeak.output).toMatch(
      /Run alone, the test file is still in memory[^\n]*\n\s+- test\/fixtures\/leak-guard\/g-timer-leak\.leak-spec\.ts/,
    );
    expect(singleLeak.code).toBe(1);
  });

  it('fails the run when the last file of the run leaks: checked when the run ends, kept again alone', () => {
    expectOutcome(lastLeak, 'g-timer-leak.leak-spec.ts', 'PASS');
    expect(lastLeak.output).toMatch(
      /still in memory[^\n]*Told when the run ended\. It runs again alone[^\n]*\n\s+- test\/fixtures\/leak-guard\/g-timer-leak\.leak-spec\.ts/,
    );
    expectVerdict(lastLeak, 'g-timer-leak.leak-spec.ts', KEPT_ALONE);
    expect(lastLeak.code).toBe(1);
  });

  it('tolerates a file that only another file of the run keeps (clean alone), and fails the run for the other', () => {
    for (const file of ['h-keeps-later-listeners', 'i-listener-kept-by-another', 'd-clean'])
      expectOutcome(keptByAnother, `${file}.leak-spec.ts`, 'PASS');
    expect(keptByAnother.output).toMatch(/still in memory[^\n]*Told: 2 of 2 this run/);
    expectVerdict(
      keptByAnother,
      'i-listener-kept-by-another.leak-spec.ts',
      /^clean when run alone: kept by something of the full run, tolerated/,
    );
    expectVerdict(keptByAnother, 'h-keeps-later-listeners.leak-spec.ts', KEPT_ALONE);
    expect(keptByAnother.code).toBe(1);
  });

  it("tolerates a file that, run alone, only Node's own resources keep (a heap snapshot shows it), with the path", () => {
    expectOutcome(keptByNode, 'j-first-fetch.leak-spec.ts', 'PASS');
    expect(keptByNode.output).toMatch(/still in memory[^\n]*Told when the run ended/);
    expectVerdict(
      keptByNode,
      'j-first-fetch.leak-spec.ts',
      /^kept when run alone, but only by Node's and V8's own objects: tolerated/,
    );
    // The path from the GC roots, through the async context Node gave a resource, to the file's context.
    expect(keptByNode.output).toMatch(
      /held only through the async context Node gave[^\n]*\n(\s+--[^\n]*\n)+/,
    );
    expect(keptByNode.output).toMatch(/(kResourceStore|AsyncContextFrame)[^\n]*\n/);
    expect(keptByNode.code).toBe(0);
  });

  it('passes a run of clean files, whatever jest keeps of them now and then', () => {
    expectOutcome(clean, 'c-clean-with-servers.leak-spec.ts', 'PASS');
    expectOutcome(clean, 'd-clean.leak-spec.ts', 'PASS');
    expect(clean.output).not.toMatch(/KEPT IN MEMORY|FAILED/);
    expect(clean.code).toBe(0);
  });

  it("fails files only for what the environment found (every fixture's own tests pass)", () => {
    expect(run.output).toMatch(/^Tests:\s+7 passed, 7 total/m);
  });
});
