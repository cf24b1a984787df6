import { RouteSchema } from '@nestjs/platform-fastify';
import { PAYLOAD_SCHEMAS } from '../../generated/openapi-payloads';

/** The envelope `{ message, data }` around a handler's payload schema. */
export function envelopeSchema(payload: object): object {
  return {
    type: 'object',
    properties: { message: { type: 'string' }, data: payload },
    required: ['message', 'data'],
  };
}

/**
 * A hot route's 200 answer serialised by a function compiled from its payload's schema (Fastify's response schema,
 * fast-json-stringify) instead of JSON.stringify. The schema is the one the API document shows, generated from the
 * handler's return type (`npm run docs:metadata`), so the document and the serialiser cannot disagree. A field the
 * schema does not list would be dropped: the test apps compare every compiled answer with JSON.stringify's
 * (test/support/serialisation-audit.ts), so no test passes with a field missing.
 */
export function CompiledResponse(): MethodDecorator {
  return (target, key, descriptor) => {
    const name = `${target.constructor.name}_${String(key)}`;
    const payload = PAYLOAD_SCHEMAS[name];
    if (!payload || Object.keys(payload).length === 0) {
      throw new Error(`CompiledResponse: no payload schema for ${name} (npm run docs:metadata)`);
    }
    RouteSchema({ response: { 200: envelopeSchema(payload) } })(target, key, descriptor);
  };
}
