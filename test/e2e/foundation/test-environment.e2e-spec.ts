import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

interface Run {
  output: string;
  /** Each fixture file's PASS/FAIL line, by file name. */
  outcome: Record<string, 'PASS' | 'FAIL'>;
}

/** Runs jest on test/fixtures/leak-guard in a child process (the stores of this run, inherited through env). */
function runFixtures(): Promise<Run> {
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

describe('test environment (test/support/environment.ts)', () => {
  let run: Run;

  beforeAll(async () => {
    run = await runFixtures();
  }, 120_000);

  it('fails a file that leaves an app open, naming where it was opened', () => {
    expect(run.outcome['a-app-left-open.leak-spec.ts']).toBe('FAIL');
    expect(run.output).toMatch(
      /a-app-left-open\.leak-spec\.ts left open what keeps it in memory[^\n]*\n\s+- test app \(createTestApp\) still open \(opened at [^\n]*a-app-left-open\.leak-spec\.ts:\d+/,
    );
  });

  it('fails a file that leaves a server or a store connection open, whoever opened them', () => {
    expect(run.outcome['b-sockets-left-open.leak-spec.ts']).toBe('FAIL');
    const report = run.output.slice(run.output.indexOf('b-sockets-left-open.leak-spec.ts left open'));
    expect(report).toMatch(/- a server listening on 127\.0\.0\.1:\d+ still open/);
    expect(report).toMatch(/- a connection to 127\.0\.0\.1:\d+ \(PostgreSQL\) still open/);
  });

  it('passes files that release what they opened, and does not report them afterwards', () => {
    expect(run.outcome['c-clean-with-servers.leak-spec.ts']).toBe('PASS');
    expect(run.outcome['d-clean.leak-spec.ts']).toBe('PASS');
    expect(run.output).not.toMatch(/- test\/fixtures\/leak-guard\/[cdf]-/);
  });

  it('reports a file that stays in memory after it ended (here: an observer in a process-wide list)', () => {
    expect(run.outcome['e-process-observer.leak-spec.ts']).toBe('PASS');
    expect(run.outcome['f-clean.leak-spec.ts']).toBe('FAIL');
    expect(run.output).toMatch(
      /An earlier test file is still in memory[^\n]*\n\s+- test\/fixtures\/leak-guard\/e-process-observer\.leak-spec\.ts, \d+ s after it ended/,
    );
  });

  it("fails files only for what the environment found (every fixture's own tests pass)", () => {
    expect(run.output).toMatch(/^Tests:\s+6 passed, 6 total/m);
  });
});
