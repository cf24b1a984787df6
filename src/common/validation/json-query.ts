import { exceedsJsonDepth } from './json-limits';

export type QueryValue = unknown;

function decode(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    // Bad percent-encoding or encoded lone surrogates: kept as sent, so validation refuses the value (400), never a
    // URIError (500).
    return spaced;
  }
}

/** One value in the original client's JSON query mode: parsed when it is JSON (and not too deep), else the string. */
export function jsonQueryValue(raw: string): QueryValue {
  if (raw === '') return raw;
  const first = raw.charCodeAt(0);
  // Only texts that can start a JSON value are tried, so plain words skip the exception path.
  const candidate =
    first === 0x22 || first === 0x5b || first === 0x7b || first === 0x2d || (first >= 0x30 && first <= 0x39);
  if (!candidate && raw !== 'true' && raw !== 'false' && raw !== 'null') return raw;
  if (exceedsJsonDepth(raw)) return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/**
 * The query string as ts-rest's JSON query mode reads it (docs/decisions/0008-json-query-mode.md): each value goes
 * through `JSON.parse` when it parses (`mode2=%2215%22` → "15", `page=0` → 0, `status=%5B%22pending%22%5D` → array),
 * otherwise it stays the raw string; repeated keys give an array. The result has no prototype, so no key
 * (`__proto__`, `constructor`) can reach or shadow anything inherited; validation then refuses unknown keys.
 */
export function parseJsonQuery(query: string): Record<string, QueryValue> {
  const result = Object.create(null) as Record<string, QueryValue>;
  if (query === '') return result;
  // Keys already turned into an array of their repetitions (a first value may itself be a parsed JSON array).
  const repeated = new Set<string>();
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = decode(eq === -1 ? pair : pair.slice(0, eq));
    const value = jsonQueryValue(decode(eq === -1 ? '' : pair.slice(eq + 1)));
    if (!(key in result)) result[key] = value;
    else {
      const existing = result[key];
      if (repeated.has(key)) (existing as QueryValue[]).push(value);
      else {
        result[key] = [existing, value];
        repeated.add(key);
      }
    }
  }
  return result;
}
