import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import { Random } from '../../../../../generators/human-typing';
import { findBotTiming, MIN_TIMINGS } from './bot-checks';

const bot = () => structuredClone(defaultServerConfiguration().results.antiCheat.bot);
const rng = new Random(21);
const human = (n: number, mean: number, cv: number) =>
  Array.from({ length: n }, () => rng.lognormal(mean, cv));
const spacing = human(600, 70, 0.5);
const durations = human(601, 95, 0.3);
const check = (s: number[], d: number[], config = bot()) => findBotTiming(s, d, config)?.check ?? 'pass';

describe('bot timing', () => {
  it('human-like timings pass', () => {
    expect(check(spacing, durations)).toBe('pass');
  });

  it.each([
    ['variation', spacing.map(() => 41), durations],
    ['variation', spacing, durations.map(() => 80)],
    ['variation', spacing, durations.map((d, i) => (i % 3 === 0 ? d : 0))],
    ['distinct', spacing.map((_, i) => [30, 50, 70, 90, 120][i % 5]! + (i % 7 === 0 ? 0.4 : 0)), durations],
    ['periodicity', spacing.map((_, i) => spacing[i % 30]!), durations],
    ['periodicity', spacing, durations.map((_, i) => [60, 140, 90, 200][i % 4]! + rng.next() * 5)],
  ] as const)('%s refuses, and only that switch lets it through', (name, s, d) => {
    // Alternating five values with a trace of noise: only the distinct check tells it (its periodicity is 0.4 ms).
    const config = bot();
    expect(check([...s], [...d], config)).toBe(name);
    config[name].enabled = false;
    expect(check([...s], [...d], config)).not.toBe(name);
  });

  it(`judges nothing on fewer than ${MIN_TIMINGS} timings`, () => {
    const few = Array.from({ length: MIN_TIMINGS - 1 }, () => 41);
    expect(check(few, few)).toBe('pass');
  });

  it('reports the array and the figures it judged', () => {
    expect(
      findBotTiming(
        spacing.map(() => 41),
        durations,
        bot(),
      ),
    ).toEqual({
      check: 'variation',
      status: 465,
      figures: { array: 'keySpacing', cv: 0, minCv: 0.12, mean: 41 },
      // A constant interval has no spread at all: infinitely below the floor, refused whatever the hold margin.
      excess: Infinity,
    });
  });
});
