import helmet from '@fastify/helmet';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule, type AppModuleOptions } from './app.module';
import type { AppEnv } from './config/env';
import { startMetricsServer } from './modules/status/metrics-server';
import { MetricsService } from './modules/status/metrics.service';

/** The API contract version clients compare against (the original platform's value, so its clients keep working). */
export const COMPATIBILITY_CHECK = 5;
const EXPOSED_HEADERS = [
  'X-Compatibility-Check',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

function configureHttp(app: NestFastifyApplication, env: AppEnv): void {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsService);

  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.header('X-Compatibility-Check', String(COMPATIBILITY_CHECK));
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
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Client-Version', 'Client-Version'],
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    maxAge: 86400,
  });
}

/**
 * Content-Security-Policy for everything served: JSON needs none of it, and Swagger UI at /docs loads only its own
 * scripts (no inline script) but uses inline styles and data: images.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  imgSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
};

/**
 * Security headers (@fastify/helmet): nosniff, no framing (CSP frame-ancestors and X-Frame-Options), no referrer.
 * HSTS only behind a TLS-terminating proxy (`TRUST_PROXY`): sent over plain HTTP to a local dev server it would pin
 * browsers to HTTPS for that host.
 */
async function configureSecurityHeaders(app: NestFastifyApplication, env: AppEnv): Promise<void> {
  // @fastify/helmet's plugin type and Nest's register() signature disagree on the options generic.
  await app.register(helmet as unknown as Parameters<NestFastifyApplication['register']>[0], {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: env.trustProxy ? { maxAge: 180 * 86400, includeSubDomains: true } : false,
    // Browsers call the API from the web client's origin through CORS; CORP would only get in the way of that.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  });
}

/** `/metrics` on its own port when `METRICS_PORT` is set (the API port's route then answers 404, see metricsAccess). */
async function configureMetrics(app: NestFastifyApplication, env: AppEnv): Promise<void> {
  if (env.metrics.port === undefined) return;
  const server = await startMetricsServer(app.get(MetricsService), env);
  app.get(MetricsService).exposedOn = server;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onClose', (_instance, done) => {
      server.close(() => done());
      server.closeAllConnections();
    });
}

function configureDocs(app: NestFastifyApplication, env: AppEnv): void {
  if (!env.docsEnabled) return;
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
    // A path parameter may be a uid: up to 255 characters (OIDC `sub`), each up to 3 when percent-encoded.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 768 },
    requestTimeout: 30_000,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bufferLogs: options.bufferLogs ?? true,
    // We register the JSON parser ourselves (configureHttp).
    bodyParser: false,
    abortOnError: false,
  });
  try {
    app.useLogger(app.get(Logger));
    app.enableShutdownHooks();
    configureHttp(app, env);
    await configureSecurityHeaders(app, env);
    configureDocs(app, env);
    await configureMetrics(app, env);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    return app;
  } catch (e) {
    // A failed start (bad SERVER_CONFIG_FILE, unreachable store) must not leave pools and connections open.
    await app.close().catch(() => undefined);
    throw e;
  }
}
