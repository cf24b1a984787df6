import { Random } from '../human-typing';
import type { ChartData, ClientResult } from './result';
import { playSession } from './session';
import { drawProfile, type SessionSpec } from './spec';
import { kogasa, mean, roundTo2, stdDev, wpmOf } from './stats';
import type { TypistProfile } from './typist';

/**
 * Results a genuine client cannot send, each made by editing one genuine body of the model the way a forger would:
 * the one measurement changed, and every figure computed from it recomputed so that only the contradiction the
 * intended check looks for remains (a consistency figure recomputed with its series, a timeline kept to its sum).
 * Each names the check meant to refuse (or at least hold) it.
 */
export interface Forgery {
  name: string;
  /**
   * The checks meant to catch it, the one it was made for first (consistency checks, bot timing checks, or the
   * judge's own afk / keyData); a later one may see the same contradiction from another side.
   */
  checks: string[];
  body: ClientResult;
}

const consistencyOf = (values: readonly number[]) => {
  const k = roundTo2(kogasa(stdDev(values) / mean(values)));
  return Number.isNaN(k) ? 0 : k;
};
const keyConsistencyOf = (spacing: readonly number[]) => consistencyOf(spacing.slice(0, -1));
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** A copy of the values scaled to add up to `total` (the key timeline kept). */
function scaledTo(values: number[], total: number): number[] {
  const factor = total / sum(values);
  return values.map((v) => v * factor);
}

function profile(seed: number, changes: Partial<TypistProfile>): TypistProfile {
  return {
    ...drawProfile(new Random(seed)),
    afkPerMinute: 0,
    hesitation: 0.005,
    device: 'keyboard',
    ...changes,
  };
}

/** The first genuine body from `seed` on with the fixed spec that also passes `fits`. */
function genuine(
  seed: number,
  fixed: Partial<SessionSpec>,
  fits: (b: ClientResult) => boolean,
): ClientResult {
  for (let s = seed; s < seed + 500; s++) {
    const body = playSession(s, fixed).body;
    if (body && fits(body)) return body;
  }
  throw new Error(`no genuine body fits from seed ${seed}`);
}

const english = {
  languageModel: 'english',
  language: 'english',
  funbox: [],
  punctuation: false,
  numbers: false,
  restarts: 0,
};
const arrays = (b: ClientResult) => ({
  spacing: b.keySpacing as number[],
  durations: b.keyDuration as number[],
  chart: b.chartData as ChartData,
});

