import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import {
  planFor,
  Random,
  typeTest,
  type Typist,
  type TypingMode,
} from '../../../../../generators/human-typing';
import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';
import type { CheckedResult } from './checked-result';
import { isComposedInput, judgeConsistency } from './consistency';
import { kogasa, roundTo2 } from './result-figures';

const typist: Typist = { intervalCv: 0.45, holdMeanMs: 100, holdCv: 0.3, hesitation: 0 };
type Body = CheckedResult & Record<string, unknown>;
type Chart = { wpm: number[]; burst: number[]; err: number[] };

function typed(
  mode: TypingMode,
  mode2: string,
  seconds: number,
  extra: Partial<Body> = {},
  bailedOut = false,
) {
  const plan = planFor({ mode, mode2, durationMs: seconds * 1000, wpm: 90, rawWpm: 91, acc: 97, bailedOut });
  return {
    ...typeTest(new Random(11), typist, plan),
    mode,
    mode2,
    language: 'english',
    bailedOut,
    funbox: [],
    ...extra,
  } as Body;
}

function configWith(change: (c: AntiCheatConfiguration) => void): AntiCheatConfiguration {
  const config = defaultServerConfiguration().results.antiCheat;
  change(config);
  return config;
}

const defaults = defaultServerConfiguration().results.antiCheat;
const verdict = (body: Body, config = defaults) => {
  const finding = judgeConsistency(body, config)[0];
  return finding ? `${finding.status} ${finding.check}` : 'pass';
};

/** A zen test its typist left idle for `idle` seconds before ending it: the client keeps that pause (7 s or more). */
function withTrailingPause(body: Body, idle: number, afk: number): Body {
  const chart = body.chartData as Chart;
  const seconds = body.testDuration + idle;
  const correct = (body.charStats as number[])[0] as number;
  const wpm = [...chart.wpm];
  const burst = [...chart.burst];
  const err = [...chart.err];
  for (let s = chart.wpm.length + 1; s <= Math.floor(seconds); s++) {
    wpm.push(Math.round((correct * 12) / s));
    burst.push(0);
    err.push(0);
  }
  return {
    ...body,
    testDuration: seconds,
    wpm: roundTo2((correct * 12) / seconds),
    rawWpm: roundTo2(((body.charTotal as number) * 12) / seconds),
    afkDuration: afk,
    chartData: { wpm, burst, err },
    consistency: kogasa(burst),
    wpmConsistency: kogasa(wpm),
  };
}

