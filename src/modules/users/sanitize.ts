import { Parser } from 'htmlparser2';

/** Elements whose content is not text a person typed for display. */
const DROPPED_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'textarea',
  'iframe',
  'object',
  'title',
]);

/**
 * Removes HTML markup (tags, comments, the content of script-like elements) and keeps the text as typed: entities are
 * not decoded, so an escaped `&lt;b&gt;` cannot turn into a tag here. A `<` that does not open a tag (`I <3 it`) stays.
 */
export function stripMarkup(input: string): string {
  let text = '';
  let dropping = 0;
  const parser = new Parser(
    {
      onopentagname(name) {
        if (DROPPED_CONTENT.has(name)) dropping += 1;
      },
      onclosetag(name) {
        if (DROPPED_CONTENT.has(name) && dropping > 0) dropping -= 1;
      },
      ontext(chunk) {
        if (dropping === 0) text += chunk;
      },
    },
    { decodeEntities: false, lowerCaseTags: true },
  );
  parser.write(input);
  parser.end();
  return text;
}

/**
 * Profile text as stored (spec "Profile details": markup stripped; docs/decisions/0024-users-names-and-limits.md:
 * trimmed, length-limited by the DTO). Like the original platform it also drops stray combining marks (zalgo text)
 * after composing what can be composed, so accented letters survive, and collapses runs of 3+ newlines or 3+ spaces
 * to two.
 */
export function sanitizeText(input: string): string {
  return stripMarkup(input.replace(/\r\n?/g, '\n'))
    .normalize('NFC')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[^\S\n]{3,}/g, '  ');
}
