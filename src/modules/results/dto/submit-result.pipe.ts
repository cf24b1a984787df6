import { Injectable, type PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { MESSAGES, ValidationFailed } from '../../../common/app-error';
import { validateStrict } from '../../../common/validation/strict-validation';
import { formatValidationErrors } from '../../../common/validation/validation.pipe';
import { CompletedResultDto } from './completed-result.dto';
import { SubmitResultDto } from './submit-result.dto';

/** Lists of plain numbers that can run to thousands of items (validated by their own one-pass validators). */
const BULK_FIELDS = ['keySpacing', 'keyDuration', 'chartData'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The `POST /results` body, validated exactly like the global pipe does (same options, same 422 and messages), except
 * that the key-timing and chart lists bypass class-transformer: it copies arrays item by item, which made it the
 * largest cost of a submission. Those fields hold only numbers (or "toolong"), so the instance can take them as sent.
 * The route declares its body with an interface type, so the global pipe leaves it to this one.
 */
@Injectable()
export class SubmitResultPipe implements PipeTransform<unknown, SubmitResultDto> {
  transform(value: unknown): SubmitResultDto {
    const body = value ?? {};
    if (!isPlainObject(body)) {
      throw new ValidationFailed(422, MESSAGES.invalidBody, [
        `Expected object, received ${Array.isArray(body) ? 'array' : typeof body}`,
      ]);
    }
    const bulk: Record<string, unknown> = {};
    let result = body.result;
    if (isPlainObject(result)) {
      result = { ...result };
      for (const field of BULK_FIELDS) {
        if (field in (result as Record<string, unknown>)) {
          bulk[field] = (result as Record<string, unknown>)[field];
          delete (result as Record<string, unknown>)[field];
        }
      }
    }
    const instance = plainToInstance(SubmitResultDto, { ...body, result }, { exposeDefaultValues: true });
    if (instance.result instanceof CompletedResultDto) Object.assign(instance.result, bulk);
    const errors = validateStrict(instance);
    if (errors.length > 0) {
      throw new ValidationFailed(422, MESSAGES.invalidBody, formatValidationErrors(errors));
    }
    return instance;
  }
}
