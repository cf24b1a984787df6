// `npm run test:container`: proves docker/Dockerfile and docker/compose.yml. Starts dockerd when no engine runs (as
// root; log in .cache/container/dockerd.log), builds the local bases when the official ones are not on the machine
// (docker/build-bases.sh), builds the API image with compose, checks its hardening, brings the stack up
// under a project name of its own with the API pointed at a local OIDC issuer and captcha provider (stub-server.mjs),
// waits for /readyz on the published port, runs the smoke test (public routes; sign-up, a genuine client result,
// profile and boards, operator CLI commands inside the container), stops the API and checks it drains and exits 0
// within the grace period, recreates the stack and reads the data back, then removes what it created: the project's
// containers, volumes and network, the API image and its build layers, the dockerd it started. The local bases are
// kept as a cache (the last lines say so) unless --remove-bases is given.
//
//   CONTAINER_TESTS=required   no engine is a failure (default: one line saying why, exit 0); =skip: do nothing
//   CONTAINER_BASES=local|official   default: official when node:24-bookworm-slim, postgres:17 and redis:7 are
//                              present, else local
//   COMPOSE="docker-compose"   the compose command (default: `docker compose` v2, else `docker-compose` v1)
//   --keep-stack               leave the stack running at the end (it prints how to remove it); --remove-bases
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Checks, expect, httpClient, waitReady } from './lib/checks.mjs';
import { ensureEngine, findCompose, releaseEngine } from './lib/engine.mjs';
import { AUDIENCE, createIssuer, ISSUER } from './lib/identity.mjs';
import { containerChecks, imageChecks, waitHealthy } from './lib/image.mjs';
import { must, run, say, seconds } from './lib/run.mjs';
import { dataSurvived, publicRoutes, signedInFlow } from './lib/smoke.mjs';
import { drain } from './lib/drain.mjs';
import { buildLayers, leftovers, removeApiImage } from './lib/teardown.mjs';

const root = resolve(import.meta.dirname, '../..');
const here = join(root, 'docker/test');
const flags = new Set(process.argv.slice(2));
const mode = process.env.CONTAINER_TESTS ?? 'auto';
const OFFICIAL = {
  NODE_IMAGE: 'node:24-bookworm-slim',
  POSTGRES_IMAGE: 'postgres:17',
  REDIS_IMAGE: 'redis:7',
};
const READY_TIMEOUT_MS = 240_000;
const t0 = Date.now();
const figures = [];
const figure = (name, value) => figures.push([name, value]);

