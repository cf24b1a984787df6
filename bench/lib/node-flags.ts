import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The heap flags a launch script of ours (`scripts/start.sh` for `npm start`, `scripts/cli.sh` for `npm run cli`) adds
 * to NODE_OPTIONS by default, so the benchmark runs our processes as an operator does: the old-generation cap and the
 * young generation's semi-space size.
 */
export function scriptNodeFlags(script: 'start.sh' | 'cli.sh'): string[] {
  // The benchmark runs compiled, from dist/bench/lib/.
  const text = readFileSync(resolve(__dirname, '../../../scripts', script), 'utf8');
  return [...new Set(text.match(/--max-(old|semi)-space-size=\d+/g) ?? [])];
}
