/**
 * A small schema checker for response bodies: the original client parses responses with strict schemas in places, so
 * "has these fields" is not enough there; `obj` refuses keys it does not name, `loose` allows them.
 */
export type Shape =
  | 'string'
  | 'number'
  | 'int'
  | 'boolean'
  | 'null'
  | 'any'
  | { kind: 'lit'; value: unknown }
  | { kind: 'opt'; shape: Shape }
  | { kind: 'union'; shapes: Shape[] }
  | { kind: 'array'; item: Shape; length?: number }
  | { kind: 'record'; value: Shape; key?: RegExp }
  | { kind: 'obj'; fields: Record<string, Shape>; strict: boolean };

export const lit = (value: unknown): Shape => ({ kind: 'lit', value });
/** The key may be absent (never `null`: the original client's optional fields are `undefined`, not `null`). */
export const opt = (shape: Shape): Shape => ({ kind: 'opt', shape });
export const union = (...shapes: Shape[]): Shape => ({ kind: 'union', shapes });
export const nullable = (shape: Shape): Shape => union(shape, 'null');
export const arrayOf = (item: Shape, length?: number): Shape => ({ kind: 'array', item, length });
export const record = (value: Shape, key?: RegExp): Shape => ({ kind: 'record', value, key });
export const obj = (fields: Record<string, Shape>): Shape => ({ kind: 'obj', fields, strict: true });
export const loose = (fields: Record<string, Shape>): Shape => ({ kind: 'obj', fields, strict: false });

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every way `value` departs from `shape`, as `path: problem` lines (empty when it fits). */
export function shapeErrors(value: unknown, shape: Shape, path = 'data'): string[] {
  const fail = (what: string) => [`${path}: expected ${what}, got ${JSON.stringify(value)}`];
  if (typeof shape === 'string') {
    switch (shape) {
      case 'any':
        return value === undefined ? fail('a value') : [];
      case 'null':
        return value === null ? [] : fail('null');
      case 'int':
        return Number.isInteger(value) ? [] : fail('an integer');
      case 'number':
        return typeof value === 'number' && Number.isFinite(value) ? [] : fail('a number');
      default:
        return typeof value === shape ? [] : fail(`a ${shape}`);
    }
  }
  switch (shape.kind) {
    case 'lit':
      return Object.is(value, shape.value) ? [] : fail(JSON.stringify(shape.value));
    case 'opt':
      return value === undefined ? [] : shapeErrors(value, shape.shape, path);
    case 'union':
      return shape.shapes.some((s) => shapeErrors(value, s, path).length === 0)
        ? []
        : fail(`one of ${shape.shapes.length} shapes`);
    case 'array': {
      if (!Array.isArray(value)) return fail('an array');
      if (shape.length !== undefined && value.length !== shape.length) return fail(`${shape.length} items`);
      return value.flatMap((item, i) => shapeErrors(item, shape.item, `${path}[${i}]`));
    }
    case 'record': {
      if (!isPlainObject(value)) return fail('an object');
      return Object.entries(value).flatMap(([k, v]) => [
        ...(shape.key && !shape.key.test(k) ? [`${path}: unexpected key ${JSON.stringify(k)}`] : []),
        ...shapeErrors(v, shape.value, `${path}.${k}`),
      ]);
    }
    case 'obj': {
      if (!isPlainObject(value)) return fail('an object');
      const errors = Object.entries(shape.fields).flatMap(([k, s]) =>
        shapeErrors(value[k], s, `${path}.${k}`),
      );
      if (shape.strict) {
        for (const k of Object.keys(value))
          if (!(k in shape.fields)) errors.push(`${path}: extra key "${k}"`);
      }
      return errors;
    }
  }
}
