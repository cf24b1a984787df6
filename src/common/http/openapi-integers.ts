import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** Whether a class-validator rule admits integers only: `@IsInt()`, or `@IsIn([...])` of whole numbers. */
export function isIntegerRule(rule: ValidationMetadata): boolean {
  if (rule.name === 'isInt') return true;
  const [values] = (rule.constraints ?? []) as unknown[];
  return rule.name === 'isIn' && Array.isArray(values) && values.length > 0 && values.every(Number.isInteger);
}

/**
 * `@IsInt()` fields (and `@IsIn` of whole numbers) of the DTOs (bodies, queries, path parameters) are documented as
 * `integer`: the Swagger plugin reads class-validator's bounds but not those rules, and would say `number`. Runs
 * before the document is built; the plugin's other facts of the field (optionality, bounds, description) still merge
 * in, as an explicit `@ApiProperty` only sets what it names. Safe to run again (another app in the same process).
 */
export function declareIntegerFields(): void {
  // The storage keeps its rules by target class in a private map: the public readers need the class first.
  const storage = getMetadataStorage() as unknown as {
    validationMetadatas: Map<abstract new (...args: never[]) => unknown, ValidationMetadata[]>;
  };
  for (const [target, rules] of storage.validationMetadatas) {
    if (typeof target !== 'function') continue;
    for (const rule of rules) {
      if (!isIntegerRule(rule)) continue;
      const integer: ApiPropertyOptions =
        rule.each === true ? { type: 'array', items: { type: 'integer' } } : { type: 'integer' };
      ApiProperty(integer)(target.prototype as object, rule.propertyName);
    }
  }
}
