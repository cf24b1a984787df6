import { isLanguage } from '../../../../common/languages';
import { MODES } from '../../../results/dto/completed-result.dto';
import type { PersonalBestRow } from '../import-records';
import { personalBestProblem } from '../live-rules';
import type { Notes } from '../mapped';
import { bool, isPlainObject, millis, num, text } from './values';

/** Languages the original renamed; old results and personal bests still carry the old name. */
const RENAMED_LANGUAGES: Readonly<Record<string, string>> = { english_expanded: 'english_1k' };

/** A language as we know it, or undefined (an unknown language cannot have boards or settings here). */
export function language(value: unknown): string | undefined {
  const raw = text(value);
  if (raw === undefined) return undefined;
  const name = RENAMED_LANGUAGES[raw] ?? raw;
  return isLanguage(name) ? name : undefined;
}

/**
 * `mode2` as the original's current schema has it: text. Old versions stored numbers (time and words lengths, quote
 * ids); zen and custom tests have their mode's name.
 */
export function mode2For(mode: string, value: unknown): string | undefined {
  if (mode === 'zen' || mode === 'custom') return mode;
  const n = num(value);
  if (n === undefined || !Number.isInteger(n) || n < 0 || n > 9_999_999_999) return undefined;
  return String(n);
}

const keyOf = (pb: PersonalBestRow) =>
  [pb.mode, pb.mode2, pb.language, pb.difficulty, pb.punctuation, pb.numbers, pb.lazy_mode].join('\u0000');

/**
 * One personal best of the original (`{ acc, consistency, difficulty, language, punctuation, numbers?, lazyMode?,
 * raw, wpm, timestamp }`). Old ones lack `numbers` and `lazyMode` (off then), and the oldest lack `acc`, `raw`,
 * `consistency`, `timestamp` (0 here, as the original's client shows "-" for them) or even `language` (left out:
 * the original never compared a result with such a best, so it could neither be beaten nor ranked). The rest is
 * judged by the rules of the result it stands for (live-rules.ts).
 */
function personalBest(mode: string, mode2: string, raw: unknown, path: string, notes: Notes) {
  if (!isPlainObject(raw)) return notes.leftOut(path, 'not a personal best', raw);
  const wpm = num(raw.wpm);
  if (wpm === undefined) return notes.leftOut(path, 'no wpm', raw);
  if (raw.language === undefined) return notes.leftOut(path, 'no language', raw);
  const pb = {
    mode,
    mode2,
    language: language(raw.language) ?? String(raw.language),
    difficulty: raw.difficulty === undefined ? 'normal' : String(raw.difficulty),
    punctuation: bool(raw.punctuation) ?? false,
    numbers: bool(raw.numbers) ?? false,
    lazy_mode: bool(raw.lazyMode) ?? false,
    wpm,
    acc: num(raw.acc) ?? 0,
    raw: Math.max(0, num(raw.raw) ?? 0),
    consistency: num(raw.consistency) ?? 0,
    timestamp: millis(raw.timestamp) ?? 0,
  } satisfies PersonalBestRow;
  const problem = personalBestProblem(pb);
  if (problem !== null) return notes.leftOut(path, problem, raw);
  const missing = ['acc', 'raw', 'consistency', 'timestamp'].filter((k) => raw[k] === undefined);
  if (missing.length > 0) notes.changed(path, `${missing.join(', ')} missing in the original: 0`);
  return pb;
}

/** Keeps the better of two bests with one key (the original keeps one per key; older data may hold two). */
function mergeInto(target: Map<string, PersonalBestRow>, pb: PersonalBestRow): 'added' | 'improved' | 'kept' {
  const key = keyOf(pb);
  const existing = target.get(key);
  if (existing === undefined) {
    target.set(key, pb);
    return 'added';
  }
  if (pb.wpm > existing.wpm) {
    target.set(key, pb);
    return 'improved';
  }
  return 'kept';
}

/** `personalBests` of a user or tag: `{ <mode>: { <mode2>: PersonalBest[] } }` (a lone object also accepted). */
export function mapPersonalBests(raw: unknown, path: string, notes: Notes): Map<string, PersonalBestRow> {
  const out = new Map<string, PersonalBestRow>();
  if (raw === undefined || raw === null) return out;
  if (!isPlainObject(raw)) {
    notes.leftOut(path, 'not an object of personal bests', raw);
    return out;
  }
  for (const [mode, byMode2] of Object.entries(raw)) {
    if (!MODES.includes(mode as (typeof MODES)[number])) {
      notes.leftOut(`${path}.${mode}`, 'unknown mode', byMode2);
      continue;
    }
    if (!isPlainObject(byMode2)) {
      if (byMode2 !== null && byMode2 !== undefined)
        notes.leftOut(`${path}.${mode}`, 'not an object', byMode2);
      continue;
    }
    for (const [key, list] of Object.entries(byMode2)) {
      const mode2 = mode2For(mode, key);
      if (mode2 === undefined) {
        notes.leftOut(`${path}.${mode}.${key}`, 'not a valid mode2', list);
        continue;
      }
      const items = Array.isArray(list) ? list : [list];
      items.forEach((item, i) => {
        const pb = personalBest(mode, mode2, item, `${path}.${mode}.${key}[${i}]`, notes);
        if (pb && mergeInto(out, pb) === 'kept')
          notes.leftOut(
            `${path}.${mode}.${key}[${i}]`,
            'a better personal best with the same settings exists',
          );
      });
    }
  }
  return out;
}

/**
 * `lbPersonalBests` (`{ time: { "15"|"60": { <language>: PersonalBest } } }`): the original's copy of the best
 * personal bests it ranks. Our boards are built from the personal bests themselves, so the copy is merged into them:
 * where it holds a better best than `personalBests` (older data), that best is kept.
 */
export function mergeLeaderboardCopy(
  raw: unknown,
  bests: Map<string, PersonalBestRow>,
  path: string,
  notes: Notes,
): void {
  if (!isPlainObject(raw) || !isPlainObject(raw.time)) return;
  for (const [key, byLanguage] of Object.entries(raw.time)) {
    const mode2 = mode2For('time', key);
    if (mode2 === undefined || !isPlainObject(byLanguage)) continue;
    for (const [lang, entry] of Object.entries(byLanguage)) {
      if (!isPlainObject(entry) || Object.keys(entry).length === 0) continue;
      const withLanguage = { language: lang, ...entry };
      const scratch = new (notes.constructor as new () => Notes)();
      const pb = personalBest('time', mode2, withLanguage, `${path}.time.${key}.${lang}`, scratch);
      if (!pb) continue;
      const outcome = mergeInto(bests, pb);
      if (outcome !== 'kept')
        notes.changed(`${path}.time.${key}.${lang}`, 'personal best taken from the leaderboard copy', entry);
    }
  }
}
