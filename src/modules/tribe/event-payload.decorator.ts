import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * An event's payload, as the client sent it. Not `@MessageBody()`: Nest hands a message body to the global pipes
 * as an HTTP body (their parameter kinds share numbers), where the API's validation pipe would refuse payloads the
 * gateway answers itself (and throw before any acknowledgement). Each event checks its payload in `domain/payloads`.
 */
export const EventPayload = createParamDecorator((_data: unknown, context: ExecutionContext): unknown =>
  context.switchToWs().getData(),
);
