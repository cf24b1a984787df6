/**
 * PostgreSQL COPY text format (one line per row, tab-separated, `\N` for null): what the results go through, the
 * fastest way into PostgreSQL. Escaping follows the COPY documentation: backslash, tab, newline and carriage return
 * are escaped in every value; array elements are double-quoted with `"` and `\` escaped first.
 */
const SPECIAL = /[\\\t\n\r]/;

function copyText(value: string): string {
  if (!SPECIAL.test(value)) return value;
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

function arrayElement(value: string | number): string {
  if (typeof value === 'number') return String(value);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export type CopyValue = string | number | boolean | null | readonly (string | number)[] | { json: unknown };

/** One value in COPY text form; objects to store as jsonb are passed as `{ json }`. */
export function copyValue(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return copyText(value);
  if (Array.isArray(value)) return copyText(`{${value.map(arrayElement).join(',')}}`);
  const json = (value as { json: unknown }).json;
  return json === null || json === undefined ? '\\N' : copyText(JSON.stringify(json));
}

export function copyLine(values: readonly CopyValue[]): string {
  return `${values.map(copyValue).join('\t')}\n`;
}
