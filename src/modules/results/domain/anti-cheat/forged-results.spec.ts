import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import { genuineBodies } from '../../../../../test/support/genuine-results';
import { planFor, Random, typeTest, type Typist } from '../../../../../generators/human-typing';
import type { CheckedResult } from './checked-result';
import { findBotTiming } from './bot-checks';
import { judgeConsistency } from './consistency';
import { kogasa } from './result-figures';

const config = defaultServerConfiguration().results.antiCheat;
const typist: Typist = { intervalCv: 0.5, holdMeanMs: 100, holdCv: 0.3, hesitation: 0.02 };

type Body = CheckedResult & Record<string, unknown>;

/** A consistent 60-second timed test (inside the bot check's gate at 140 wpm): the forgeries start from one. */
function typed(wpm = 140, seed = 1, acc = 97): Body {
  const plan = planFor({ mode: 'time', mode2: '60', durationMs: 60_000, wpm, rawWpm: wpm * 1.01, acc });
  return {
    ...typeTest(new Random(seed), typist, plan),
    mode: 'time',
    mode2: '60',
    language: 'english',
    bailedOut: false,
    funbox: [],
  };
}

/** The answer to a forged result: its first finding (status and check), or 'pass'. */
function answer(result: Body): string {
  const finding =
    judgeConsistency(result, config)[0] ??
    findBotTiming(result.keySpacing as number[], result.keyDuration as number[], config.bot);
  return finding ? `${finding.status} ${finding.check}` : 'pass';
}

/** New key timings, with the consistency figure the client would derive from them (a careful forger's). */
function withSpacing(result: Body, keySpacing: number[]): Body {
  return { ...result, keySpacing, keyConsistency: kogasa(keySpacing, true) };
}

/** Scaled so they add up to what the genuine timings did: only the shape of the timing differs. */
function scaledTo(values: number[], sum: number): number[] {
  const total = values.reduce((a, b) => a + b, 0);
  return values.map((v) => (v * sum) / total);
}

const sum = (values: unknown) => (values as number[]).reduce((a, b) => a + b, 0);

