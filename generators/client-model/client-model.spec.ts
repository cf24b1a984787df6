import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countWordChars, hangulJamo, normaliseTyped } from './counting';
import { BEHAVIOURS, countBehaviours } from './coverage';
import { genuineSessions, playSession, type Session } from './session';
import { structuralViolations, type BodyLike } from './structure';

const FIXTURES = join(__dirname, '..', '..', 'test', 'fixtures', 'original-client-results');

describe("the original client's counting of one word (countChars), with its separator", () => {
  it.each([
    ['typed right', 'hello ', 'hello ', false, [6, 6, 0, 0, 0]],
    [
      'a wrong letter left in: the letter incorrect, the space after it extra',
      'helko ',
      'hello ',
      false,
      [4, 0, 1, 1, 0],
    ],
    [
      'a letter past the end, then the space: incorrect where the space was, the space extra',
      'helloo ',
      'hello ',
      false,
      [5, 0, 1, 1, 0],
    ],
    ['the space pressed early: incorrect there, the rest missed', 'he ', 'hello ', false, [2, 0, 1, 0, 3]],
    [
      'a letter typed where the space is (last word, no space yet)',
      'hellox',
      'hello ',
      false,
      [5, 0, 0, 1, 0],
    ],
    ['the word being typed, partial credit: a right prefix counts', 'hel', 'hello ', true, [3, 3, 0, 0, 0]],
    ['the word being typed without partial credit: the rest missed', 'hel', 'hello ', false, [3, 0, 0, 0, 3]],
    ['the last word (no separator) typed right', 'end', 'end', false, [3, 3, 0, 0, 0]],
  ] as const)('%s', (_name, input, target, partial, [allCorrect, correctWord, incorrect, extra, missed]) => {
    expect(countWordChars(input, target, partial)).toEqual({
      allCorrect,
      correctWord,
      incorrect,
      extra,
      missed,
    });
  });

  it('takes typographic quotes, dashes and a Russian ё as typed plainly, and counts Hangul as jamo', () => {
    expect(normaliseTyped("'", 'don', 'don’t ', 'english')).toBe('’');
    expect(normaliseTyped('-', '', '— ', 'english')).toBe('—');
    expect(normaliseTyped('е', '', 'ёж ', 'russian')).toBe('ё');
    expect(normaliseTyped('е', '', 'ёж ', 'english')).toBe('е');
    expect(hangulJamo('한국 과자')).toBe('ㅎㅏㄴㄱㅜㄱ ㄱㅗㅏㅈㅏ');
  });
});

describe('the sessions of the model', () => {
  const sample: Session[] = [...genuineSessions(2026, 500)];
  const sent = sample.filter((s) => s.body !== null);

  it('are reproducible from their seed', () => {
    const again = playSession(sent[7]!.seed);
    expect(again.body).toEqual(sent[7]!.body);
    expect(again.log).toEqual(sent[7]!.log);
  });

  it('keep to themselves what the client does not send (too short, failed, afk at the end...)', () => {
    const unsent = sample.filter((s) => s.body === null);
    expect(unsent.every((s) => s.unsent !== null)).toBe(true);
    expect(sent.every((s) => s.unsent === null)).toBe(true);
  });

  it('cover every behaviour, mode, a range of speeds, and tests over 122 s', () => {
    const counts = countBehaviours(sent);
    expect(BEHAVIOURS.filter((b) => counts[b] === 0)).toEqual([]);
    expect(new Set(sent.map((s) => s.body!.mode))).toEqual(
      new Set(['time', 'words', 'quote', 'zen', 'custom']),
    );
    const wpm = sent.map((s) => s.body!.wpm);
    expect(Math.min(...wpm)).toBeLessThan(25);
    expect(Math.max(...wpm)).toBeGreaterThan(180);
  });

  it('have every structural property of a client body', () => {
    const violations = sent.flatMap((s) => structuralViolations(s.body!).map((v) => `seed ${s.seed}: ${v}`));
    expect(violations).toEqual([]);
  });
});

describe("the original client's captured bodies (test/fixtures/original-client-results)", () => {
  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json') && f !== 'responses.json');

  it.each(files)('%s has every structural property of a client body', (file) => {
    const body = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as { result: BodyLike };
    expect(structuralViolations(body.result)).toEqual([]);
  });

  it('a body edited by hand loses them (the properties can fail)', () => {
    const body = JSON.parse(readFileSync(join(FIXTURES, files[0]!), 'utf8')) as { result: BodyLike };
    const forged = {
      ...body.result,
      wpm: body.result.wpm + 1,
      keyConsistency: (body.result.keyConsistency ?? 0) + 1,
    };
    expect(structuralViolations(forged)).toEqual([
      'wpm = charStats[0] over testDuration',
      'keyConsistency from keySpacing',
    ]);
  });
});
