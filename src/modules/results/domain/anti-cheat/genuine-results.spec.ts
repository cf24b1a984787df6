import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import { genuineBodies } from '../../../../../test/support/genuine-results';
import { humanResult } from '../../../../../generators/human-results';
import { Random, type TypingMode } from '../../../../../generators/human-typing';
import type { CheckedResult } from './checked-result';
import { findBotTiming } from './bot-checks';
import { judgeConsistency } from './consistency';

const config = defaultServerConfiguration().results.antiCheat;

/** Every check, the bot timing included whatever the speed (stricter than the server, which gates it). */
function verdict(result: CheckedResult): string {
  const finding =
    judgeConsistency(result, config)[0] ??
    (Array.isArray(result.keySpacing) && Array.isArray(result.keyDuration)
      ? findBotTiming(result.keySpacing, result.keyDuration, config.bot)
      : null);
  return finding ? `${finding.status} ${finding.check} ${JSON.stringify(finding.figures)}` : 'pass';
}

describe('zero false positives', () => {
  describe("the original client's genuine results (test/fixtures/original-client-results)", () => {
    const bodies = genuineBodies();

    it('are all there: 32 bodies; six of the eight with mistakes left in were refused when captured', () => {
      expect(bodies).toHaveLength(32);
      const refusedThen = bodies.filter((b) => b.response.status !== 200).map((b) => b.file);
      expect(refusedThen).toHaveLength(6);
      expect(refusedThen.every((file) => file.includes('-uncorrected-'))).toBe(true);
    });

    it.each(bodies.map((b) => [b.file, b.body.result] as const))('%s passes every check', (_file, result) => {
      expect(verdict(result as unknown as CheckedResult)).toBe('pass');
    });
  });

  describe('a generated corpus of human typing', () => {
    const rng = new Random(2026_11_26);
    const corpus = Array.from({ length: 600 }, () => humanResult(rng) as unknown as CheckedResult);

    it('covers time, words, quote, zen and custom tests from 40 to 200 wpm, long tests sent as "toolong"', () => {
      const modes = new Set(corpus.map((r) => r.mode));
      expect([...modes].sort()).toEqual(['custom', 'quote', 'time', 'words', 'zen']);
      const speeds = corpus.map((r) => r.wpm);
      expect(Math.min(...speeds)).toBeLessThan(45);
      expect(Math.max(...speeds)).toBeGreaterThan(190);
      expect(corpus.some((r) => r.keySpacing === 'toolong')).toBe(true);
      expect(corpus.some((r) => r.afkDuration > 0)).toBe(true);
      expect(corpus.some((r) => (r.charStats?.[1] ?? 0) > 0)).toBe(true);
    });

    it('passes every check, every one of them', () => {
      const refused = corpus.map(verdict).filter((v) => v !== 'pass');
      expect(refused).toEqual([]);
    });

    it.each(['time', 'words', 'quote', 'zen'] as TypingMode[])(
      'passes at the bot check speeds too (%s, 130-200 wpm)',
      (mode) => {
        const fast = Array.from(
          { length: 60 },
          () => humanResult(rng, { mode, wpm: 130 + rng.next() * 70 }) as unknown as CheckedResult,
        );
        expect(fast.map(verdict).filter((v) => v !== 'pass')).toEqual([]);
      },
    );
  });
});
