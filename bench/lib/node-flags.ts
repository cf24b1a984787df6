import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The Node flags a launch script of ours (`scripts/start.sh` for `npm start`, `scripts/cli.sh` for `npm run cli`) gives
 * by default, so the benchmark runs our processes as an operator does: the flags it adds to NODE_OPTIONS (the
 * old-generation cap, the young generation's semi-space size, V8's thread pool) and those on its `exec node` line
 * (V8's own).
 */
export function scriptNodeFlags(script: 'start.sh' | 'cli.sh'): string[] {
  // The benchmark runs compiled, from dist/bench/lib/; its spec from bench/lib/.
  const path = [
    resolve(__dirname, '../../../scripts', script),
    resolve(__dirname, '../../scripts', script),
  ].find((candidate) => existsSync(candidate));
  if (path === undefined) throw new Error(`scripts/${script} not found from ${__dirname}`);
  // The script's commands only: its comments name flags too.
  const text = readFileSync(path, 'utf8').replace(/^\s*#.*$/gm, '');
  const heap = text.match(/--(?:max-(?:old|semi)-space-size|v8-pool-size)=\d+/g) ?? [];
  // Flags on the `exec node … dist/…` line itself (V8's own, which NODE_OPTIONS does not take).
  const command = /^exec node((?: --[\w-]+(?:=\S+)?)*) dist\//m.exec(text)?.[1] ?? '';
  return [...new Set([...heap, ...command.split(' ').filter(Boolean)])];
}
