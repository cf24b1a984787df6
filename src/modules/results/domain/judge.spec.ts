import { defaultServerConfiguration } from '../../../config/server-configuration.schema';
import { genuineBodies } from '../../../../test/support/genuine-results';
import { judgeKeyTiming, judgeResult, type JudgedResult, type Verdict } from './judge';
import { kogasa } from './anti-cheat/result-figures';
import { resultHash } from './result-hash';

type Body = JudgedResult & Record<string, unknown>;

const config = () => defaultServerConfiguration().results;
const genuine = (file: string): Body => {
  const found = genuineBodies().find((b) => b.file === file);
  if (!found) throw new Error(`no fixture ${file}`);
  return structuredClone(found.body.result) as unknown as Body;
};
/** A genuine 15-second test with three wrong letters left in (the client's charStats [60, 3, 3, 0]). */
const uncorrected = () => genuine('time-15-uncorrected-60wpm-1.json');
const noFacts = { optedOut: false };

function summary(verdict: Verdict): string {
  if (verdict.outcome === 'refuse') return `refuse ${verdict.refusal.status} ${verdict.refusal.check}`;
  if (verdict.outcome === 'hold') return `hold ${verdict.holds.map((h) => h.check).join('+')}`;
  return 'accept';
}

describe('judgeResult', () => {
  it('accepts the genuine results, the hash covering the body as received and its uid', () => {
    for (const { body } of genuineBodies()) {
      const result = body.result as unknown as Body;
      const facts = { optedOut: false, received: { body: body.result, uid: result.uid as string } };
      expect({ result: result.wpm, verdict: summary(judgeResult(result, facts, config())) }).toEqual({
        result: result.wpm,
        verdict: 'accept',
      });
    }
  });

  it('refuses in the original order: too short, then accuracy, then the hash, the funboxes, the time away', () => {
    const body = uncorrected();
    const received = { body: { ...body } as Record<string, unknown>, uid: 'someone-else' };
    const all = { ...body, mode2: '10', acc: 60, funbox: ['nospace', 'nospace'], afkDuration: 30 };
    expect(summary(judgeResult(all, { optedOut: false, received }, config()))).toBe('refuse 460 tooShort');
    expect(summary(judgeResult({ ...all, mode2: '15' }, { optedOut: false, received }, config()))).toBe(
      'refuse 400 accuracy',
    );
    const optedOut = { optedOut: true, received };
    expect(summary(judgeResult({ ...all, mode2: '15' }, optedOut, config()))).toBe('refuse 461 hash');
    expect(summary(judgeResult({ ...all, mode2: '15' }, { optedOut: true }, config()))).toBe(
      'refuse 400 funbox',
    );
    expect(summary(judgeResult({ ...all, mode2: '15', funbox: [] }, { optedOut: true }, config()))).toBe(
      'refuse 463 afk',
    );
  });

  it('checks the hash only when given the body as received (imports have none), and only when switched on', () => {
    const body = uncorrected();
    const received = { body: { ...body, wpm: 1 } as Record<string, unknown>, uid: body.uid as string };
    expect(summary(judgeResult(body, { optedOut: false, received }, config()))).toBe('refuse 461 hash');
    expect(summary(judgeResult(body, noFacts, config()))).toBe('accept');
    const off = config();
    off.objectHashCheckEnabled = false;
    expect(summary(judgeResult(body, { optedOut: false, received }, off))).toBe('accept');
    const { hash: _hash, ...rest } = body;
    const rehashed = { ...body, hash: resultHash({ ...rest, uid: 'other' }) };
    expect(
      summary(
        judgeResult(rehashed, { optedOut: false, received: { body: rehashed, uid: 'other' } }, config()),
      ),
    ).toBe('accept');
  });

  describe('refuse the impossible, hold the unlikely', () => {
    // wpm from the characters: 60 × 12 / 15.01 = 47.968; the speed tolerance is max(0.5 wpm, 1 %) = 0.5.
    it.each([
      [47.97, 'accept'],
      [48.46, 'accept'],
      // past the tolerance by up to its hold margin (2 × 0.5): held for a moderator, with the figures
      [48.6, 'hold speed'],
      [48.96, 'hold speed'],
      // past the margin: refused
      [49.1, 'refuse 463 speed'],
      [90, 'refuse 463 speed'],
    ])('wpm %p on a 47.97 wpm test: %s', (wpm, expected) => {
      expect(summary(judgeResult({ ...uncorrected(), wpm }, noFacts, config()))).toBe(expected);
    });

    it('a wider hold margin holds what a narrower one refuses; a margin of 1 holds nothing', () => {
      const forged = { ...uncorrected(), wpm: 49.5 };
      const wide = config();
      wide.antiCheat.speed.holdMargin = 4;
      expect(summary(judgeResult(forged, noFacts, wide))).toBe('hold speed');
      const none = config();
      none.antiCheat.speed.holdMargin = 1;
      expect(summary(judgeResult({ ...uncorrected(), wpm: 48.6 }, noFacts, none))).toBe('refuse 463 speed');
    });

    it('what the client cannot produce at all is refused whatever the margin (more characters than typed)', () => {
      const wide = config();
      wide.antiCheat.speed.holdMargin = 1000;
      expect(summary(judgeResult({ ...uncorrected(), charTotal: 50 }, noFacts, wide))).toBe(
        'refuse 463 speed',
      );
    });

    it('fewer key presses than characters is held, never refused (a phone keyboard inserts whole words)', () => {
      const body = uncorrected();
      const spacing = body.keySpacing as number[];
      const total = spacing.reduce((a, b) => a + b, 0);
      // 30 presses for 76 characters, spread over the same 15 s, with the consistency figure they make.
      const fewer = spacing.slice(0, 29);
      const scale = total / fewer.reduce((a, b) => a + b, 0);
      const keySpacing = fewer.map((v) => v * scale);
      const few = {
        ...body,
        keySpacing,
        keyDuration: (body.keyDuration as number[]).slice(0, 30),
        keyConsistency: kogasa(keySpacing, true),
      };
      const verdict = judgeResult(few, noFacts, config());
      expect(verdict.outcome).toBe('hold');
      expect(summary(verdict)).toContain('keyCount');
    });

    it('a result refused by one check is refused even when another would only hold it', () => {
      const body = uncorrected();
      expect(summary(judgeResult({ ...body, wpm: 48.6, rawWpm: 90 }, noFacts, config()))).toBe(
        'refuse 463 speed',
      );
    });

    it('with review off nothing is held: the unlikely is accepted, the impossible still refused', () => {
      const off = config();
      off.antiCheat.review.enabled = false;
      expect(summary(judgeResult({ ...uncorrected(), wpm: 48.6 }, noFacts, off))).toBe('accept');
      expect(summary(judgeResult({ ...uncorrected(), wpm: 90 }, noFacts, off))).toBe('refuse 463 speed');
    });

    it('holds a result above its mode ceiling, and one without the measurements the checks need', () => {
      const body = uncorrected();
      expect(summary(judgeResult({ ...body, chartData: undefined }, noFacts, config()))).toBe(
        'hold measurements',
      );
      const low = config();
      low.antiCheat.review.ceilings.time = 40;
      expect(summary(judgeResult(body, noFacts, low))).toBe('hold ceiling');
    });
  });

  it('with the anti-cheat off judges only the original rules', () => {
    const off = config();
    off.antiCheat.enabled = false;
    expect(summary(judgeResult({ ...uncorrected(), wpm: 200 }, noFacts, off))).toBe('accept');
  });
});

