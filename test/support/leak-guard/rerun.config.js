// The jest configuration of one rerun alone (reporter.js, which sets LEAK_GUARD_RERUN): the file under suspicion, under
// the configuration of the project it ran in (its stores inherited through the environment, as the run's global setup
// left them); then the global teardown waits for it to leave memory.
const { dirname, join, resolve } = require('node:path');

const rerun = JSON.parse(process.env.LEAK_GUARD_RERUN ?? 'null');
if (!rerun)
  throw new Error('rerun.config.js is run by test/support/leak-guard/reporter.js (LEAK_GUARD_RERUN)');

const loaded = require(rerun.config);
const nameOf = (p) => (typeof p.displayName === 'string' ? p.displayName : p.displayName?.name);
const project = loaded.projects ? loaded.projects.find((p) => nameOf(p) === rerun.project) : loaded;
if (!project) throw new Error(`rerun.config.js: no project ${rerun.project} in ${rerun.config}`);

// The run's own setup, teardown and reporters are not this one's: its stores are still up, and its reporter reran this
// file.
const {
  projects: _projects,
  reporters: _reporters,
  globalSetup: _globalSetup,
  globalTeardown: _globalTeardown,
  ...own
} = project;

module.exports = {
  ...own,
  rootDir: resolve(dirname(rerun.config), project.rootDir ?? loaded.rootDir ?? '.'),
  testTimeout: project.testTimeout ?? loaded.testTimeout,
  testMatch: [rerun.testPath],
  testPathIgnorePatterns: ['/node_modules/'],
  testEnvironmentOptions: rerun.options,
  globalTeardown: join(__dirname, 'rerun-teardown.ts'),
};