describe('forged results', () => {
  it('the starting point, a consistent fast result, passes every check', () => {
    expect(answer(typed())).toBe('pass');
    expect(answer(typed(200, 2))).toBe('pass');
  });

  describe('made-up stats (463)', () => {
    it('wpm 290 with charStats that fit 90', () => {
      expect(answer({ ...typed(90), wpm: 290 })).toBe('463 speed');
    });

    it("the issue's result: wpm 290 on time 60, charStats of 90 wpm, every spacing 41 ms adding up to 3 s", () => {
      const base = typed(90);
      const keySpacing = Array.from({ length: 73 }, () => 41);
      expect(answer({ ...withSpacing(base, keySpacing), wpm: 290 })).toBe('463 speed');
    });

    it('raw inflated past the characters typed', () => {
      const base = typed();
      expect(answer({ ...base, rawWpm: base.rawWpm + 20 })).toBe('463 speed');
    });

    it('more correct characters than characters in all', () => {
      const base = typed();
      const stats = base.charStats as number[];
      expect(answer({ ...base, charStats: [stats[0] as number, (base.charTotal as number) - 1, 0, 0] })).toBe(
        '463 speed',
      );
    });

    it('a word test with fewer characters than words', () => {
      const plan = planFor({ mode: 'words', mode2: '10', durationMs: 4000, wpm: 120, rawWpm: 120, acc: 100 });
      const base: Body = {
        ...typeTest(new Random(3), typist, plan),
        mode: 'words',
        mode2: '100',
        language: 'english',
        bailedOut: false,
        funbox: [],
      };
      expect(answer(base)).toBe('463 speed');
    });

    it('acc 100 with wrong characters left in the text', () => {
      const base = typed();
      expect((base.charStats as number[])[1]).toBeGreaterThan(0);
      expect(answer({ ...base, acc: 100 })).toBe('463 accuracy');
    });

    it('acc that the chart errors do not allow', () => {
      const base = typed(140, 4, 90);
      expect(answer({ ...base, acc: 99.5 })).toBe('463 accuracy');
    });
  });

  describe('constant timing (465)', () => {
    it('every key spacing exactly the same', () => {
      const base = typed(145);
      const spacing = base.keySpacing as number[];
      const constant = spacing.map(() => sum(spacing) / spacing.length);
      expect(answer(withSpacing(base, constant))).toBe('465 variation');
    });

    it('key spacing with a jitter of a few ms around one value', () => {
      const base = typed(145);
      const rng = new Random(5);
      const spacing = base.keySpacing as number[];
      const jittered = scaledTo(
        spacing.map(() => 60 + rng.next() * 6),
        sum(spacing),
      );
      expect(answer(withSpacing(base, jittered))).toBe('465 variation');
    });

    it('every key held exactly as long', () => {
      const base = typed(145);
      expect(answer({ ...base, keyDuration: (base.keyDuration as number[]).map(() => 80) })).toBe(
        '465 variation',
      );
    });

    it('key timings from a handful of values', () => {
      const base = typed(145);
      const rng = new Random(6);
      const spacing = base.keySpacing as number[];
      const few = spacing.map(() => [25, 40, 55, 70, 90, 120][rng.int(0, 5)] as number);
      expect(answer(withSpacing(base, scaledTo(few, sum(spacing))))).toBe('465 distinct');
    });
  });

  describe('stretched timing (463)', () => {
    it('key timings adding up to 3 s of a 60 s test', () => {
      const base = typed();
      expect(answer(withSpacing(base, scaledTo(base.keySpacing as number[], 3000)))).toBe('463 timeline');
    });

    it('key timings scaled by 0.9', () => {
      const base = typed();
      const spacing = base.keySpacing as number[];
      expect(
        answer(
          withSpacing(
            base,
            spacing.map((v) => v * 0.9),
          ),
        ),
      ).toBe('463 timeline');
    });

    it('afk seconds where the timeline has no pause', () => {
      expect(answer({ ...typed(), afkDuration: 5 })).toBe('463 timeline');
    });
  });

  describe('copied timing arrays', () => {
    it('the key timings of a genuine 90 wpm minute on a 140 wpm result (463)', () => {
      const genuine = genuineBodies().find((b) => b.file === 'time-60-90wpm-1.json')?.body.result as Body;
      const base = typed();
      const copied = withSpacing(
        { ...base, keyDuration: genuine.keyDuration as number[] },
        genuine.keySpacing as number[],
      );
      expect(answer(copied)).toBe('463 keyCount');
    });

    it('one block of genuine timings repeated to the length needed (465)', () => {
      const base = typed(145);
      const spacing = base.keySpacing as number[];
      const block = spacing.slice(0, 40);
      const repeated = scaledTo(
        spacing.map((_, i) => block[i % block.length] as number),
        sum(spacing),
      );
      expect(answer(withSpacing(base, repeated))).toBe('465 periodicity');
    });

    it('a pattern of timings repeated with a jitter (465)', () => {
      const base = typed(145);
      const rng = new Random(8);
      const spacing = base.keySpacing as number[];
      const pattern = [30, 95, 50, 140, 70];
      const periodic = scaledTo(
        spacing.map((_, i) => (pattern[i % pattern.length] as number) + rng.next() * 8),
        sum(spacing),
      );
      expect(answer(withSpacing(base, periodic))).toBe('465 periodicity');
    });
  });

  describe('chart series that contradict the result (463)', () => {
    it('the chart of a 90 wpm minute on a 140 wpm result', () => {
      const slower = typed(90, 9);
      const base = typed(140);
      expect(answer({ ...base, chartData: slower.chartData, consistency: slower.consistency })).toBe(
        '463 chart',
      );
    });

    it('a last chart point far above the final speed', () => {
      const base = typed();
      const chart = base.chartData as { wpm: number[]; burst: number[]; err: number[] };
      const wpm = [...chart.wpm.slice(0, -1), 290];
      expect(answer({ ...base, chartData: { ...chart, wpm }, wpmConsistency: kogasa(wpm) })).toBe(
        '463 chart',
      );
    });

    it('bursts that do not hold the characters typed', () => {
      const base = typed();
      const chart = base.chartData as { wpm: number[]; burst: number[]; err: number[] };
      const burst = chart.burst.map((b) => Math.round(b / 2 / 12) * 12);
      expect(answer({ ...base, chartData: { ...chart, burst }, consistency: kogasa(burst) })).toBe(
        '463 chart',
      );
    });

    it('more errors in a second than keys pressed in it', () => {
      const base = typed();
      const chart = base.chartData as { wpm: number[]; burst: number[]; err: number[] };
      const err = chart.err.map((e, i) => (i === 3 ? (chart.burst[i] as number) / 12 + 5 : e));
      expect(answer({ ...base, chartData: { ...chart, err } })).toBe('463 chart');
    });

    it('a series of the wrong length', () => {
      const base = typed();
      const chart = base.chartData as { wpm: number[]; burst: number[]; err: number[] };
      const short = {
        wpm: chart.wpm.slice(0, 10),
        burst: chart.burst.slice(0, 10),
        err: chart.err.slice(0, 10),
      };
      expect(answer({ ...base, chartData: short })).toBe('463 chart');
    });

    it('consistency figures that are not those of the series', () => {
      const base = typed();
      expect(answer({ ...base, consistency: Math.min(100, base.consistency + 10) })).toBe('463 chart');
      expect(answer({ ...base, keyConsistency: 99 })).toBe('463 chart');
    });
  });

  describe('measurements left out', () => {
    it('no key timings, no charStats: nothing to contradict, so no refusal (the hold is review-ceiling.ts)', () => {
      // The bot checks run only on timing arrays (and the gate answers 464 without them: result-checks.ts).
      const { keySpacing: _s, ...noKeys } = typed();
      expect(judgeConsistency(noKeys as Body, config)).toEqual([]);
      const { charStats: _c, ...noChars } = typed();
      expect(answer(noChars as Body)).toBe('pass');
    });

    it('"toolong" on a 60-second test: 463 for the chart, 464 for the key timings', () => {
      expect(answer({ ...typed(), chartData: 'toolong' })).toBe('463 measurements');
      expect(answer({ ...typed(), keySpacing: 'toolong', keyDuration: 'toolong' })).toBe('464 measurements');
    });

    it('what is left still has to agree: a forged wpm without key timings is refused by the characters', () => {
      const { keySpacing: _s, keyDuration: _d, ...rest } = typed();
      expect(judgeConsistency({ ...(rest as Body), wpm: (rest as Body).wpm * 2 }, config)[0]).toMatchObject({
        status: 463,
        check: 'speed',
      });
    });
  });
});
