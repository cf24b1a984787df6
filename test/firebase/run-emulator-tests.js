#!/usr/bin/env node
/**
 * `npm run test:firebase`: runs the Firebase identity-provider integration tests against the Firebase Auth emulator.
 * firebase-tools is large (~300 MB) and only this test needs it, so it is not a dependency of every `npm ci`: its
 * exact tree is locked in test/firebase/package-lock.json and installed here with `npm ci` into .cache/firebase-tools
 * (again only when that lock file changes). Optional dependencies are left out: the only one that matters is `re2`
 * (a native regex engine superstatic prefers but does without), and building it from source took minutes of a first
 * run. The emulator listens on free ports picked now, so parallel runs and other services on 9099 do not collide.
 * Extra arguments go to jest.
 */
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const cache = join(root, '.cache', 'firebase-tools');
const bin = join(cache, 'node_modules', '.bin', 'firebase');
const stamp = join(cache, '.installed-lock-hash');

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, ...options });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function install() {
  const lock = readFileSync(join(__dirname, 'package-lock.json'));
  const hash = createHash('sha256')
    .update(readFileSync(join(__dirname, 'package.json')))
    .update(lock)
    .digest('hex');
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return;
  console.log('installing firebase-tools (test/firebase/package-lock.json) into .cache/firebase-tools ...');
  rmSync(cache, { recursive: true, force: true });
  mkdirSync(cache, { recursive: true });
  copyFileSync(join(__dirname, 'package.json'), join(cache, 'package.json'));
  copyFileSync(join(__dirname, 'package-lock.json'), join(cache, 'package-lock.json'));
  run('npm', ['ci', '--omit=optional', '--no-audit', '--no-fund'], { cwd: cache });
  writeFileSync(stamp, hash);
}

async function main() {
  install();
  // The hub and logging emulators start with auth; give them free ports too.
  const [auth, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const config = join(cache, 'firebase.json');
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { port: auth, host: '127.0.0.1' },
        hub: { port: hub, host: '127.0.0.1' },
        logging: { port: logging, host: '127.0.0.1' },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  console.log(`Auth emulator on 127.0.0.1:${auth}`);
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
}

void main();
