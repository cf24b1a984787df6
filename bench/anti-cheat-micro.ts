import { defaultServerConfiguration } from '../src/config/server-configuration.schema';
import { findBotTiming } from '../src/modules/results/domain/anti-cheat/bot-checks';
import type { CheckedResult } from '../src/modules/results/domain/anti-cheat/checked-result';
import { CONSISTENCY_CHECKS } from '../src/modules/results/domain/anti-cheat/consistency-checks';
import { isComposedInput, judgeConsistency } from '../src/modules/results/domain/anti-cheat/consistency';
import { keyTimingSummary } from '../src/modules/results/domain/anti-cheat/key-timing-summary';
import { resultFigures } from '../src/modules/results/domain/anti-cheat/result-figures';
import { holdReasons } from '../src/modules/results/domain/anti-cheat/review-ceiling';
import { humanResult } from '../generators/human-results';
import { Random } from '../generators/human-typing';

/**
 * Micro-benchmark of the anti-cheat of `POST /results` (`node dist/bench/anti-cheat-micro.js` after `npm run bench`'s
 * build): the cost of each check per submission on 200 bodies of human typing, and of the bot checks at the speeds
 * that reach them (timed tests of 130-200 wpm, the longest key arrays).
 */
const config = defaultServerConfiguration().results.antiCheat;
const rng = new Random(42);
const bodies = Array.from({ length: 200 }, () => humanResult(rng) as unknown as CheckedResult);
const fast = Array.from(
  { length: 200 },
  () =>
    humanResult(rng, { mode: 'time', mode2: '60', wpm: 130 + rng.next() * 70 }) as unknown as CheckedResult,
);

function time(name: string, list: CheckedResult[], run: (r: CheckedResult) => unknown): void {
  for (let i = 0; i < 2000; i++) run(list[i % list.length]!);
  const n = 20_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) run(list[i % list.length]!);
  console.log(`${name.padEnd(44)} ${(Number(process.hrtime.bigint() - start) / n / 1000).toFixed(2)} µs`);
}

const keys = (r: CheckedResult) => (Array.isArray(r.keySpacing) ? r.keySpacing.length : 0);
console.log(
  `bodies: ${bodies.length} mixed (mean ${Math.round(bodies.reduce((a, r) => a + keys(r), 0) / bodies.length)} key ` +
    `timings), ${fast.length} timed minutes at 130-200 wpm (mean ${Math.round(fast.reduce((a, r) => a + keys(r), 0) / fast.length)})`,
);
for (let round = 1; round <= 3; round++) {
  console.log(`round ${round}`);
  time('figures (one pass over the arrays and chart)', bodies, (r) => resultFigures(r));
  for (const check of CONSISTENCY_CHECKS) {
    const prepared = bodies.map((result) => ({
      result,
      figures: resultFigures(result),
      config,
      composed: isComposedInput(result.language, config),
    }));
    let i = 0;
    time(`  ${check.name}`, bodies, () => check(prepared[i++ % prepared.length]!));
  }
  time('all consistency checks (judgeConsistency)', bodies, (r) => judgeConsistency(r, config));
  time('bot timing checks, timed minutes 130-200 wpm', fast, (r) =>
    findBotTiming(r.keySpacing as number[], r.keyDuration as number[], config.bot),
  );
  time('review ceiling', bodies, (r) => holdReasons(r, config));
  time('key timing summary (held results only)', fast, (r) => keyTimingSummary(r));
}
