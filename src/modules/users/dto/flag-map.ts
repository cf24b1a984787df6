import { ValidateBy, type ValidationOptions } from 'class-validator';

export interface FlagMapRule {
  /** The keys allowed (a list, or a test for open sets such as languages and tag ids). */
  keys: readonly string[] | ((key: string) => boolean);
  /** Every listed key must be present (the original's strict objects such as `pb {no, yes}`). */
  required?: boolean;
}

/** Why `value` is not an object of booleans under `rule`, or null. */
export function flagMapProblem(value: unknown, rule: FlagMapRule): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be an object';
  const record = value as Record<string, unknown>;
  const allowed = (key: string) =>
    typeof rule.keys === 'function' ? rule.keys(key) : rule.keys.includes(key);
  const unknown = Object.keys(record).filter((k) => !allowed(k));
  if (unknown.length > 0) return `Unrecognized key(s) in object: ${unknown.map((k) => `'${k}'`).join(', ')}`;
  if (rule.required && Array.isArray(rule.keys)) {
    const missing = (rule.keys as readonly string[]).find((k) => !(k in record));
    if (missing !== undefined) return `${missing} is required`;
  }
  const notBoolean = Object.keys(record).find((k) => typeof record[k] !== 'boolean');
  return notBoolean === undefined ? null : `${notBoolean} must be a boolean`;
}

/** An object mapping filter keys to booleans, as the original's result filters are (contract facts §12.9). */
export const IsFlagMap = (rule: FlagMapRule, options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isFlagMap',
      validator: {
        validate: (value: unknown) => flagMapProblem(value, rule) === null,
        defaultMessage: (args) => flagMapProblem(args?.value, rule) ?? 'must be an object of booleans',
      },
    },
    options,
  );
