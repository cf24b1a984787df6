import { afkVerdict } from './anti-cheat/afk';

/** The fields normalisation touches. */
export interface NormalisedFields {
  afkDuration: number;
  testDuration: number;
  tags: string[];
}

/**
 * Step 2 of `POST /results`: what the client sends in a form we store otherwise. The client rounds `afkDuration` and
 * `testDuration` separately, so time away above the test's length by less than a second is that rounding: clamped
 * (by a second or more the judge refuses it). A tag named twice is one tag. Returns a copy; the body stays as sent.
 */
export function normaliseResult<T extends NormalisedFields>(result: T): T {
  const afkDuration =
    afkVerdict(result.afkDuration, result.testDuration) === 'clamp'
      ? result.testDuration
      : result.afkDuration;
  const tags = new Set(result.tags).size === result.tags.length ? result.tags : [...new Set(result.tags)];
  if (afkDuration === result.afkDuration && tags === result.tags) return result;
  return Object.assign(Object.create(Object.getPrototypeOf(result) as object) as T, result, {
    afkDuration,
    tags,
  });
}
