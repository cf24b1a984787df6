#!/usr/bin/env node
/**
 * `npm run test:firebase`: runs the Firebase identity-provider integration tests against the Firebase Auth emulator.
 * firebase-tools is large (~300 MB) and only this test needs it, so it is installed here on first use into
 * .cache/firebase-tools (pinned version) instead of being a dependency of every `npm ci`. Extra arguments go to jest.
 */
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const FIREBASE_TOOLS_VERSION = '15.34.2';
const root = join(__dirname, '..', '..');
const cache = join(root, '.cache', 'firebase-tools');
const bin = join(cache, 'node_modules', '.bin', 'firebase');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!existsSync(bin)) {
  console.log(`installing firebase-tools@${FIREBASE_TOOLS_VERSION} into .cache/firebase-tools ...`);
  mkdirSync(cache, { recursive: true });
  writeFileSync(join(cache, 'package.json'), JSON.stringify({ name: 'firebase-tools-cache', private: true }));
  run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--no-save', `firebase-tools@${FIREBASE_TOOLS_VERSION}`],
    { cwd: cache },
  );
}

const config = join(cache, 'firebase.json');
writeFileSync(
  config,
  JSON.stringify({
    emulators: { auth: { port: 9099, host: '127.0.0.1' }, ui: { enabled: false }, singleProjectMode: true },
  }),
);
run(
  bin,
  [
    'emulators:exec',
    '--only',
    'auth',
    '--project',
    'demo-typing',
    '--config',
    config,
    ['npx jest --config jest.firebase.config.js', ...process.argv.slice(2)].join(' '),
  ],
  { env: { ...process.env, FIREBASE_CLI_EXPERIMENTS: '', FIREBASE_EMULATOR_TEST: '1' } },
);
