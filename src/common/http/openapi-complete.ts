import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
  SecurityRequirementObject,
} from '@nestjs/swagger';
import { MESSAGES } from '../app-error';
import type { RoutePolicy } from '../auth/policy';
import type { RouteFacts } from './openapi-routes';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head'] as const;

const SCHEMA = {
  Envelope: '#/components/schemas/Envelope',
  ErrorEnvelope: '#/components/schemas/ErrorEnvelope',
  ValidationErrorEnvelope: '#/components/schemas/ValidationErrorEnvelope',
};

/** The envelope of every answer (docs/decisions/0007-envelope-and-status-codes.md). */
export const ENVELOPE_SCHEMAS = {
  Envelope: {
    type: 'object',
    description: 'Every successful answer (always HTTP 200).',
    required: ['message', 'data'],
    properties: {
      message: { type: 'string', description: 'What happened, in words.' },
      // No `type`: any JSON value, `null` included (OpenAPI 3.0 allows `nullable` only next to a `type`).
      data: { description: 'The payload of the route; `null` when it has none.' },
    },
  },
  ErrorEnvelope: {
    type: 'object',
    required: ['message', 'data'],
    properties: {
      message: { type: 'string' },
      data: { type: 'object', nullable: true, description: 'Always `null` on errors.' },
      errorId: { type: 'string', description: 'Logged with the failure (500 only).' },
    },
  },
  ValidationErrorEnvelope: {
    type: 'object',
    required: ['message', 'data', 'validationErrors'],
    properties: {
      message: { type: 'string' },
      data: { type: 'object', nullable: true },
      validationErrors: { type: 'array', items: { type: 'string' } },
    },
  },
} as const;

interface ErrorCase {
  description: string;
  messages: string[];
  schema?: string;
}

function errorResponse({ description, messages, schema = SCHEMA.ErrorEnvelope }: ErrorCase): ResponseObject {
  const text = `${description} Messages: ${messages.map((m) => `"${m}"`).join(', ')}.`;
  const example: Record<string, unknown> = { message: messages[0], data: null };
  if (schema === SCHEMA.ValidationErrorEnvelope) example.validationErrors = ['"field" Required'];
  return { description: text, content: { 'application/json': { schema: { $ref: schema }, example } } };
}

function addError(errors: Map<number, ErrorCase>, status: number, add: ErrorCase): void {
  const known = errors.get(status);
  if (!known) {
    errors.set(status, { ...add, messages: [...add.messages] });
    return;
  }
  known.description = `${known.description} ${add.description}`;
  for (const m of add.messages) if (!known.messages.includes(m)) known.messages.push(m);
  if (add.schema) known.schema = add.schema;
}

/**
 * The error statuses a route can answer, derived from what runs before its handler (the guard's steps in the
 * order of docs/decisions/0010-check-order.md, then the validation pipe). Handler-specific errors come from
 * `@ApiResponse` decorators.
 */
function commonErrors(policy: RoutePolicy, facts: RouteFacts, op: OperationObject, devMode: boolean) {
  const errors = new Map<number, ErrorCase>();
  const signedIn = !policy.public && !(policy.devPublic && devMode);
  const params = (op.parameters ?? []) as ParameterObject[];
  if (op.requestBody) {
    addError(errors, 400, { description: 'Malformed JSON body.', messages: [MESSAGES.invalidParameters] });
    addError(errors, 422, {
      description: 'The body does not match its schema.',
      messages: [MESSAGES.invalidBody],
      schema: SCHEMA.ValidationErrorEnvelope,
    });
  }
  if (params.some((p) => p.in === 'query' || p.in === 'path')) {
    addError(errors, 400, {
      description: 'A query or path parameter is invalid.',
      messages: [MESSAGES.invalidParameters],
      schema: SCHEMA.ValidationErrorEnvelope,
    });
  }
  if (signedIn) {
    const messages: string[] = [MESSAGES.unauthorized, MESSAGES.tokenExpired, MESSAGES.tokenRevoked];
    if (policy.freshToken) messages.push(MESSAGES.freshTokenRequired);
    if (!policy.acceptsApeKey) messages.push(MESSAGES.apeKeyNotAccepted);
    addError(errors, 401, { description: 'Missing or invalid credentials.', messages });
    if (!policy.allowUnregistered)
      addError(errors, 404, { description: 'The caller has no account.', messages: [MESSAGES.userNotFound] });
  } else if (policy.rawAuth) {
    addError(errors, 401, {
      description: 'The route checks its own credentials.',
      messages: [MESSAGES.unauthorized],
    });
  } else {
    // Public routes still verify an Authorization header when one is sent.
    addError(errors, 401, {
      description: 'An Authorization header was sent and is invalid.',
      messages: [MESSAGES.unauthorized],
    });
  }
  if (policy.acceptsApeKey || (policy.public && !policy.rawAuth)) {
    addError(errors, 404, { description: 'Unknown ApeKey.', messages: [MESSAGES.apeKeyNotFound] });
    addError(errors, 470, { description: 'The ApeKey is disabled.', messages: [MESSAGES.apeKeyDisabled] });
    addError(errors, 471, { description: 'The ApeKey is malformed.', messages: [MESSAGES.apeKeyMalformed] });
  }
  if (policy.permission && !(policy.devPublic && devMode)) {
    addError(errors, 403, {
      description: `Needs the ${policy.permission} permission.`,
      messages: [MESSAGES.noPermission],
    });
  }
  addError(errors, 429, {
    description: facts.rateLimited
      ? 'Rate limit of the route reached, or too many bad authentication attempts from this address.'
      : 'Too many bad authentication attempts from this address.',
    messages: facts.rateLimited ? [MESSAGES.rateLimited, MESSAGES.badAuthBanned] : [MESSAGES.badAuthBanned],
  });
  const unavailable: string[] = [];
  for (const required of policy.configuration) unavailable.push(required.message);
  if (policy.premium) unavailable.push(MESSAGES.premiumDisabled, MESSAGES.notPremium);
  if (!policy.skipMaintenance) unavailable.push(MESSAGES.maintenance);
  unavailable.push('Service temporarily unavailable');
  addError(errors, 503, {
    description: 'Switched off by the server configuration, maintenance, or a store outage.',
    messages: unavailable,
  });
  return errors;
}