describe('judgeKeyTiming', () => {
  const fast = () => ({ ...genuine('time-15-140wpm-1.json') });

  it('judges only fast timed tests of users on the boards (the results.botCheck gate)', () => {
    const constant = { ...fast(), keySpacing: (fast().keySpacing as number[]).map(() => 90) };
    expect(summary(judgeKeyTiming(constant, false, config()))).toBe('refuse 465 variation');
    expect(summary(judgeKeyTiming(constant, true, config()))).toBe('accept');
    expect(summary(judgeKeyTiming({ ...constant, mode: 'words' }, false, config()))).toBe('accept');
    expect(summary(judgeKeyTiming({ ...constant, wpm: 120 }, false, config()))).toBe('accept');
  });

  it('refuses missing key data in the gate (464), as the original does', () => {
    expect(summary(judgeKeyTiming({ ...fast(), keySpacing: [] }, false, config()))).toBe(
      'refuse 464 keyData',
    );
    expect(summary(judgeKeyTiming({ ...fast(), keyDuration: undefined }, false, config()))).toBe(
      'refuse 464 keyData',
    );
  });

  it('holds timing just past a bound (within bot.holdMargin) and refuses it beyond', () => {
    const body = fast();
    const spacing = body.keySpacing as number[];
    const mean = spacing.reduce((a, b) => a + b, 0) / spacing.length;
    // Spacing squeezed towards its mean until its coefficient of variation is a given share of the 0.12 floor.
    const squeezed = (cv: number) => {
      const sd = Math.sqrt(spacing.reduce((a, b) => a + (b - mean) ** 2, 0) / spacing.length);
      return spacing.map((v) => mean + ((v - mean) * cv * mean) / sd);
    };
    expect(summary(judgeKeyTiming({ ...body, keySpacing: squeezed(0.11) }, false, config()))).toBe(
      'hold variation',
    );
    expect(summary(judgeKeyTiming({ ...body, keySpacing: squeezed(0.05) }, false, config()))).toBe(
      'refuse 465 variation',
    );
  });
});
