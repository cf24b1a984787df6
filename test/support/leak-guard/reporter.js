// The leak guard's last word (jest reporter; the test environment, test/support/environment.ts, is its first). A test
// file still in memory well after it ended is only told during the run: Node's and jest's own objects now and then
// keep a clean file of a full run. The environment writes each such file down (TEST_RETAINED_FILES_LOG, set here);
// when the run ends, the last files of the run are checked too (in band), and then, before the global teardown stops
// the stores, each file written down runs again alone in a jest of its own, whose global teardown waits for it to
// leave memory (rerun.config.js). Clean alone: something of the full run kept it, and it stays tolerated. Kept again
// alone: a heap snapshot of the rerun tells who keeps it (retainers.js); only Node's and V8's own objects: tolerated,
// with the path shown. Kept by anything else, or failing alone: the run fails.
//
// Options: { config: the jest configuration file the files ran under, whose projects are rerun as they are }; by
// default the one jest was given (--config), else jest.config.js in the root directory.
const { execFile, spawn } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join, relative, resolve } = require('node:path');
const { clearTimeout, setTimeout } = require('node:timers');

const RERUN_TIMEOUT_MS = 5 * 60_000;
const KEPT_ALONE = 'Run alone, the test file is still in memory';
const ANALYSIS_TIMEOUT_MS = 5 * 60_000;

/** The file of `--config <file>`, `--config=<file>` or `-c <file>` on jest's command line (not a JSON config). */
function configGiven() {
  const argv = process.argv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--config=')) return argv[i].slice('--config='.length);
    if ((argv[i] === '--config' || argv[i] === '-c') && argv[i + 1] && !argv[i + 1].startsWith('{'))
      return argv[i + 1];
  }
  return undefined;
}

class LeakGuardReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.config = resolve(this.rootDir, options.config ?? configGiven() ?? 'jest.config.js');
    this.dir = mkdtempSync(join(tmpdir(), 'leak-guard-'));
    this.log = join(this.dir, 'retained.ndjson');
    // Read by the test environments of this run: in this process (in band) and in the workers it starts later.
    process.env.TEST_RETAINED_FILES_LOG = this.log;
    this.error = undefined;
  }

  async onRunComplete() {
    try {
      // The last files of the run, which no later file checked: in this process when jest ran in band.
      await globalThis[Symbol.for('typing-platform.leak-guard')]?.checkLastFiles();
      const suspects = this.suspects();
      if (suspects.length === 0) return;
      const out = [
        `Leak guard: ${suspects.length} test file(s) stayed in memory during the run; each ran again alone:`,
      ];
      const failed = [];
      for (const suspect of suspects) {
        const verdict = await this.rerun(suspect);
        const name = `${relative(this.rootDir, suspect.testPath)}${suspect.project ? ` (${suspect.project})` : ''}`;
        out.push(`  - ${name}: ${verdict.line} (${(verdict.ms / 1000).toFixed(1)} s)`);
        if (!verdict.ok) failed.push(name);
        if (!verdict.ok || verdict.line.startsWith('kept')) out.push(verdict.output.replace(/^/gm, '      '));
      }
      if (failed.length > 0) {
        this.error = new Error(
          `leak guard: kept in memory, or failing, when run alone: ${failed.join(', ')}`,
        );
        out.push(`${this.error.message}: the run fails.`);
      }
      process.stderr.write(`\n${out.join('\n')}\n`);
    } finally {
      rmSync(this.dir, { recursive: true, force: true });
    }
  }

  getLastError() {
    return this.error;
  }

  /** The files written down by the environments, once each (a file of two projects counts once per project). */
  suspects() {
    if (!existsSync(this.log)) return [];
    const seen = new Map();
    for (const line of readFileSync(this.log, 'utf8').split('\n')) {
      if (!line) continue;
      const entry = JSON.parse(line);
      seen.set(`${entry.project}\0${entry.testPath}`, entry);
    }
    return [...seen.values()];
  }

  /** Runs one file alone; { ok, line, output, ms }. */
  rerun(suspect) {
    const t0 = Date.now();
    const env = {
      ...process.env,
      LEAK_GUARD_RERUN: JSON.stringify({ config: this.config, ...suspect }),
      FORCE_COLOR: '0',
      // A file kept alone gets a heap snapshot, to tell who keeps it (retainers.js).
      TEST_HEAP_SNAPSHOT_DIR: process.env.TEST_HEAP_SNAPSHOT_DIR || this.dir,
    };
    delete env.TEST_RETAINED_FILES_LOG;
    const args = [
      require.resolve('jest/bin/jest'),
      '--config',
      join(__dirname, 'rerun.config.js'),
      '--runInBand',
      '--ci',
      // What the file leaves open fails it there too; nothing else may hold the rerun's process up.
      '--forceExit',
    ];
    return new Promise((done) => {
      const child = spawn(process.execPath, args, {
        cwd: this.rootDir,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), RERUN_TIMEOUT_MS);
      const finish = (line, ok, shown = output) => {
        clearTimeout(timer);
        done({ ok, line, output: shown.trim(), ms: Date.now() - t0 });
      };
      child.on('error', (e) => finish(`could not run jest: ${e.message}`, false));
      child.on('close', async (code, signal) => {
        const late = output.match(/^leak guard: released late: (.*)$/m)?.[1];
        if (code === 0 && late) {
          const line = `released late when run alone (${late}): nothing keeps it for good, tolerated`;
          return finish(line, true);
        }
        if (code === 0)
          return finish('clean when run alone: kept by something of the full run, tolerated', true);
        if (signal) return finish(`the rerun did not end within ${RERUN_TIMEOUT_MS / 60_000} min`, false);
        if (!output.includes(KEPT_ALONE))
          return finish(`the rerun alone FAILED (jest exited ${code})`, false);
        // Kept alone: by the file, or only by Node's and V8's own objects? The heap snapshot tells.
        const snapshot = output.match(/heap snapshot: (\S+\.heapsnapshot)/)?.[1];
        const kept = snapshot
          ? await this.whatKeeps(snapshot, relative(this.rootDir, suspect.testPath))
          : { verdict: 'unknown', reason: 'no heap snapshot to read' };
        const steps = [`${kept.reason}:`, ...(kept.path ?? [])];
        if (kept.verdict === 'theirs') {
          if (kept.pathThroughV8) steps.push('and, past the async context:', ...kept.pathThroughV8);
          return finish(
            "kept when run alone, but only by Node's and V8's own objects: tolerated",
            true,
            steps.join('\n'),
          );
        }
        const why = `${output}\nWhat keeps it (heap snapshot): ${steps.join('\n  ')}`;
        return finish('KEPT IN MEMORY when run alone: a leak of that file', false, why);
      });
    });
  }

  /** retainers.js on a snapshot, in a process of its own (it reads the whole snapshot into memory). */
  whatKeeps(snapshot, file) {
    return new Promise((done) => {
      execFile(
        process.execPath,
        ['--max-old-space-size=4096', join(__dirname, 'retainers.js'), snapshot, file],
        { maxBuffer: 16 * 1024 * 1024, timeout: ANALYSIS_TIMEOUT_MS },
        (error, stdout, stderr) => {
          if (error) done({ verdict: 'unknown', reason: `retainers.js failed: ${stderr || error.message}` });
          else done(JSON.parse(stdout));
        },
      );
    });
  }
}

module.exports = LeakGuardReporter;
