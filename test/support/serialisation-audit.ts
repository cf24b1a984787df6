import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** `METHOD /path` of every route whose 200 answer a compiled serialiser writes, per app. */
const compiledRoutes = new WeakMap<FastifyInstance, Set<string>>();

export function compiledRoutesOf(fastify: FastifyInstance): Set<string> {
  return compiledRoutes.get(fastify) ?? new Set();
}

/** What JSON.stringify makes of each answer, for the requests whose answer a compiled serialiser writes. */
const expected = new WeakMap<FastifyRequest, string>();

/**
 * In every test app: a route whose answer is written by a serialiser compiled from its schema (CompiledResponse) must
 * answer exactly what JSON.stringify would. A field the schema lacks (dropped), a number it rounds, a value it coerces
 * fails the request with 500 and the difference in the error, so the test that made the request fails.
 */
export function installSerialisationAudit(fastify: FastifyInstance): void {
  const routes = new Set<string>();
  compiledRoutes.set(fastify, routes);
  fastify.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown> } | undefined;
    if (schema?.response?.['200'] === undefined) return;
    for (const method of [route.method].flat()) routes.add(`${method} ${route.url}`);
  });
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    if (reply.statusCode === 200 && compiled(request)) expected.set(request, JSON.stringify(payload));
    done(null, payload);
  });
  fastify.addHook('onSend', (request, _reply, payload, done) => {
    const wanted = expected.get(request);
    if (wanted === undefined || typeof payload !== 'string') {
      done(null, payload);
      return;
    }
    expected.delete(request);
    if (isDeepStrictEqual(JSON.parse(payload), JSON.parse(wanted))) {
      done(null, payload);
      return;
    }
    done(
      new Error(
        `compiled serialiser of ${request.method} ${request.url} differs:\n  compiled: ${payload}\n  expected: ${wanted}`,
      ),
    );
  });
}

function compiled(request: FastifyRequest): boolean {
  const schema = request.routeOptions.schema as { response?: Record<string, unknown> } | undefined;
  return schema?.response?.['200'] !== undefined;
}
