import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

interface Run {
  output: string;
  /** Each fixture file's PASS/FAIL line, by file name. */
  outcome: Record<string, 'PASS' | 'FAIL'>;
}

/** Runs jest on test/fixtures/leak-guard in a child process (the stores of this run, inherited through env). */
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
        // The run fails (some fixtures must); anything but jest's own exit code 1 is a broken run.
        if (error && error.code !== 1) {
          fail(new Error(`jest on the fixtures: ${error.message}\n${output}`));
          return;
        }
        const outcome: Run['outcome'] = {};
        for (const [, status, file] of output.matchAll(/^(PASS|FAIL) .*?([\w-]+\.leak-spec\.ts)/gm))
          outcome[file!] = status as 'PASS' | 'FAIL';
        done({ output, outcome });
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

describe('test environment (test/support/environment.ts)', () => {
  let run: Run;

  beforeAll(async () => {
    run = await runFixtures();
  }, 120_000);

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

  it('tolerates as many retained files as it is told (Node keeps a few of a run itself), and says so', async () => {
    const tolerant = await runFixtures(
      '--testEnvironmentOptions',
      JSON.stringify({ releaseGraceMs: 1000, toleratedRetainedFiles: 1 }),
      'e-process-observer',
      'f-clean',
    );
    expect(tolerant.outcome).toEqual({
      'e-process-observer.leak-spec.ts': 'PASS',
      'f-clean.leak-spec.ts': 'PASS',
    });
    expect(tolerant.output).toMatch(
      /still in memory[^\n]*Tolerated: 1 of 1 this run\.\n\s+- test\/fixtures\/leak-guard\/e-process-observer\.leak-spec\.ts/,
    );
  }, 120_000);

  it("fails files only for what the environment found (every fixture's own tests pass)", () => {
    expect(run.output).toMatch(/^Tests:\s+7 passed, 7 total/m);
  });
});
