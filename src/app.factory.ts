import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import helmet from '@fastify/helmet';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { AppModule, type AppModuleOptions } from './app.module';
import { MESSAGES } from './common/app-error';
import { toErrorResponse } from './common/filters/error-response';
import { buildApiDocument } from './common/http/openapi';
import { outcomeOf } from './common/http/submission-outcome';
import { exceedsJsonDepth, MAX_JSON_DEPTH, mayHidePrototypeKeys } from './common/validation/json-limits';
import { parseJsonQuery } from './common/validation/json-query';
import type { AppEnv } from './config/env';
import { ServerConfigurationService } from './common/server-configuration/server-configuration.service';
import { AppLogger } from './infra/logging/app-logger';
import { installRequestLogging } from './infra/logging/request-log';
import { requestIdOf } from './infra/logging/request-id';
import { startMetricsServer } from './modules/status/metrics-server';
import { MetricsService } from './modules/status/metrics.service';
import { configureTribe } from './modules/tribe/tribe-io.adapter';

/** The API contract version clients compare against (the original platform's value, so its clients keep working). */
export const COMPATIBILITY_CHECK = 5;
const EXPOSED_HEADERS = [
  // The account export's file name (GET /users/export), for a web client saving the download.
  'Content-Disposition',
  'X-Compatibility-Check',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
];

/**
 * The headers of every response and the shutdown answer, in one hook (each hook is a step of every request):
 * `X-Compatibility-Check`, `X-Request-Id`, nosniff and the security headers (`securityHeaders`, computed once); while
 * the app shuts down, 503 in the envelope (Fastify's own 503 writes its own body).
 */
function configureHeaders(
  fastify: FastifyInstance,
  adapter: EnvelopeFastifyAdapter,
  security: Record<string, string>,
): void {
  const fixed = {
    ...security,
    'X-Compatibility-Check': String(COMPATIBILITY_CHECK),
    'X-Content-Type-Options': 'nosniff',
  };
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(fixed);
    void reply.header('X-Request-Id', request.id);
    if (!adapter.shuttingDown) {
      done();
      return;
    }
    if (request.raw.httpVersionMajor !== 2) void reply.header('Connection', 'close');
    void reply.code(503).send({ message: SHUTTING_DOWN, data: null });
  });
}

function configureHttp(app: NestFastifyApplication, env: AppEnv, security: Record<string, string>): void {
  const fastify = app.getHttpAdapter().getInstance();
  const metrics = app.get(MetricsService);
  configureHeaders(fastify, app.getHttpAdapter() as EnvelopeFastifyAdapter, security);
  // Every success is 200 (docs/decisions/0007-envelope-and-status-codes.md): Nest would answer POST routes with 201.
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
      outcomeOf(request),
    );
    done();
  });

  configureJsonParser(fastify);

  app.enableCors({
    origin: env.corsOrigins === '*' ? '*' : env.corsOrigins,
    exposedHeaders: EXPOSED_HEADERS,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Client-Version', 'Client-Version', 'X-Request-Id'],
    methods: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'],
    maxAge: 86400,
  });
}

/**
 * `dev.responseSlowdownMs` (contract facts §1.2a): with `MODE=dev` every request waits that long before it is
 * handled, so client developers can see their loading states. Outside dev mode no hook is installed at all.
 */
function configureDevSlowdown(app: NestFastifyApplication, env: AppEnv): void {
  if (env.mode !== 'dev') return;
  const configuration = app.get(ServerConfigurationService);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async () => {
      // The configuration is cached; when it cannot be read the guard answers for it, not this delay.
      const slowdown = await configuration.get().then(
        (c) => c.dev.responseSlowdownMs,
        () => 0,
      );
      if (slowdown > 0) await sleep(slowdown);
    });
}