describe('consistency checks: what genuine clients send that looks odd', () => {
  it('a zen test with a trailing pause of 8 s: the timeline is short by the afk seconds the client counted', () => {
    const zen = typed('zen', 'zen', 40);
    expect(verdict(withTrailingPause(zen, 8.3, 8))).toBe('pass');
    // The same pause without the afk seconds it made is not what a client sends.
    expect(verdict(withTrailingPause(zen, 8.3, 0))).toBe('463 timeline');
  });

  it('an abandoned timed test: the duration stops at the last key, lastKeyToEnd still reported', () => {
    const bailed = typed('time', '60', 41.5, {}, true);
    expect(bailed.lastKeyToEnd).toBeGreaterThan(0);
    expect(verdict(bailed)).toBe('pass');
  });

  it('a custom test reports its duration unrounded', () => {
    const custom = typed('custom', 'custom', 23.4567, {
      customText: { limit: { mode: 'word', value: 30 } },
    });
    expect(custom.testDuration).toBe(23.4567);
    expect(verdict(custom)).toBe('pass');
  });

  it('a test over 122 s sends "toolong" and skips only the checks that need its arrays', () => {
    const long = {
      ...typed('time', '120', 120),
      testDuration: 130,
      chartData: 'toolong',
      keySpacing: 'toolong',
      keyDuration: 'toolong',
    } as Body;
    const fitting = { ...long, wpm: roundTo2(((long.charStats as number[])[0]! * 12) / 130) };
    const rawFitting = { ...fitting, rawWpm: roundTo2(((long.charTotal as number) * 12) / 130) };
    expect(verdict(rawFitting)).toBe('pass');
    expect(verdict({ ...rawFitting, wpm: 200 })).toBe('463 speed');
  });

  describe('languages typed through an input method', () => {
    it.each([
      ['korean', true],
      ['korean_5k', true],
      ['chinese_simplified_10k', true],
      ['japanese_hiragana', true],
      ['japanese_romaji', false],
      ['code_python', true],
      ['english', false],
      ['vietnamese_1k', true],
    ])('%s: composed %p', (language, composed) => {
      expect(isComposedInput(language, defaults)).toBe(composed);
    });

    it('may have fewer key presses than characters; other languages may not', () => {
      const body = typed('time', '60', 60);
      const presses = (body.keySpacing as number[]).length + 1;
      const fewer = { ...body, charTotal: Math.ceil(presses * 1.3) };
      const fitting = { ...fewer, rawWpm: roundTo2(((fewer.charTotal as number) * 12) / 60) };
      expect(verdict({ ...fitting, language: 'korean' })).toBe('pass');
      expect(verdict(fitting)).toBe('463 keyCount');
    });

    it('counts characters otherwise: a Korean syllable left wrong is up to three incorrect jamo for one insert', () => {
      const body = typed('time', '60', 60);
      const [correct, incorrect, extra, missed] = body.charStats as number[];
      // Wrong jamo left where the client saw a few wrong inserts: acc stays what those inserts make.
      const charTotal = (body.charTotal as number) + 30;
      const korean = {
        ...body,
        language: 'korean',
        charStats: [correct!, incorrect! + 30, extra!, missed!],
        charTotal,
        rawWpm: roundTo2((charTotal * 12) / body.testDuration),
        acc: 99.5,
      };
      expect(verdict(korean)).toBe('pass');
      expect(verdict({ ...korean, language: 'english' })).toBe('463 accuracy');
    });

    it('a malformed pattern in the configuration matches nothing', () => {
      const config = configWith((c) => (c.composedInputLanguages = ['(unclosed', 'english']));
      expect(isComposedInput('english', config)).toBe(true);
      expect(isComposedInput('(unclosed', config)).toBe(false);
    });
  });

  describe('each check has its own switch', () => {
    const base = typed('time', '60', 60);
    const chart = base.chartData as Chart;
    it.each([
      ['speed', { ...base, wpm: 290 }],
      ['timeline', { ...base, keySpacing: (base.keySpacing as number[]).map((v) => v * 0.5) }],
      ['keyCount', { ...base, keyDuration: (base.keyDuration as number[]).slice(0, 20) }],
      ['chart', { ...base, chartData: { ...chart, wpm: chart.wpm.map(() => 200) } }],
      ['accuracy', { ...base, acc: 100 }],
      ['measurements', { ...base, chartData: 'toolong' }],
    ] as [keyof AntiCheatConfiguration, Body][])('%s', (check, forged) => {
      expect(verdict(forged)).toMatch(new RegExp(`^46[34] ${check}$`));
      const off = configWith((c) => ((c[check] as { enabled: boolean }).enabled = false));
      expect(verdict(forged, off)).not.toMatch(new RegExp(` ${check}$`));
      expect(
        verdict(
          forged,
          configWith((c) => (c.enabled = false)),
        ),
      ).toBe('pass');
    });
  });

  it('a result without measurements is judged on what it has (and held for review, review-ceiling.ts)', () => {
    const config = configWith((c) => (c.measurements.enabled = false));
    const bare = {
      wpm: 80,
      rawWpm: 82,
      acc: 96,
      mode: 'time',
      mode2: '30',
      language: 'english',
      testDuration: 30,
      afkDuration: 0,
      consistency: 70,
      bailedOut: false,
      funbox: [],
    };
    expect(verdict(bare, config)).toBe('pass');
    expect(verdict(bare)).toBe('pass');
    // Forged figures stay refused where the measurements that are there contradict them.
    expect(verdict({ ...bare, charStats: [100, 0, 0, 0], charTotal: 100 })).toBe('463 speed');
  });
});
