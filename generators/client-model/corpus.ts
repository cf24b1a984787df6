import { performance } from 'node:perf_hooks';
import { BEHAVIOURS, behavioursOf, type Behaviour } from './coverage';
import { describeObjection, judge } from './oracle';
import { genuineSessions } from './session';
import { structuralViolations } from './structure';

/**
 * `npm run anti-cheat:corpus -- [--count N] [--seed S]`: N genuine results of the client model (default 100,000,
 * from seed 1) judged by the anti-cheat. Prints the refusals and holds per check, the reproducer seeds of the first
 * refusals (`playSession(seed)` in generators/client-model/session.ts replays one), what the client kept to itself,
 * the behaviours covered, and the time taken. Exits 1 when any genuine result is refused.
 */

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} takes a whole number`);
  return value;
}

const increment = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
const table = (counts: Map<string, number>) =>
  [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `  ${k.padEnd(44)} ${String(n).padStart(7)}`);

function main(): void {
  const count = option('count', 100_000);
  const seed = option('seed', 1);
  const started = performance.now();
  const refusals = new Map<string, number>();
  const refusalsByLanguage = new Map<string, number>();
  const holds = new Map<string, number>();
  const unsent = new Map<string, number>();
  const modes = new Map<string, number>();
  const behaviours = new Map<Behaviour, number>(BEHAVIOURS.map((b) => [b, 0]));
  const firstRefusals: string[] = [];
  let sent = 0;
  let sessions = 0;
  let structural = 0;
  let judgeMs = 0;
  for (const session of genuineSessions(seed, count)) {
    sessions++;
    if (!session.body) {
      increment(unsent, session.unsent ?? 'unknown');
      continue;
    }
    sent++;
    increment(modes, session.body.mode);
    for (const b of behavioursOf(session)) behaviours.set(b, behaviours.get(b)! + 1);
    if (structuralViolations(session.body).length > 0) structural++;
    const before = performance.now();
    const judgement = judge(session.body);
    judgeMs += performance.now() - before;
    if (judgement.outcome === 'refuse') {
      increment(refusals, `${judgement.status} ${judgement.checks[0]}`);
      increment(refusalsByLanguage, `${judgement.checks[0]}, ${session.spec.languageModel}`);
      if (firstRefusals.length < 10) firstRefusals.push(describeObjection(session, judgement));
    } else if (judgement.outcome === 'hold') {
      for (const check of judgement.checks) increment(holds, check);
    }
    if (sent % 10_000 === 0) console.error(`  ${sent} / ${count}`);
  }
  const seconds = (performance.now() - started) / 1000;
  const refused = [...refusals.values()].reduce((a, b) => a + b, 0);
  console.log(`client model corpus: ${sent} genuine results from seed ${seed} (${sessions} sessions played)`);
  console.log(`refused: ${refused}${refused === 0 ? '' : ` (${((100 * refused) / sent).toFixed(3)} %)`}`);
  console.log(table(refusals).join('\n') || '  (none)');
  if (refused > 0) console.log(`refused by check and language:\n${table(refusalsByLanguage).join('\n')}`);
  console.log(`held: ${[...holds.values()].reduce((a, b) => a + b, 0)} holds`);
  console.log(table(holds).join('\n') || '  (none)');
  if (firstRefusals.length > 0)
    console.log(`first refusals (replay with playSession(seed)):\n  ${firstRefusals.join('\n  ')}`);
  console.log(`not sent by the client (its own checks): ${sessions - sent}`);
  console.log(table(unsent).join('\n') || '  (none)');
  console.log(`bodies breaking a structural property of the client: ${structural}`);
  console.log(`modes:\n${table(modes).join('\n')}`);
  console.log(`behaviours (results showing each):\n${table(behaviours as Map<string, number>).join('\n')}`);
  console.log(
    `time: ${seconds.toFixed(1)} s (judging ${(judgeMs / 1000).toFixed(1)} s, ${((1000 * judgeMs) / sent).toFixed(1)} µs a result)`,
  );
  if (refused > 0) process.exitCode = 1;
}

main();
