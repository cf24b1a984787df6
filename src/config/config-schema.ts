/**
 * A tiny schema language for the server configuration document: every leaf carries its type, bounds and default, so
 * defaults, PATCH validation and the merge rules all come from one description.
 */
export type Leaf =
  | { kind: 'boolean'; default: boolean }
  | { kind: 'number'; default: number; integer?: boolean; min?: number; max?: number }
  | { kind: 'string'; default: string; maxLength?: number; options?: readonly string[] }
  | { kind: 'array'; default: unknown[]; item: Leaf | ObjectNode; maxItems?: number };
export interface ObjectNode {
  kind: 'object';
  fields: Record<string, Node>;
}
export type Node = Leaf | ObjectNode;

export const s = {
  bool: (def: boolean): Leaf => ({ kind: 'boolean', default: def }),
  int: (def: number, min?: number, max?: number): Leaf => ({
    kind: 'number',
    default: def,
    integer: true,
    min,
    max,
  }),
  num: (def: number, min?: number, max?: number): Leaf => ({ kind: 'number', default: def, min, max }),
  str: (def: string, maxLength?: number): Leaf => ({ kind: 'string', default: def, maxLength }),
  /** One of a few fixed strings (a select in the configuration editor). */
  oneOf: (options: readonly string[], def: string): Leaf => ({ kind: 'string', default: def, options }),
  arr: (item: Leaf | ObjectNode, def: unknown[] = [], maxItems?: number): Leaf => ({
    kind: 'array',
    default: def,
    item,
    maxItems,
  }),
  obj: (fields: Record<string, Node>): ObjectNode => ({ kind: 'object', fields }),
};

export function defaultsOf(node: Node): unknown {
  if (node.kind === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node.fields)) out[key] = defaultsOf(child);
    return out;
  }
  return structuredClone(node.default);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function quoted(path: string): string {
  return path === '' ? '' : `"${path}" `;
}

/**
 * Validates `value` against `node`. With `partial`, object fields may be missing (a deep partial); array items are
 * always validated whole. Returns messages in the service's `"<dotted.path>" <problem>` form.
 */
export function validateAgainst(node: Node, value: unknown, path: string, partial: boolean): string[] {
  const errors: string[] = [];
  if (node.kind === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return [`${quoted(path)}Expected object, received ${typeName(value)}`];
    }
    const record = value as Record<string, unknown>;
    const unknownKeys = Object.keys(record).filter((k) => !(k in node.fields));
    if (unknownKeys.length > 0) {
      errors.push(
        `${quoted(path)}Unrecognized key(s) in object: ${unknownKeys.map((k) => `'${k}'`).join(', ')}`,
      );
    }
    for (const [key, child] of Object.entries(node.fields)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (!(key in record) || record[key] === undefined) {
        if (!partial) errors.push(`"${childPath}" Required`);
        continue;
      }
      errors.push(...validateAgainst(child, record[key], childPath, partial));
    }
    return errors;
  }
  switch (node.kind) {
    case 'boolean':
      if (typeof value !== 'boolean')
        errors.push(`${quoted(path)}Expected boolean, received ${typeName(value)}`);
      break;
    case 'string':
      if (typeof value !== 'string')
        errors.push(`${quoted(path)}Expected string, received ${typeName(value)}`);
      else if (node.maxLength !== undefined && value.length > node.maxLength)
        errors.push(`${quoted(path)}String must contain at most ${node.maxLength} character(s)`);
      else if (node.options !== undefined && !node.options.includes(value))
        errors.push(
          `${quoted(path)}Invalid enum value. Expected ${node.options.map((o) => `'${o}'`).join(' | ')}, received '${value}'`,
        );
      break;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        errors.push(`${quoted(path)}Expected number, received ${typeName(value)}`);
      } else if (node.integer && !Number.isInteger(value)) {
        errors.push(`${quoted(path)}Expected integer, received float`);
      } else if (node.min !== undefined && value < node.min) {
        errors.push(`${quoted(path)}Number must be greater than or equal to ${node.min}`);
      } else if (node.max !== undefined && value > node.max) {
        errors.push(`${quoted(path)}Number must be less than or equal to ${node.max}`);
      }
      break;
    case 'array':
      if (!Array.isArray(value)) {
        errors.push(`${quoted(path)}Expected array, received ${typeName(value)}`);
      } else {
        if (node.maxItems !== undefined && value.length > node.maxItems)
          errors.push(`${quoted(path)}Array must contain at most ${node.maxItems} element(s)`);
        value.forEach((item, i) => errors.push(...validateAgainst(node.item, item, `${path}.${i}`, false)));
      }
      break;
  }
  return errors;
}

/** Deep merge for plain objects; arrays and primitives from `patch` replace what `base` had. */
export function deepMerge<T>(base: T, patch: unknown): T {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return structuredClone(patch) as T;
  if (typeof base !== 'object' || base === null || Array.isArray(base)) return structuredClone(patch) as T;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === undefined) continue;
    out[key] = key in out ? deepMerge(out[key], value) : structuredClone(value);
  }
  return out as T;
}

/**
 * Keeps only the parts of a stored document that still fit the schema (keys removed from the schema or whose type
 * changed are dropped), so an old stored document never breaks a newer server.
 */
export function pruneToSchema(node: Node, value: unknown): unknown {
  if (node.kind === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node.fields)) {
      const pruned = pruneToSchema(child, (value as Record<string, unknown>)[key]);
      if (pruned !== undefined) out[key] = pruned;
    }
    return out;
  }
  if (value === undefined) return undefined;
  return validateAgainst(node, value, '', false).length === 0 ? value : undefined;
}
