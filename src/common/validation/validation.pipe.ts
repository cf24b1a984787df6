import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import type { ValidationError } from 'class-validator';
import { MESSAGES, ValidationFailed } from '../app-error';
import { inputRuleErrors, leafRuleErrors, mergeValidationErrors } from './input-rules';
import { validateStrict } from './strict-validation';

const PASS_THROUGH = new Set<unknown>([String, Boolean, Number, Array, Object, undefined]);

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function withoutLeadingProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/**
 * class-validator errors as `"<dotted.path>" <problem>` strings (docs/decisions/0007-envelope-and-status-codes.md),
 * unknown keys reported once per object as `Unrecognized key(s) in object: 'a', 'b'` (without a path at the root).
 */
export function formatValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const messages: string[] = [];
  const unknownKeys: string[] = [];
  for (const error of errors) {
    const path = parent === '' ? error.property : `${parent}.${error.property}`;
    for (const [name, message] of Object.entries(error.constraints ?? {})) {
      if (name === 'whitelistValidation') unknownKeys.push(error.property);
      else messages.push(`"${path}" ${withoutLeadingProperty(message, error.property)}`);
    }
    if (error.children && error.children.length > 0)
      messages.push(...formatValidationErrors(error.children, path));
  }
  if (unknownKeys.length > 0) {
    const where = parent === '' ? '' : `"${parent}" `;
    messages.unshift(`${where}Unrecognized key(s) in object: ${unknownKeys.map((k) => `'${k}'`).join(', ')}`);
  }
  return messages;
}

/**
 * The one validation pipe: DTO classes validate bodies (422 `Invalid request data schema`) and query strings or path
 * parameters (400 `Invalid request parameters`). Strict: unknown keys are errors. A missing body counts as `{}`.
 */
@Injectable()
export class AppValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const { metatype, type } = metadata;
    if (type === 'custom') return value;
    const isBody = type === 'body';
    const status = isBody ? 422 : 400;
    const message = isBody ? MESSAGES.invalidBody : MESSAGES.invalidParameters;
    if (PASS_THROUGH.has(metatype) || typeof metatype !== 'function') {
      // Untyped bodies (handed on to a route pipe) and plain string parameters still get the rules every input obeys.
      const errors =
        typeof value === 'object' && value !== null
          ? inputRuleErrors(value)
          : leafRuleErrors(metadata.data ?? type, value);
      if (errors.length > 0) throw new ValidationFailed(status, message, formatValidationErrors(errors));
      return value;
    }

    const input = value === undefined || value === null ? {} : value;
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw new ValidationFailed(status, message, [`Expected object, received ${typeName(input)}`]);
    }
    // First the rules on the value as received: class-transformer and class-validator themselves throw on some of
    // what they refuse (an inherited key holding an object, a lone surrogate given to IsEmail).
    const received = inputRuleErrors(input);
    if (received.length > 0) throw new ValidationFailed(status, message, formatValidationErrors(received));
    const instance = plainToInstance(
      metatype as new () => object,
      { ...input },
      { exposeDefaultValues: true },
    );
    const classErrors = validateStrict(instance);
    // Then the rules that need the DTO classes (nullability) or the converted values (query numbers).
    const errors = mergeValidationErrors(classErrors, inputRuleErrors(input, instance));
    if (errors.length > 0) throw new ValidationFailed(status, message, formatValidationErrors(errors));
    return instance;
  }
}
