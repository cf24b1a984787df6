import { ValidateIf } from 'class-validator';

const NULLABLE = new WeakMap<object, Set<string>>();

/**
 * The field accepts `null` (and skips its other checks then). Without it an optional field refuses `null`: the
 * pipe reports `"<path>" must not be null`, because class-validator's `@IsOptional()` lets `null` through to
 * handlers and NOT NULL columns (a 500).
 */
export const Nullable = (): PropertyDecorator => (target, propertyKey) => {
  const property = String(propertyKey);
  const names = NULLABLE.get(target.constructor) ?? new Set<string>();
  names.add(property);
  NULLABLE.set(target.constructor, names);
  ValidateIf((_object: unknown, value: unknown) => value !== null)(target, property);
};

/** Whether `property` of `cls` (or of a class it extends) is declared `@Nullable()`. */
export function isNullable(cls: object, property: string): boolean {
  for (
    let c: unknown = cls;
    typeof c === 'function' && c !== Function.prototype;
    c = Object.getPrototypeOf(c)
  ) {
    if (NULLABLE.get(c)?.has(property)) return true;
  }
  return false;
}
