#!/usr/bin/env node
/**
 * The npm registry mirror of our build machines serves only the Linux builds of platform-specific packages, so
 * `npm install` leaves the other platforms' optional packages (e.g. @swc/core-darwin-arm64) out of
 * package-lock.json, and `npm ci` then refuses the lock file as out of sync. This adds those entries back with the
 * `os`/`cpu`/`libc` they are for (read from the package name), so `npm ci` skips them on other platforms instead.
 *
 * Run after every `npm install` that changes the lock file: `node scripts/complete-lockfile.js`.
 */
const fs = require('node:fs');
const path = require('node:path');

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'openbsd', 'netbsd', 'android', 'sunos', 'aix'];
const CPU = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'ppc64le', 's390x', 'riscv64', 'loong64', 'mips64el'];
const file = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;
let added = 0;
const unknown = [];

function platformOf(name) {
  const tokens = name.split('/').pop().split(/[-_.]/);
  const os =
    tokens.find((t) => OS.includes(t)) ??
    (tokens.includes('windows') ? 'win32' : tokens.includes('macos') ? 'darwin' : undefined);
  const cpu =
    tokens.find((t) => CPU.includes(t)) ??
    (tokens.includes('x86') || tokens.includes('ia32') ? 'ia32' : undefined);
  const libc = tokens.includes('musl')
    ? 'musl'
    : tokens.includes('gnu') || tokens.includes('glibc')
      ? 'glibc'
      : undefined;
  return { os, cpu, libc };
}

for (const [location, meta] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = location === '' ? '' : `${location}/`;
    if (packages[`${base}node_modules/${dep}`] || packages[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) {
      unknown.push(dep);
      continue;
    }
    packages[`node_modules/${dep}`] = {
      version: version.replace(/^[\^~=]/, ''),
      optional: true,
      ...(os ? { os: [os] } : {}),
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added += 1;
  }
}

fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  `complete-lockfile: added ${added} platform entries${unknown.length ? `; could not place: ${unknown.join(', ')}` : ''}`,
);
