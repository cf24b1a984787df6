import { scriptNodeFlags } from './node-flags';

/** The benchmark starts our processes with what `npm start` and `npm run cli` give Node (compiled, from dist/). */
describe('scriptNodeFlags', () => {
  it('reads the NODE_OPTIONS defaults and the flags of the exec line of scripts/start.sh', () => {
    expect(scriptNodeFlags('start.sh')).toEqual([
      '--max-old-space-size=192',
      '--max-semi-space-size=32',
      '--v8-pool-size=1',
      '--no-allocation-site-pretenuring',
    ]);
  });

  it('reads the heap defaults of scripts/cli.sh', () => {
    expect(scriptNodeFlags('cli.sh')).toEqual(['--max-old-space-size=160', '--max-semi-space-size=16']);
  });
});
