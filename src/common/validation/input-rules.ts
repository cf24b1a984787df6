import { getMetadataStorage, type ValidationError } from 'class-validator';
import { isNullable } from './nullable';

/** UTF-16 halves without their pair (`encodeURIComponent` throws on them, PostgreSQL cannot store them). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
export const BAD_STRING_MESSAGE = 'must not contain NUL characters or unpaired surrogates';
export const UNSAFE_NUMBER_MESSAGE = `must be a finite number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
export const NULL_MESSAGE = 'must not be null';

export function hasBadCharacters(text: string): boolean {
  // NUL: PostgreSQL text and jsonb refuse it.
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** Optional, non-nullable properties of a DTO class (cached; metadata never changes after start-up). */
const optionalProperties = new Map<object, Set<string>>();

function optionalPropertiesOf(cls: new () => object): Set<string> {
  let names = optionalProperties.get(cls);
  if (!names) {
    names = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(cls, '', true, false)
        .filter((m) => m.name === 'isOptional' && !isNullable(cls, m.propertyName))
        .map((m) => m.propertyName),
    );
    optionalProperties.set(cls, names);
  }
  return names;
}

/** A leaf's children: shared, never handed out (an error gets a fresh array). */
const NO_ERRORS: ValidationError[] = [];

function error(property: string, constraints: Record<string, string>, children: ValidationError[] = []) {
  return { property, constraints, children } as ValidationError;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function dtoClassOf(instance: unknown): (new () => object) | undefined {
  if (!isObject(instance) || Array.isArray(instance)) return undefined;
  const proto = Object.getPrototypeOf(instance) as { constructor?: unknown } | null;
  if (proto === null || proto === Object.prototype) return undefined;
  return typeof proto.constructor === 'function' ? (proto.constructor as new () => object) : undefined;
}

/** A leaf value's own problem, if any. */
function leafProblem(value: unknown): Record<string, string> | undefined {
  if (typeof value === 'string')
    return hasBadCharacters(value) ? { badCharacters: BAD_STRING_MESSAGE } : undefined;
  if (typeof value === 'number' && !(Number.isFinite(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER)) {
    return { unsafeNumber: UNSAFE_NUMBER_MESSAGE };
  }
  return undefined;
}

/**
 * Rules class-validator cannot express once for every DTO, checked over the received value (`input`) next to what
 * class-transformer made of it (`instance`, which tells the DTO class of each nested object and the converted query
 * numbers):
 * - keys every object inherits (`constructor`, `toString`, `__proto__`, ...) are unknown keys: class-transformer
 *   skips them and class-validator's whitelist finds them "declared" on the prototype, so strict bodies let them by;
 * - `null` is refused on optional fields unless they are `@Nullable()`;
 * - strings (values and keys) may hold no NUL and no unpaired surrogate;
 * - numbers are finite and within the safe-integer range (1e400, 99999999999999999999).
 * Without `instance` the value as received is checked (no nullability); with it (after transform) only nullability
 * and the leaves the transform changed, the rest having been checked already. Returned as class-validator errors, to
 * be merged with its own and formatted the same way.
 */
export function inputRuleErrors(input: unknown, instance?: unknown): ValidationError[] {
  if (!isObject(input)) return [];
  const converted = isObject(instance) ? instance : undefined;
  if (Array.isArray(input)) return arrayRuleErrors(input, converted as unknown[] | undefined);
  const errors: ValidationError[] = [];
  const cls = dtoClassOf(instance);
  const optional = cls ? optionalPropertiesOf(cls) : undefined;
  for (const key of Object.keys(input)) {
    // Built only when a rule fails: a valid key allocates nothing (result bodies have about 40).
    let constraints: Record<string, string> | undefined;
    // The pipe checks the value as received first: keys and unconverted leaves need no second look after transform.
    if (!converted && key in Object.prototype)
      constraints = { whitelistValidation: `property ${key} should not exist` };
    if (!converted && hasBadCharacters(key))
      constraints = { ...constraints, badKey: `key ${BAD_STRING_MESSAGE}` };
    const raw = input[key];
    const value = converted && Object.prototype.hasOwnProperty.call(converted, key) ? converted[key] : raw;
    if (raw === null && optional?.has(key)) constraints = { ...constraints, isNotNull: NULL_MESSAGE };
    const problem = !converted || value !== raw ? leafProblem(value) : undefined;
    if (problem) constraints = { ...constraints, ...problem };
    const children = isObject(raw)
      ? inputRuleErrors(raw, converted && isObject(value) ? value : undefined)
      : NO_ERRORS;
    if (constraints || children.length > 0) {
      // A bad key is named escaped (`a\u0000`), so the message itself stays printable text.
      const name = constraints?.badKey ? JSON.stringify(key).slice(1, -1) : key;
      errors.push(error(name, constraints ?? {}, children === NO_ERRORS ? [] : children));
    }
  }
  return errors;
}

/** Arrays walked by index: result bodies carry lists of thousands of numbers. */
function arrayRuleErrors(input: unknown[], converted: unknown[] | undefined): ValidationError[] {
  const errors: ValidationError[] = [];
  for (let i = 0; i < input.length; i++) {
    const raw = input[i];
    const value = converted && i < converted.length ? converted[i] : raw;
    // A finite number within the safe range, unchanged by the transform, has no problem: decided inline, so a list
    // of key timings is checked without boxing each of its numbers for a call (NaN fails both comparisons).
    if (
      typeof raw === 'number' &&
      value === raw &&
      raw >= -Number.MAX_SAFE_INTEGER &&
      raw <= Number.MAX_SAFE_INTEGER
    )
      continue;
    // After transform only converted leaves are new (result bodies: thousands of unchanged numbers).
    const problem = !converted || value !== raw ? leafProblem(value) : undefined;
    const children = isObject(raw)
      ? inputRuleErrors(raw, converted && isObject(value) ? value : undefined)
      : NO_ERRORS;
    if (problem || children.length > 0)
      errors.push(error(String(i), problem ?? {}, children === NO_ERRORS ? [] : children));
  }
  return errors;
}

/** A primitive parameter (`@Param('name') name: string`): only the leaf rules apply. */
export function leafRuleErrors(property: string, value: unknown): ValidationError[] {
  const problem = leafProblem(value);
  return problem ? [error(property, problem)] : [];
}

/** class-validator's errors and ours as one tree: same property merged, constraints and children combined. */
export function mergeValidationErrors(a: ValidationError[], b: ValidationError[]): ValidationError[] {
  if (b.length === 0) return a;
  const merged = [...a];
  for (const extra of b) {
    const same = merged.findIndex((e) => e.property === extra.property);
    if (same === -1) {
      merged.push(extra);
      continue;
    }
    const existing = merged[same]!;
    merged[same] = error(
      existing.property,
      { ...existing.constraints, ...extra.constraints },
      mergeValidationErrors(existing.children ?? [], extra.children ?? []),
    );
  }
  return merged;
}
