import fc from 'fast-check';
import { Random } from '../human-typing';
import { forgedResults } from './forgeries';
import { LANGUAGES } from './languages';
import { describeObjection, judge } from './oracle';
import { genuineSessions, playSession } from './session';
import { drawProfile, type SessionSpec } from './spec';
import { LOOK_FUNBOXES, TEXT_FUNBOXES } from './text';

/**
 * The anti-cheat judged against the original client's own counting: every result the model of the client sends
 * (generators/client-model) must pass (a hold is allowed, a refusal is not), and every forgery made from one must be
 * refused or held by the check meant for it. A failure prints the check, its figures and the seed that replays it
 * (`playSession(seed)`); `npm run anti-cheat:corpus` runs 100,000 of them.
 */

const SEED = 31;

describe('genuine results of the client model', () => {
  it(`2,000 sessions from seed ${SEED}: none refused`, () => {
    const refused: string[] = [];
    let sent = 0;
    for (const session of genuineSessions(SEED, 2000)) {
      if (!session.body) continue;
      sent++;
      const judgement = judge(session.body);
      if (judgement.outcome === 'refuse') refused.push(describeObjection(session, judgement));
    }
    expect(sent).toBe(2000);
    expect({ refused: refused.length, first: refused.slice(0, 15) }).toEqual({ refused: 0, first: [] });
  });

  const input = fc.record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    mode: fc.constantFrom<SessionSpec['mode']>('time', 'words', 'quote', 'zen', 'custom'),
    languageModel: fc.constantFrom(...Object.keys(LANGUAGES)),
    funbox: fc.oneof(
      fc.constant([] as string[]),
      fc.constantFrom(...TEXT_FUNBOXES).map((f) => [f as string]),
      fc.constantFrom(...LOOK_FUNBOXES).map((f) => [f as string]),
    ),
    stopOnError: fc.constantFrom<SessionSpec['stopOnError']>('off', 'off', 'letter', 'word'),
    punctuation: fc.boolean(),
    numbers: fc.boolean(),
    wpm: fc.double({ min: 20, max: 220, noNaN: true }),
    slipRate: fc.double({ min: 0, max: 0.1, noNaN: true }),
    fixRate: fc.double({ min: 0, max: 1, noNaN: true }),
    lateFix: fc.double({ min: 0, max: 1, noNaN: true }),
    clearFix: fc.double({ min: 0, max: 1, noNaN: true }),
    afkPerMinute: fc.constantFrom(0, 0, 0.5, 3),
    device: fc.constantFrom<'keyboard' | 'phone'>('keyboard', 'keyboard', 'phone'),
  });

  it('any session of any mode, language, funbox, habit and speed the client sends: not refused (fast-check)', () => {
    fc.assert(
      fc.property(
        input,
        ({ seed, wpm, slipRate, fixRate, lateFix, clearFix, afkPerMinute, device, ...test }) => {
          const model = LANGUAGES[test.languageModel]!;
          const keys = model.typing === 'keys';
          const fixed: Partial<SessionSpec> = {
            ...test,
            language: model.names[0]!,
            punctuation: keys && test.punctuation,
            numbers: keys && test.numbers,
            funbox: keys ? test.funbox : [],
            profile: {
              ...drawProfile(new Random(seed)),
              wpm: device === 'phone' ? Math.min(wpm, 90) : wpm,
              ...{ slipRate, fixRate, lateFix, clearFix, afkPerMinute, device },
              suggestionRate: device === 'phone' ? 0.3 : 0,
            },
          };
          const session = playSession(seed, fixed);
          if (!session.body) return;
          const judgement = judge(session.body);
          if (judgement.outcome === 'refuse') {
            throw new Error(describeObjection(session, judgement, fixed));
          }
        },
      ),
      { seed: SEED, numRuns: 600 },
    );
  });
});

describe('forgeries made from genuine results of the client model', () => {
  it.each(forgedResults().map((f) => [f.name, f] as const))(
    '%s: refused or held by its check',
    (_name, forgery) => {
      const { outcome, checks, figures } = judge(forgery.body);
      // Refused by one of its checks, or held with one of them among the holds.
      const caught = outcome !== 'accept' && checks.some((c) => forgery.checks.includes(c));
      expect({ outcome, checks, figures, caught }).toMatchObject({ caught: true });
    },
  );
});
