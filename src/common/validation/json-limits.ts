/**
 * Deepest nesting a request body or a JSON query value may have. The original client's deepest payload (a result
 * with its chart data) is 3 levels; class-transformer and class-validator recurse once per level, so ~1,500 levels
 * overflowed the stack (a 500) before this limit.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const QUOTE = 0x22;
/** The characters that matter: brackets and the quote that opens a string (the regex engine skips the rest). */
const STRUCTURE = /[{}[\]"]/g;
/** The rest of a string after its opening quote, escapes included, up to its closing quote. */
const STRING_REST = /(?:[^"\\]|\\.)*"/y;

/**
 * Whether a JSON text nests arrays and objects deeper than `limit`, found by one pass over the text (strings
 * skipped), before anything recursive touches it. Unbalanced text is left to the parser to refuse. The regex engine
 * jumps over the numbers and names between brackets: a result body's thousands of key timings cost a few
 * microseconds instead of a loop over every character.
 */
export function exceedsJsonDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  STRUCTURE.lastIndex = 0;
  // `test` and `lastIndex` rather than `exec`: no match object per bracket and quote (a result body has hundreds).
  while (STRUCTURE.test(text)) {
    const at = STRUCTURE.lastIndex - 1;
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      STRING_REST.lastIndex = at + 1;
      if (!STRING_REST.test(text)) return false;
      STRUCTURE.lastIndex = STRING_REST.lastIndex;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else {
      depth--;
    }
  }
  return false;
}

/**
 * Whether a JSON text could name `__proto__` or `constructor` as a key: written out, or spelled with `\u` escapes
 * (the only JSON escape that can stand for a letter). When it cannot, Fastify's parser (secure-json-parse) would find
 * nothing to refuse after its two regular-expression scans of the whole text, about 7 µs of a result body.
 */
export function mayHidePrototypeKeys(text: string): boolean {
  return text.includes('\\u') || text.includes('__proto__') || text.includes('constructor');
}
