import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppEnv } from './config/env';
import { QuietBootLogger } from './infra/logging/quiet-boot-logger';
import { requestIdOf } from './infra/logging/request-id';
import { MetricsService } from './modules/status/metrics.service';

/** The API contract version clients compare against (the original platform's value, so its clients keep working). */
export const COMPATIBILITY_CHECK = 5;
const EXPOSED_HEADERS = [
  'X-Compatibility-Check',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
];

function configureHttp(app: NestFastifyApplication, env: AppEnv): void {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsService);

  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Compatibility-Check', String(COMPATIBILITY_CHECK));
    void reply.header('X-Request-Id', request.id);
    void reply.header('X-Content-Type-Options', 'nosniff');
    done();
  });
  // Every success is 200 (DECISIONS.md): Nest would answer POST routes with 201.
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 201) void reply.code(200);
    done(null, payload);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    metrics.observe(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  // An empty body with a JSON content type counts as no body (the DTO then reports what is missing) rather than a
  // parse error; anything else goes through Fastify's own parser with prototype-poisoning protection.
  const defaultJson = fastify.getDefaultJsonParser('error', 'error');
  // JSON only: other content types get 415 instead of reaching a DTO as a string.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // Kept for signature checks over the exact bytes (webhooks).
    request.rawBody = body as string;
    if (body === '' || (typeof body === 'string' && body.trim() === '')) {
      done(null, undefined);
      return;
    }
    defaultJson(request, body as string, done);
  });

  app.enableCors({
    origin: env.corsOrigins === '*' ? '*' : env.corsOrigins,
    exposedHeaders: EXPOSED_HEADERS,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Client-Version', 'Client-Version', 'X-Request-Id'],
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    maxAge: 86400,
  });
}

function configureDocs(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Typing platform API')
    .setDescription(
      'HTTP JSON API of the typing-test platform. Every response is `{ message, data }`. Authenticate with ' +
        '`Authorization: Bearer <ID token>` or, on the routes that accept it, `Authorization: ApeKey <key>`.',
    )
    .setVersion(String(COMPATIBILITY_CHECK))
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'Bearer')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApeKey <key>' }, 'ApeKey')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}

export interface CreateAppOptions extends AppModuleOptions {
  /** Keep Nest's own start-up logs (off in tests). */
  bufferLogs?: boolean;
}

/** Builds the whole application (not yet listening). Production, dev, tests and the benchmark all start here. */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const { env } = options;
  const adapter = new FastifyAdapter({
    bodyLimit: env.bodyLimitBytes,
    // Fastify takes a hop count too; Nest's option type only lists the boolean and string forms.
    trustProxy: env.trustProxy as boolean,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    requestTimeout: 30_000,
    // One id per request from the edge (X-Request-Id, if sane) or a UUID: in every log line and every response.
    genReqId: requestIdOf,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bufferLogs: options.bufferLogs ?? true,
    // We register the JSON parser ourselves (configureHttp).
    bodyParser: false,
    abortOnError: false,
  });
  try {
    app.useLogger(new QuietBootLogger(app.get(Logger)));
    // No enableShutdownHooks(): entry points own SIGTERM/SIGINT (main.ts drains first, then closes and exits 0).
    configureHttp(app, env);
    configureDocs(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return app;
  } catch (e) {
    // A failed start (bad SERVER_CONFIG_FILE, unreachable store) must not leave pools and connections open.
    await app.close().catch(() => undefined);
    throw e;
  }
}
