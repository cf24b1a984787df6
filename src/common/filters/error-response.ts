import { randomUUID } from 'node:crypto';
import { HttpException, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError, MESSAGES, ValidationFailed } from '../app-error';

export interface ErrorBody {
  message: string;
  data: null;
  validationErrors?: string[];
  errorId?: string;
}

const logger = new Logger('HttpError');

/** Messages for statuses that reach us from the framework rather than from our own code. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: MESSAGES.invalidParameters,
  401: MESSAGES.unauthorized,
  403: MESSAGES.noPermission,
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  411: 'Length required',
  413: 'Request body is too large',
  414: 'Request URL is too long',
  415: 'Unsupported media type: send JSON with Content-Type: application/json',
  429: MESSAGES.rateLimited,
  431: 'Request headers are too large',
};

function pathOf(request: FastifyRequest): string {
  const url = request.url ?? '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function statusOf(exception: unknown): number | undefined {
  if (exception instanceof HttpException) return exception.getStatus();
  if (typeof exception === 'object' && exception !== null && 'statusCode' in exception) {
    const code = Number((exception as { statusCode: unknown }).statusCode);
    if (Number.isInteger(code) && code >= 400 && code < 600) return code;
  }
  return undefined;
}

/**
 * Every error response of the service: `{ message, data: null }` (+ `validationErrors`). Unexpected failures become
 * 500 `Internal server error` with an id that is logged with the stack and returned, never the stack itself.
 */
export function toErrorResponse(
  exception: unknown,
  request: FastifyRequest,
): { status: number; body: ErrorBody } {
  if (exception instanceof ValidationFailed) {
    return {
      status: exception.status,
      body: { message: exception.message, data: null, validationErrors: exception.validationErrors },
    };
  }
  if (exception instanceof AppError) {
    if (exception.status >= 500 && exception.status !== 503) {
      const errorId = randomUUID();
      logger.error(
        {
          reqId: request.id,
          errorId,
          status: exception.status,
          details: exception.details,
          url: request.url,
        },
        exception.message,
      );
      return { status: exception.status, body: { message: exception.message, data: null, errorId } };
    }
    return { status: exception.status, body: { message: exception.message, data: null } };
  }
  const status = statusOf(exception);
  if (status === 404) {
    return {
      status,
      body: { message: `Unknown request URL (${request.method}: ${pathOf(request)})`, data: null },
    };
  }
  if (status === 503) {
    return { status, body: { message: 'Service unavailable', data: null } };
  }
  if (status !== undefined && status < 500) {
    return {
      status,
      body: { message: FRAMEWORK_MESSAGES[status] ?? MESSAGES.invalidParameters, data: null },
    };
  }
  const errorId = randomUUID();
  logger.error(
    {
      reqId: request.id,
      errorId,
      err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : exception,
      url: request.url,
    },
    'unexpected failure',
  );
  return { status: 500, body: { message: MESSAGES.internal, data: null, errorId } };
}
