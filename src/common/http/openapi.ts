import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject, type PathItemObject } from '@nestjs/swagger';
import type { AppEnv } from '../../config/env';
import loadOpenApiMetadata from '../../generated/openapi-metadata';
import { PAYLOAD_SCHEMAS } from '../../generated/openapi-payloads';
import { completeDocument } from './openapi-complete';
import { declareIntegerFields } from './openapi-integers';
import { collectRouteFacts } from './openapi-routes';

/** `/livez` and `/readyz` are Fastify routes (outside Nest, see health.routes.ts), so they are described here. */
function probePaths(): Record<string, PathItemObject> {
  const envelope = (message: string) => ({
    'application/json': {
      schema: { $ref: '#/components/schemas/Envelope' },
      example: { message, data: null },
    },
  });
  const probe = (summary: string, message: string, extra: Record<string, unknown> = {}): PathItemObject => ({
    get: {
      tags: ['status'],
      operationId: `Health_${message}`,
      summary,
      security: [],
      responses: { '200': { description: 'Up.', content: envelope(message) }, ...extra },
    },
  });
  return {
    '/livez': probe('Liveness probe: the process answers.', 'ok'),
    '/readyz': probe('Readiness probe: PostgreSQL and Redis answer.', 'ready', {
      '503': {
        description: 'A store does not answer.',
        content: envelope('Not ready: redis: connection refused'),
      },
    }),
  };
}

/**
 * The OpenAPI document of the app, built once at start: @nestjs/swagger's scan (with the plugin's DTO metadata from
 * src/generated/openapi-metadata.ts, so swc builds and jest see what `nest build` sees), completed from the routes' policy
 * metadata (openapi-complete.ts).
 */
export async function buildApiDocument(
  app: NestFastifyApplication,
  env: AppEnv,
  /** The API contract version (COMPATIBILITY_CHECK). */
  version: string,
): Promise<OpenAPIObject> {
  await SwaggerModule.loadPluginMetadata(loadOpenApiMetadata);
  declareIntegerFields();
  const config = new DocumentBuilder()
    .setTitle('Typing platform API')
    .setDescription(
      'HTTP JSON API of the typing-test platform. Every response is `{ message, data }` (errors: `data: null`, ' +
        'validation failures add `validationErrors`); every success is HTTP 200. Authenticate with ' +
        '`Authorization: Bearer <ID token>` or, on the routes that accept it, `Authorization: ApeKey <key>`.',
    )
    .setVersion(version)
    .setLicense('UNLICENSED', 'https://choosealicense.com/no-permission/')
    .addServer('/', 'This server')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'Bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApeKey <key>' }, 'ApeKey')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  Object.assign(document.paths, probePaths());
  return completeDocument(document, collectRouteFacts(app), {
    devMode: env.mode === 'dev',
    payloads: PAYLOAD_SCHEMAS,
  });
}