function notRun(reason) {
  if (mode === 'required') {
    console.error(`container tests: FAILED: ${reason} (CONTAINER_TESTS=required)`);
    return 1;
  }
  console.log(`container tests: skipped: ${reason}`);
  return 0;
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const KNOWN_FLAGS = ['--keep-stack', '--remove-bases', '--help'];

async function main() {
  const unknown = [...flags].filter((f) => !KNOWN_FLAGS.includes(f));
  if (flags.has('--help') || unknown.length) {
    const header = readFileSync(new URL(import.meta.url), 'utf8').split('\nimport ')[0];
    console.log(header.replace(/^\/\/ ?/gm, ''));
    return unknown.length ? 2 : 0;
  }
  if (mode === 'skip') return notRun('CONTAINER_TESTS=skip');
  const cache = join(root, '.cache/container');
  mkdirSync(cache, { recursive: true });
  const log = join(cache, 'test.log');
  writeFileSync(log, '');

  const engineT0 = Date.now();
  const engine = await ensureEngine(join(cache, 'dockerd.log'));
  if (!engine.ok) return notRun(`no container engine: ${engine.reason}`);
  figure(
    'engine',
    `Docker ${engine.version}${engine.started ? `, dockerd started in ${seconds(Date.now() - engineT0)}` : ', already running'}`,
  );
  const compose = await findCompose();
  if (!compose) {
    say(await releaseEngine(engine));
    return notRun('no compose command (Debian: apt-get install -y docker-compose)');
  }
  figure('compose', compose.label);
  say(`engine ${engine.version}, ${compose.label}; log of builds and compose: ${log}`);

  const checks = new Checks();
  const work = mkdtempSync(join(tmpdir(), 'typing-container-test-'));
  const runId = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const project = `typingct${runId}`;
  const apiImage = `typing-container-test/api:${runId}`;
  const state = { builtBases: [], layers: [], built: false, up: false };
  let failure = null;
  try {
    await exercise({ checks, compose, work, runId, project, apiImage, log, state });
  } catch (e) {
    failure = e;
    checks.results.push({ name: 'the run', ok: false, detail: e.message });
    say(`FAIL ${e.message}`);
  }
  if ((failure || checks.failed > 0) && state.up) {
    const logs = await run(
      compose.command[0],
      state.composeArgs(['logs', '--no-color', '--tail', '40', 'api']),
      {
        env: state.env,
      },
    ).catch(() => null);
    if (logs) say(`last lines of the API's log:\n${logs.stdout}${logs.stderr}`);
  }
  await teardown({ checks, compose, work, project, apiImage, state, engine });
  for (const [name, value] of figures) console.log(`  ${name.padEnd(34)} ${value}`);
  console.log(`  ${'total'.padEnd(34)} ${seconds(Date.now() - t0)}`);
  console.log(`container: ${checks.passed} passed, ${checks.failed} failed`);
  return checks.failed > 0 ? 1 : 0;
}

async function exercise({ checks, compose, work, runId, project, apiImage, log, state }) {
  // Bases: the official images where they are here, else local ones built from Debian and npm.
  const wanted = process.env.CONTAINER_BASES ?? 'auto';
  const officialHere = (await run('docker', ['image', 'inspect', ...Object.values(OFFICIAL)])).code === 0;
  let bases = OFFICIAL;
  if (wanted === 'local' || (wanted === 'auto' && !officialHere)) {
    const record = join(work, 'built-bases');
    // Read again at the teardown: a failed run still knows which bases it built before failing.
    state.baseRecord = record;
    const out = await must('bash', [join(root, 'docker/build-bases.sh'), '--record', record], { log });
    bases = Object.fromEntries(
      out.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('=')),
    );
    state.builtBases = existsSync(record) ? readFileSync(record, 'utf8').trim().split('\n') : [];
    figure(
      'bases',
      `local, ${state.builtBases.length ? `built ${state.builtBases.length} in ${seconds(out.ms)}` : `kept (${seconds(out.ms)})`}`,
    );
  } else {
    figure('bases', 'official (pulled by the build and compose if missing)');
  }

  // This run's own identity provider, captcha provider, secrets and port.
  const issuer = await createIssuer();
  const stranger = await createIssuer();
  const stubDir = join(work, 'stub');
  mkdirSync(stubDir);
  copyFileSync(join(here, 'stub-server.mjs'), join(stubDir, 'stub-server.mjs'));
  chmodSync(work, 0o755);
  chmodSync(stubDir, 0o755);
  chmodSync(join(stubDir, 'stub-server.mjs'), 0o644);
  const envFile = join(work, 'empty.env');
  writeFileSync(envFile, '');
  const secrets = {
    POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
    CAPTCHA_SECRET: randomBytes(18).toString('base64url'),
    STUB_CAPTCHA_TOKEN: randomBytes(12).toString('base64url'),
  };
  const port = await freePort();
  state.env = {
    ...bases,
    ...secrets,
    API_IMAGE: apiImage,
    API_BIND: '127.0.0.1',
    API_PORT: String(port),
    AUTH_PROVIDER: 'oidc',
    OIDC_ISSUER: ISSUER,
    OIDC_AUDIENCE: AUDIENCE,
    OIDC_JWKS_URL: 'http://idp:8080/jwks.json',
    CAPTCHA_VERIFY_URL: 'http://idp:8080/siteverify',
    STUB_JWKS: issuer.jwks,
    STUB_DIR: stubDir,
    // Whatever the caller's shell says, these keep their production meaning here.
    CORS_ORIGINS: 'https://typing.example',
    FIREBASE_PROJECT_ID: '',
    FIREBASE_SERVICE_ACCOUNT: '',
    GITHUB_WEBHOOK_SECRET: '',
    SMTP_URL: '',
    MAIL_FROM: '',
    CHAT_CLIENT_ID: '',
    CHAT_REDIRECT_URI: '',
    COMMIT_HASH: `ct${runId}`,
    METRICS_TOKEN: '',
    TRUST_PROXY: 'false',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_MS: '5000',
    NODE_OPTIONS: '',
  };
  const files = ['-f', join(root, 'docker/compose.yml'), '-f', join(here, 'compose.test.yml')];
  state.composeArgs = (args) => [
    ...compose.command.slice(1),
    '--ansi',
    'never',
    '-p',
    project,
    '--env-file',
    envFile,
    ...files,
    ...args,
  ];
  const dc = (args, options = {}) => {
    if (interrupted) throw new Error('interrupted');
    return must(compose.command[0], state.composeArgs(args), { env: state.env, log, cwd: root, ...options });
  };

  say(`building ${apiImage} with ${bases.NODE_IMAGE}`);
  state.built = true;
  // Not dc(): the layers of a failed build are ours to remove too.
  const build = await run(compose.command[0], state.composeArgs(['build', '--force-rm', 'api']), {
    env: state.env,
    log,
    cwd: root,
  });
  state.layers = buildLayers(build.stdout);
  if (build.code !== 0) throw new Error(`compose build exited ${build.code} (see ${log})`);
  const size = Number((await must('docker', ['image', 'inspect', '--format', '{{.Size}}', apiImage])).stdout);
  const steps = build.stdout.match(/^Step \d+\/\d+ :/gm)?.length ?? 0;
  const cached = build.stdout.match(/^ ---> Using cache$/gm)?.length ?? 0;
  figure('API image build', `${seconds(build.ms)} (${cached} of ${steps} steps from the layer cache)`);
  figure('API image size', `${(size / 1e6).toFixed(0)} MB`);
  await imageChecks(checks, { image: apiImage, root, secrets: Object.values(secrets) });

  say(`compose up (project ${project}, API on 127.0.0.1:${port})`);
  const request = httpClient(`http://127.0.0.1:${port}`);
  const upT0 = Date.now();
  state.up = true;
  await dc(['up', '-d']);
  await waitReady(request, READY_TIMEOUT_MS);
  figure('compose up → /readyz 200 (fresh volumes)', seconds(Date.now() - upT0));
  const api = (await dc(['ps', '-q', 'api'])).stdout.trim();
  const cli = async (args) => {
    const out = await dc(['exec', '-T', 'api', 'node', 'dist/src/cli.js', ...args]);
    const text = `${out.stdout}${out.stderr}`;
    expect(!text.includes(secrets.POSTGRES_PASSWORD), 'the CLI printed the database password');
    return text;
  };
  await containerChecks(checks, api);

  // A genuine result of the original client (test/fixtures/original-client-results/README.md).
  const genuine = JSON.parse(
    readFileSync(join(root, 'test/fixtures/original-client-results/time-60-90wpm-1.json'), 'utf8'),
  );
  const uid = genuine.result.uid;
  const ctx = {
    request,
    uid,
    name: `ct_${runId}`.slice(0, 16),
    token: () => issuer.token(uid, `${uid}@container-test.invalid`),
    forgedToken: await stranger.token(uid, `${uid}@container-test.invalid`),
    captchaToken: secrets.STUB_CAPTCHA_TOKEN,
    psaMessage: `container test ${runId}`,
    commitHash: state.env.COMMIT_HASH,
    result: genuine,
    cli,
  };
  await checks.check('CLI in the container: psas add', async () =>
    cli(['psas', 'add', ctx.psaMessage]).then((o) => o.trim().split('\n').pop()),
  );
  await publicRoutes(checks, ctx);
  const saved = await signedInFlow(checks, ctx);
  await checks.check(
    'the image HEALTHCHECK (/readyz) reports healthy',
    async () => `${seconds(await waitHealthy(api, 90_000))} after the smoke test`,
  );

  figure('docker stop → exit (drain)', await drain(checks, { api, request, dc }));

  say('compose down (volumes kept), then up again');
  await dc(['down']);
  const againT0 = Date.now();
  await dc(['up', '-d']);
  await waitReady(request, READY_TIMEOUT_MS);
  figure('compose up → /readyz 200 (kept volumes)', seconds(Date.now() - againT0));
  await dataSurvived(checks, ctx, saved);
}