export function forgedResults(): Forgery[] {
  // A time 30 test at about 100 wpm with a few mistakes left in; a fast time 60 test (inside the bot check's gate);
  // a time 15 test whose chart another test borrows.
  const sloppy = genuine(
    3100,
    {
      ...english,
      mode: 'time',
      length: 30,
      stopOnError: 'off',
      difficulty: 'normal',
      profile: profile(1, { wpm: 100, slipRate: 0.05, fixRate: 0.4, lateFix: 0 }),
    },
    (b) => b.acc <= 97 && b.afkDuration === 0 && b.charStats[1] >= 2,
  );
  const fast = genuine(
    3200,
    {
      ...english,
      mode: 'time',
      length: 60,
      stopOnError: 'off',
      difficulty: 'normal',
      profile: profile(2, { wpm: 175, slipRate: 0.01 }),
    },
    (b) => b.wpm > 150 && b.afkDuration === 0,
  );
  const other = genuine(
    3300,
    { ...english, mode: 'time', length: 15, profile: profile(3, { wpm: 60 }) },
    (b) => b.afkDuration === 0,
  );
  const edit = (base: ClientResult, change: (b: ClientResult) => void): ClientResult => {
    const b = structuredClone(base);
    change(b);
    return b;
  };
  const forgeries: Forgery[] = [
    {
      name: '"toolong" key timings on a 30 s test',
      checks: ['measurements'],
      body: edit(sloppy, (b) => {
        b.keySpacing = 'toolong';
        b.keyDuration = 'toolong';
      }),
    },
    {
      name: '"toolong" chart on a 30 s test',
      checks: ['measurements'],
      body: edit(sloppy, (b) => (b.chartData = 'toolong')),
    },
    {
      name: 'wpm inflated by a quarter, characters unchanged',
      checks: ['speed'],
      body: edit(sloppy, (b) => (b.wpm = roundTo2(b.wpm * 1.25))),
    },
    {
      name: 'rawWpm inflated by a quarter, characters unchanged',
      checks: ['speed'],
      body: edit(sloppy, (b) => (b.rawWpm = roundTo2(b.rawWpm * 1.25))),
    },
    {
      name: 'correct characters raised past charTotal (wpm to match)',
      checks: ['speed'],
      body: edit(sloppy, (b) => {
        b.charStats[0] = b.charTotal + 20;
        b.wpm = roundTo2(wpmOf(b.charStats[0], b.testDuration));
      }),
    },
    {
      name: 'acc 100 with wrong characters left and wrong inserts in the chart',
      checks: ['accuracy'],
      body: edit(sloppy, (b) => (b.acc = 100)),
    },
    {
      name: 'acc 10 points below what the chart errors allow',
      checks: ['accuracy'],
      body: edit(sloppy, (b) => (b.acc = roundTo2(b.acc - 10))),
    },
    {
      name: 'key durations of half the presses',
      checks: ['keyCount'],
      body: edit(sloppy, (b) => {
        const { durations } = arrays(b);
        b.keyDuration = durations.slice(0, Math.floor(durations.length / 2));
      }),
    },
    {
      name: 'half the key presses (timeline kept)',
      checks: ['keyCount'],
      body: edit(sloppy, (b) => {
        const { spacing, durations } = arrays(b);
        const merged: number[] = [];
        for (let i = 0; i < spacing.length; i += 2) merged.push(spacing[i]! + (spacing[i + 1] ?? 0));
        b.keySpacing = merged;
        b.keyDuration = durations.filter((_, i) => i % 2 === 0).slice(0, merged.length + 1);
        b.keyConsistency = keyConsistencyOf(merged);
      }),
    },
    {
      name: 'key timeline of a test 40 % shorter',
      checks: ['timeline'],
      body: edit(sloppy, (b) => {
        b.keySpacing = arrays(b).spacing.map((s) => s * 0.6);
      }),
    },
    {
      name: 'five afk seconds without a pause',
      checks: ['timeline', 'chart'],
      body: edit(sloppy, (b) => (b.afkDuration = 5)),
    },
    {
      name: 'the chart of another (15 s) test',
      checks: ['chart'],
      body: edit(sloppy, (b) => {
        b.chartData = structuredClone(arrays(other).chart);
        b.consistency = other.consistency;
        b.wpmConsistency = other.wpmConsistency;
      }),
    },
    {
      name: 'chart wpm raised by a third',
      checks: ['chart'],
      body: edit(sloppy, (b) => {
        const { chart } = arrays(b);
        chart.wpm = chart.wpm.map((w) => Math.round(w * 1.33));
        b.wpmConsistency = consistencyOf(chart.wpm);
      }),
    },
    {
      name: 'consistency 10 points above its burst series',
      checks: ['chart'],
      body: edit(sloppy, (b) => (b.consistency = Math.min(100, b.consistency + 10))),
    },
    {
      name: 'afkDuration past the test duration',
      checks: ['afk'],
      body: edit(sloppy, (b) => (b.afkDuration = Math.ceil(b.testDuration) + 5)),
    },
    {
      name: 'constant key timing (timeline kept)',
      checks: ['variation'],
      body: edit(fast, (b) => {
        const { spacing, durations } = arrays(b);
        b.keySpacing = spacing.map(() => sum(spacing) / spacing.length);
        b.keyDuration = durations.map(() => sum(durations) / durations.length);
        b.keyConsistency = keyConsistencyOf(b.keySpacing);
      }),
    },
    {
      name: 'key timing from four values (timeline kept)',
      checks: ['distinct'],
      body: edit(fast, (b) => {
        const { spacing, durations } = arrays(b);
        const rng = new Random(7);
        const four = [40, 70, 110, 160];
        b.keySpacing = scaledTo(
          spacing.map(() => four[rng.int(0, 3)]!),
          sum(spacing),
        );
        b.keyDuration = durations.map(() => [80, 100, 120][rng.int(0, 2)]!);
        b.keyConsistency = keyConsistencyOf(b.keySpacing);
      }),
    },
    {
      name: 'a block of 30 key timings repeated (timeline kept)',
      checks: ['periodicity'],
      body: edit(fast, (b) => {
        const { spacing, durations } = arrays(b);
        b.keySpacing = scaledTo(
          spacing.map((_, i) => spacing[i % 30]!),
          sum(spacing),
        );
        b.keyDuration = durations.map((_, i) => durations[i % 30]!);
        b.keyConsistency = keyConsistencyOf(b.keySpacing);
      }),
    },
    {
      // Left out (an empty array would be a timeline of no keys, which the timeline check refuses first).
      name: 'key timings left out of a fast timed test',
      checks: ['keyData'],
      body: edit(fast, (b) => {
        delete (b as Partial<ClientResult>).keySpacing;
        delete (b as Partial<ClientResult>).keyDuration;
      }),
    },
  ];
  return forgeries;
}