/**
 * An empty body with a JSON content type counts as no body (the DTO then reports what is missing) rather than a parse
 * error; anything else goes through Fastify's own parser with prototype-poisoning protection, after a nesting-depth
 * check (400, like malformed JSON) so that nothing recursive downstream can overflow the stack. A text that cannot
 * hold a prototype key is parsed by `JSON.parse` alone; one it refuses still goes to Fastify's parser, whose error
 * (400) is the answer. The size limit is Fastify's `bodyLimit` (413).
 */
function configureJsonParser(fastify: FastifyInstance): void {
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
    if (exceedsJsonDepth(body as string, MAX_JSON_DEPTH)) {
      done(Object.assign(new Error(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`), { statusCode: 400 }));
      return;
    }
    if (!mayHidePrototypeKeys(body as string)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body as string);
      } catch {
        defaultJson(request, body as string, done);
        return;
      }
      done(null, parsed);
      return;
    }
    defaultJson(request, body as string, done);
  });
}

/*
 * Errors in Fastify's hooks and parsers (body too large, unsupported media type, malformed JSON) reach our exception
 * filter through the error handler Nest installs; requests arriving while the app shuts down are answered by the
 * headers hook (configureHeaders). The router's errors: `routerErrorReply`; the HTTP parser's:
 * `envelopeClientErrorHandler`.
 */

/**
 * The router refuses a malformed URL (400) or an over-long path parameter (414) before any hook runs, in a context
 * whose error handler is Fastify's default (`{statusCode, code, error}`), so they are answered with the envelope here.
 * Like Nest's own handler for these, it first runs Nest's security-headers hook (`app.useSecurityHeaders()`), if any.
 */
function routerErrorReply(
  adapter: FastifyAdapter | undefined,
  error: Error,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  try {
    (adapter as unknown as { securityHook?: (req: FastifyRequest, raw: unknown) => void })?.securityHook?.(
      request,
      reply.raw,
    );
  } catch {
    // The request is refused either way; a throw here would escape the router.
  }
  const { status, body } = toErrorResponse(error, request);
  void reply.code(status).header('X-Compatibility-Check', String(COMPATIBILITY_CHECK)).send(body);
}

const SHUTTING_DOWN = 'Server is shutting down, please try again';

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers are too large'],
};

/**
 * Requests Node's HTTP parser refuses never reach Fastify (headers too large, timeouts, garbage): Fastify's default
 * handler writes its own body straight to the socket, so this one writes ours.
 */
function envelopeClientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    MESSAGES.invalidParameters,
  ];
  const body = JSON.stringify({ message, data: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nX-Compatibility-Check: ${COMPATIBILITY_CHECK}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Remembers that Nest began shutting down (before its destroy hooks close pools), for the 503 hook. */
class EnvelopeFastifyAdapter extends FastifyAdapter {
  shuttingDown = false;

  override beforeClose(): void {
    this.shuttingDown = true;
    super.beforeClose();
  }
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

/** Headers of a bare response, not set by helmet: left out of what `securityHeaders` reads. */
const TRANSPORT_HEADERS = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'content-type',
  'transfer-encoding',
]);

/**
 * The headers @fastify/helmet sets with these options, read once from a throwaway Fastify instance. The plugin
 * itself rebuilds helmet's middleware (and re-parses the CSP) on every request, in two more hooks, for headers that
 * never change here (no per-route options, no CSP nonces): 1-2 % of a page read's CPU in the profile.
 */
export async function securityHeaders(env: AppEnv): Promise<Record<string, string>> {
  const probe = Fastify();
  try {
    await probe.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      hsts: env.trustProxy ? { maxAge: 180 * 86400, includeSubDomains: true } : false,
      // Browsers call the API from the web client's origin through CORS; CORP would only get in the way of that.
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    });
    probe.get('/', (_request, reply) => reply.code(204).send());
    const response = await probe.inject({ method: 'GET', url: '/' });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (!TRANSPORT_HEADERS.has(name) && value !== undefined) headers[name] = String(value);
    }
    return headers;
  } finally {
    await probe.close();
  }
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

/** Swagger UI at /docs and the document at /docs/openapi.json (built once here; see common/http/openapi.ts). */
async function configureDocs(app: NestFastifyApplication, env: AppEnv): Promise<void> {
  if (!env.docsEnabled) return;
  const document = await buildApiDocument(app, env, String(COMPATIBILITY_CHECK));
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  serveOriginalDocsPaths(app.getHttpAdapter().getInstance(), document);
}

/**
 * The original platform splits its docs into a public and an internal document; ours is one, so its five doc paths
 * (contract facts §11) all lead to it: the JSON paths answer the same document, the pages redirect to `/docs`.
 */
function serveOriginalDocsPaths(fastify: FastifyInstance, document: object): void {
  for (const name of ['public', 'internal']) {
    fastify.get(`/docs/${name}.json`, (_request, reply) => reply.send(document));
    fastify.get(`/docs/${name}`, (_request, reply) => reply.redirect('/docs', 302));
  }
}

export interface CreateAppOptions extends AppModuleOptions {
  /** Keep Nest's own start-up logs (off in tests). */
  bufferLogs?: boolean;
  /** More Fastify hooks, added before the routes are ready (tests audit the compiled serialisers this way). */
  configureFastify?: (fastify: FastifyInstance) => void;
}

/** Builds the whole application (not yet listening). Production, dev, tests and the benchmark all start here. */
export async function createApp(options: CreateAppOptions): Promise<NestFastifyApplication> {
  const { env } = options;
  // The router's error callback is an option of the adapter's own constructor, so it reaches the adapter this way.
  const created: { adapter?: EnvelopeFastifyAdapter } = {};
  const adapter = new EnvelopeFastifyAdapter({
    bodyLimit: env.bodyLimitBytes,
    // Fastify takes a hop count too; Nest's option type only lists the boolean and string forms.
    trustProxy: env.trustProxy as boolean,
    // A path parameter may be a uid: up to 255 characters (OIDC `sub`), each up to 3 when percent-encoded.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 768, querystringParser: parseJsonQuery },
    // Our onRequest hook answers during shutdown (with the envelope); Fastify's own 503 writes its own body.
    return503OnClosing: false,
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      routerErrorReply(created.adapter, error, request, reply),
    clientErrorHandler: envelopeClientErrorHandler,
    requestTimeout: 30_000,
    // One id per request from the edge (X-Request-Id, if sane) or a UUID: in every log line and every response.
    genReqId: requestIdOf,
  });
  created.adapter = adapter;
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    bufferLogs: options.bufferLogs ?? true,
    // We register the JSON parser ourselves (configureHttp).
    bodyParser: false,
    abortOnError: false,
  });
  try {
    const logger = app.get(AppLogger);
    app.useLogger(logger);
    installRequestLogging(app.getHttpAdapter().getInstance(), logger.root);
    // No enableShutdownHooks(): entry points own SIGTERM/SIGINT (main.ts drains first, then closes and exits 0).
    // Security headers (helmet's, precomputed): nosniff, no framing (CSP frame-ancestors and X-Frame-Options), no
    // referrer; HSTS only behind a TLS-terminating proxy (`TRUST_PROXY`): sent over plain HTTP to a local dev server it
    // would pin browsers to HTTPS for that host.
    configureHttp(app, env, await securityHeaders(env));
    configureDevSlowdown(app, env);
    await configureDocs(app, env);
    await configureMetrics(app, env);
    options.configureFastify?.(app.getHttpAdapter().getInstance());
    // The Tribe socket server shares the API's HTTP server; the gateways attach to it during init.
    const tribe = configureTribe(app, env);
    await app.init();
    await tribe.listenOwnPort();
    await app.getHttpAdapter().getInstance().ready();
    return app;
  } catch (e) {
    // A failed start (bad SERVER_CONFIG_FILE, unreachable store) must not leave pools and connections open.
    await app.close().catch(() => undefined);
    throw e;
  }
}
