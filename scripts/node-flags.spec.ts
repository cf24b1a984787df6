import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `npm start` (scripts/start.sh, also the container's command) and `npm run cli` (scripts/cli.sh) give Node their heap
 * defaults through NODE_OPTIONS. Run here with a stand-in `node` first on the PATH that prints what it was given.
 */
describe('the heap defaults of scripts/start.sh and scripts/cli.sh', () => {
  const bin = mkdtempSync(join(tmpdir(), 'node-flags-'));
  writeFileSync(join(bin, 'node'), '#!/bin/sh\nprintf "%s|%s" "$NODE_OPTIONS" "$*"\n');
  chmodSync(join(bin, 'node'), 0o755);
  afterAll(() => rmSync(bin, { recursive: true, force: true }));

  const run = (script: string, nodeOptions?: string) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
    delete env.NODE_OPTIONS;
    if (nodeOptions !== undefined) env.NODE_OPTIONS = nodeOptions;
    const [options = '', args = ''] = execFileSync('sh', [resolve(__dirname, script)], {
      env,
      encoding: 'utf8',
    }).split('|');
    return { options: options.trim().split(/\s+/).filter(Boolean), args };
  };

  it.each([
    ['start.sh', '--no-allocation-site-pretenuring dist/src/main.js', 192],
    ['cli.sh', 'dist/src/cli.js', 160],
  ])('%s caps the old generation', (script, command, oldMb) => {
    const { options, args } = run(script);
    expect(args).toBe(command);
    expect(options.filter((o) => o.startsWith('--max-old-space-size='))).toEqual([
      `--max-old-space-size=${oldMb}`,
    ]);
  });

  it.each([
    ['start.sh', 32],
    ['cli.sh', 16],
  ])('%s sets the young generation itself', (script, semiMb) => {
    // Node 24 sizes the young generation by its own rules: about 1 MB for the server under load (constant scavenges
    // on every request), 128 MB for an import (room taken from the old generation's cap): decision 48.
    const young = run(script).options.filter((o) => o.startsWith('--max-semi-space-size='));
    expect(young).toEqual([`--max-semi-space-size=${semiMb}`]);
    // V8 rounds a semi-space up to a power of two (24 would be 32): the script says what takes effect.
    const mb = Number(young[0]?.split('=')[1]);
    expect(Number.isInteger(Math.log2(mb))).toBe(true);
  });

  it.each(['start.sh', 'cli.sh'])(
    '%s keeps what NODE_OPTIONS already says and adds only what it lacks',
    (script) => {
      const raised = run(script, '--max-old-space-size=512 --enable-source-maps').options;
      expect(raised).toEqual(expect.arrayContaining(['--max-old-space-size=512', '--enable-source-maps']));
      expect(raised.filter((o) => o.startsWith('--max-old-space-size='))).toEqual([
        '--max-old-space-size=512',
      ]);
      const young = run(script, '--max-semi-space-size=8').options;
      expect(young.filter((o) => o.startsWith('--max-semi-space-size='))).toEqual([
        '--max-semi-space-size=8',
      ]);
      expect(young.some((o) => o.startsWith('--max-old-space-size='))).toBe(true);
    },
  );

  it('start.sh turns off allocation-site pretenuring on the command line, where V8 flags are taken', () => {
    // Under concurrent load V8 moved the allocation sites of rows, numbers and answer text into the old generation,
    // where only full collections cleaned them: a quarter of a page's CPU (decision 49). NODE_OPTIONS refuses V8 flags.
    for (const nodeOptions of [undefined, '--max-old-space-size=512']) {
      expect(run('start.sh', nodeOptions).args.split(' ')).toEqual([
        '--no-allocation-site-pretenuring',
        'dist/src/main.js',
      ]);
    }
  });

  it.each([
    ['start.sh', ['--max-semi-space-size=32', '--v8-pool-size=1']],
    ['cli.sh', ['--max-semi-space-size=16']],
  ])('%s adds its other defaults to other NODE_OPTIONS', (script, added) => {
    const raised = run(script, '--max-old-space-size=512').options;
    expect(raised).toEqual(['--max-old-space-size=512', ...added]);
  });

  it("start.sh gives V8 one helper thread unless NODE_OPTIONS sets the pool's size", () => {
    // Four helpers took the cores PostgreSQL answers on during each full collection (decision 50).
    const pool = (nodeOptions?: string) =>
      run('start.sh', nodeOptions).options.filter((o) => o.startsWith('--v8-pool-size='));
    expect(pool()).toEqual(['--v8-pool-size=1']);
    expect(pool('--v8-pool-size=4')).toEqual(['--v8-pool-size=4']);
  });
});