async function teardown({ checks, compose, work, project, apiImage, state, engine }) {
  const t = Date.now();
  const keep = flags.has('--keep-stack');
  if (keep && state.up) {
    say(
      `--keep-stack: left running; remove with: ${compose.command.join(' ')} ${state.composeArgs(['down', '-v']).join(' ')} && docker rmi ${apiImage}`,
    );
    return;
  }
  if (state.up) {
    const down = await run(compose.command[0], state.composeArgs(['down', '-v', '--remove-orphans']), {
      env: state.env,
    });
    say(`compose down -v: ${seconds(down.ms)}`);
  }
  if (state.built) {
    const removing = Date.now();
    await removeApiImage(apiImage, state.layers);
    say(`API image and its build layers removed: ${seconds(Date.now() - removing)}`);
  }
  if (state.up || state.built) {
    await checks.check(
      'teardown removed the project’s containers, volumes, network and the API image',
      async () => {
        const left = await leftovers(project, apiImage, state.layers);
        expect(left.length === 0, `left behind: ${left.join('; ')}`);
      },
    );
  }
  if (state.baseRecord && existsSync(state.baseRecord)) {
    state.builtBases = readFileSync(state.baseRecord, 'utf8').trim().split('\n');
  }
  if (flags.has('--remove-bases')) {
    for (const tag of [...state.builtBases].reverse()) await run('docker', ['rmi', tag]);
    if (state.builtBases.length) say(`removed the bases this run built: ${state.builtBases.join(' ')}`);
  } else if (state.builtBases.length) {
    say(
      `kept as a build cache: ${state.builtBases.join(' ')} (--remove-bases removes them; or build-bases.sh --remove)`,
    );
  }
  rmSync(work, { recursive: true, force: true });
  figure('teardown', seconds(Date.now() - t));
  say(await releaseEngine(engine));
}

// Ctrl-C reaches the running docker or compose command too (same process group): it fails, and the run goes on to
// the teardown. A second Ctrl-C leaves at once.
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  say('interrupted: removing what this run created (Ctrl-C again to leave it all)');
});

// An empty event loop while main() still awaits would end the process without teardown or a verdict: say so.
process.on('beforeExit', (code) => {
  console.error(`container tests: the event loop emptied before the run finished (exit ${code})`);
  process.exit(1);
});

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