function securityOf(policy: RoutePolicy, devMode: boolean): SecurityRequirementObject[] {
  if (policy.public || (policy.devPublic && devMode)) return [];
  return policy.acceptsApeKey ? [{ Bearer: [] }, { ApeKey: [] }] : [{ Bearer: [] }];
}

function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Declares every `{name}` of the path that the operation does not declare yet (plain `@Param('name')` strings). */
function addPathParameters(path: string, op: OperationObject): void {
  const params = (op.parameters ??= []) as (ParameterObject | ReferenceObject)[];
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    if (params.some((p) => 'in' in p && p.in === 'path' && p.name === name)) continue;
    params.push({ name: name!, in: 'path', required: true, schema: { type: 'string' } });
  }
}

type Schema = Record<string, unknown>;

/** A value of `schema`'s shape, for the example of a 200 (first enum value, 0, "string", one array item). */
export function exampleOf(schema: Schema, depth = 0): unknown {
  if (depth > 8) return null;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (Array.isArray(schema.oneOf)) return exampleOf(schema.oneOf[0] as Schema, depth + 1);
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? '2026-01-01T00:00:00.000Z' : 'string';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array': {
      const items = schema.items as Schema | undefined;
      return items && Object.keys(items).length > 0 ? [exampleOf(items, depth + 1)] : [];
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
        out[key] = exampleOf(value, depth + 1);
      const extra = schema.additionalProperties as Schema | undefined;
      if (extra && Object.keys(out).length === 0) out.key = exampleOf(extra, depth + 1);
      return out;
    }
    default:
      return null;
  }
}

function successResponse(
  op: OperationObject,
  facts: RouteFacts | undefined,
  payload: Schema | undefined,
): ResponseObject {
  const declared = (op.responses['200'] ?? op.responses['201']) as ResponseObject | undefined;
  // A route that declared its own content (e.g. /metrics, plain text) keeps it.
  if (declared?.content) return { ...declared, description: declared.description || 'Success.' };
  // The payload's shape, when the handler's return type names one (src/generated/openapi-payloads.ts); else any value.
  const schema = payload
    ? {
        type: 'object',
        required: ['message', 'data'],
        properties: {
          message: { type: 'string' },
          data: { ...payload, description: 'The payload of the route.' },
        },
      }
    : { $ref: SCHEMA.Envelope };
  return {
    description: declared?.description || 'Success.',
    content: {
      'application/json': {
        schema: schema as SchemaObject,
        example: { message: facts?.message ?? 'OK', data: payload ? exampleOf(payload) : null },
      },
    },
  };
}

export interface CompleteOptions {
  /** `MODE=dev`: @DevPublic routes are public. */
  devMode: boolean;
  /** Schemas of each handler's `data`, by operation id (`<ControllerClass>_<method>`). */
  payloads: Record<string, object>;
}

/**
 * Fills in what @nestjs/swagger cannot see: security from each route's policy metadata, the envelope as the success
 * schema, the errors the guard and the pipe answer, undeclared path parameters, summaries, and 200 instead of 201
 * (every success is 200; the app rewrites Nest's 201 on the way out). Runs once when the document is built.
 */
export function completeDocument(
  document: OpenAPIObject,
  routes: Map<string, RouteFacts>,
  { devMode, payloads }: CompleteOptions,
): OpenAPIObject {
  document.components ??= {};
  document.components.schemas = { ...ENVELOPE_SCHEMAS, ...document.components.schemas } as never;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const id = (op.operationId ?? '').replace(/\[\d+\]$/, '');
      const facts = routes.get(id);
      addPathParameters(path, op);
      const success = successResponse(op, facts, payloads[id] as Schema | undefined);
      delete op.responses['201'];
      op.responses['200'] = success;
      if (!facts) continue;
      op.summary ||= `${humanize(facts.handler)} (${facts.controller})`;
      op.security = securityOf(facts.policy, devMode);
      for (const [status, error] of [...commonErrors(facts.policy, facts, op, devMode)].sort(
        ([a], [b]) => a - b,
      )) {
        const common = errorResponse(error);
        const declared = op.responses[String(status)] as ResponseObject | undefined;
        // A handler's own error (@ApiFailure) on a status the guard also answers keeps its example, names both.
        op.responses[String(status)] = declared
          ? { ...declared, description: `${declared.description} Also: ${common.description}` }
          : common;
      }
    }
  }
  return document;
}
