import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';

/** Metadata key of the failures a handler declares (read by the API document's completeness test). */
export const API_FAILURES = 'typing:api-failures';

export interface DeclaredFailure {
  status: number;
  messages: string[];
}

/** The failures declared on a handler with `@ApiFailure`. */
export function declaredFailures(handler: object): DeclaredFailure[] {
  return (Reflect.getMetadata(API_FAILURES, handler) as DeclaredFailure[] | undefined) ?? [];
}

/**
 * Documents an error a handler's service answers (409 limits, 404 of an entity, ...), in the error envelope; the
 * errors every route shares (auth, validation, rate limit, 503) are added centrally (openapi-complete.ts). One
 * decorator per status, with every message of that status (a second one for the same status would replace it).
 */
export const ApiFailure = (status: number, ...messages: [string, ...string[]]) =>
  applyDecorators(
    ApiResponse({
      status,
      description: messages.map((m) => `"${m}"`).join(' or '),
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorEnvelope' },
          example: { message: messages[0], data: null },
        },
      },
    }),
    (_target: object, _key: string | symbol, descriptor: PropertyDescriptor) => {
      const handler = descriptor.value as object;
      Reflect.defineMetadata(API_FAILURES, [...declaredFailures(handler), { status, messages }], handler);
    },
  );
