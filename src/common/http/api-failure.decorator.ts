import { ApiResponse } from '@nestjs/swagger';

/**
 * Documents an error a handler's service answers (409 limits, 404 of an entity, ...), in the error envelope; the
 * errors every route shares (auth, validation, rate limit, 503) are added centrally (openapi-complete.ts).
 */
export const ApiFailure = (status: number, ...messages: [string, ...string[]]) =>
  ApiResponse({
    status,
    description: messages.map((m) => `"${m}"`).join(' or '),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorEnvelope' },
        example: { message: messages[0], data: null },
      },
    },
  });
