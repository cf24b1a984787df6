/**
 * Shape checks for the records of our account export (export-format.ts). The file was written by an instance of
 * this service, but it reaches the importer through a person (a download, a mail), so every record is checked
 * before anything of it is written: a damaged or edited record is refused with the field that is wrong.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'json';
/** A field's kind; `?` after it: null allowed. `json`: any JSON value, null included. */
export type Shape = Readonly<Record<string, FieldKind | `${FieldKind}?`>>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fits(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isSafeInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'json':
      return value !== undefined;
  }
}

/** Why `value` does not have `shape` (the first field that is wrong), or null when it does. */
export function shapeProblem(value: unknown, shape: Shape): string | null {
  if (!isObject(value)) return 'not an object';
  for (const field in shape) {
    const spec = shape[field] as string;
    const nullable = spec.endsWith('?');
    const kind = (nullable ? spec.slice(0, -1) : spec) as FieldKind;
    const item = value[field];
    if (item === undefined) return `${field} is missing`;
    if (item === null && (nullable || kind === 'json')) continue;
    if (!fits(item, kind)) return `${field} is not ${kind === 'integer' ? 'an integer' : `a ${kind}`}`;
  }
  return null;
}

/** Whether every item of `value` is a string. */
export function strings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

export const between = (n: number, min: number, max: number) => n >= min && n <= max;
