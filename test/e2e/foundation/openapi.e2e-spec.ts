import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { MESSAGES } from '../../../src/common/app-error';
import { HTTP_METHODS } from '../../../src/common/http/openapi-complete';
import { routeTable } from '../hardening/route-table';
import { createUser } from '../../support/factories';
import { listRoutes, type AppRoute } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * Issue 15, item 6: the document at /docs/openapi.json is complete and lint-clean. Operations are checked against
 * the app's own route table and policy metadata, so a new route or DTO field that the document misses fails here.
 */
const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenAPIObject;
  let routes: AppRoute[];

  const operation = (method: string, path: string): OperationObject | undefined =>
    doc.paths[toOpenApiPath(path)]?.[method.toLowerCase() as 'get'];
  const operations = (): [string, string, OperationObject][] =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((m) => (item[m] ? [[m, path, item[m]] as [string, string, OperationObject]] : [])),
    );
  const deref = <T>(value: T | ReferenceObject): T => {
    if (!value || typeof value !== 'object' || !('$ref' in value)) return value as T;
    const name = value.$ref.replace('#/components/schemas/', '');
    return doc.components!.schemas![name] as T;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.request('GET', '/docs/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body as unknown as OpenAPIObject;
    routes = listRoutes(t.app);
  });
  afterAll(() => t.close());

  it('has no linter errors (redocly, recommended ruleset)', async () => {
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const errors = problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
    expect(errors).toEqual([]);
    // Only the known ones: two probes answer no 4xx, and the profile routes look like the routes beside them.
    const warnings = problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId);
    expect(new Set(warnings)).toEqual(new Set(['operation-4xx-response', 'no-ambiguous-paths']));
  });

  it('has an operation for every route of the app, the probes included', () => {
    const missing = routes.filter((r) => !operation(r.method, r.path)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
    expect(operation('GET', '/livez')).toBeDefined();
    expect(operation('GET', '/readyz')?.responses['503']).toBeDefined();
    // Nothing documented that the app does not serve.
    expect(operations()).toHaveLength(routes.length + 2);
  });

  it('declares the auth schemes of each route from its policy', () => {
    for (const route of routes) {
      const op = operation(route.method, route.path)!;
      const where = `${route.method} ${route.path}`;
      const schemes = (op.security ?? []).flatMap((s) => Object.keys(s)).sort();
      if (route.policy.public) {
        expect({ where, schemes }).toEqual({ where, schemes: [] });
      } else {
        expect({ where, schemes }).toEqual({
          where,
          schemes: route.policy.acceptsApeKey ? ['ApeKey', 'Bearer'] : ['Bearer'],
        });
        expect({ where, has401: '401' in op.responses }).toEqual({ where, has401: true });
      }
      if (route.policy.permission)
        expect({ where, has403: '403' in op.responses }).toEqual({ where, has403: true });
      if (route.policy.configuration.length > 0) {
        const unavailable = deref<ResponseObject>(op.responses['503']!);
        for (const { message } of route.policy.configuration)
          expect(unavailable.description).toContain(message);
      }
    }
    const schemes = doc.components?.securitySchemes ?? {};
    expect(Object.keys(schemes).sort()).toEqual(['ApeKey', 'Bearer']);
  });

  it('documents 200 (never 201) with the envelope schema and an example on every operation', () => {
    for (const [method, path, op] of operations()) {
      const where = `${method} ${path}`;
      expect({ where, has201: '201' in op.responses }).toEqual({ where, has201: false });
      const ok = deref<ResponseObject>(op.responses['200']!);
      const media = Object.values(ok?.content ?? {})[0];
      expect({ where, schema: media?.schema !== undefined, example: media?.example !== undefined }).toEqual({
        where,
        schema: true,
        example: true,
      });
    }
    // Every route of the app has a rate-limit class; the probes are Fastify routes outside the guard.
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      expect({ where, has429: '429' in operation(route.method, route.path)!.responses }).toEqual({
        where,
        has429: true,
      });
    }
    const envelope = doc.components!.schemas!.Envelope as SchemaObject;
    expect(envelope.required).toEqual(['message', 'data']);
  });

  it("gives each 200 example the route's real success message", async () => {
    for (const [url, method] of [
      ['/psas', 'get'],
      ['/public/typingStats', 'get'],
      ['/quotes/isSubmissionEnabled', 'get'],
    ] as const) {
      const res = await t.request(method.toUpperCase(), url);
      expect(res.status).toBe(200);
      const ok = deref<ResponseObject>(doc.paths[url]![method]!.responses['200']!);
      expect(ok.content!['application/json']!.example).toMatchObject({ message: res.body.message });
    }
    const submit = deref<ResponseObject>(operation('POST', '/results')!.responses['200']!);
    expect(submit.content!['application/json']!.example).toMatchObject({ message: 'Result saved' });
  });

  it("describes each route's payload with the shape the route answers", async () => {
    const { uid } = await createUser(t.db);
    const auth = await t.bearer(uid);
    for (const [url, path] of [
      ['/', '/'],
      ['/users', '/users'],
      ['/leaderboards?language=english&mode=time&mode2=%2260%22', '/leaderboards'],
    ] as const) {
      const res = await t.request('GET', url, { auth });
      expect(res.status).toBe(200);
      const media = deref<ResponseObject>(doc.paths[path]!.get!.responses['200']!).content![
        'application/json'
      ]!;
      const data = (media.schema as SchemaObject).properties!.data as SchemaObject;
      // Every field the route sends is documented, and every required field is sent.
      const sent = Object.keys(res.body.data as object);
      expect({ url, undocumented: sent.filter((k) => !(k in data.properties!)) }).toEqual({
        url,
        undocumented: [],
      });
      expect({ url, sent }).toEqual({ url, sent: expect.arrayContaining(data.required ?? []) });
      expect(Object.keys(media.example as object)).toEqual(['message', 'data']);
    }
  });

  it('documents every query field, path parameter and body field of the DTOs', () => {
    for (const route of routeTable(t.app)) {
      const op = operation(route.method, route.path)!;
      const where = `${route.method} ${route.path}`;
      const params = (op.parameters ?? []).map((p) => deref<ParameterObject>(p));
      const named = (where: string) => params.filter((p) => p.in === where).map((p) => p.name);
      expect({ where, path: named('path').sort() }).toEqual({ where, path: [...route.params].sort() });
      expect({ where, query: named('query') }).toEqual({
        where,
        query: expect.arrayContaining(route.queryKeys),
      });
      if (route.bodyKeys.length === 0) continue;
      const body = deref(op.requestBody!) as { content: Record<string, { schema: SchemaObject }> };
      const schema = deref<SchemaObject>(body.content['application/json']!.schema);
      expect({ where, body: Object.keys(schema.properties ?? {}) }).toEqual({
        where,
        body: expect.arrayContaining(route.bodyKeys),
      });
    }
  });

  it("documents a handler's own errors with the status and message the route answers", async () => {
    const { uid } = await createUser(t.db);
    const auth = await t.bearer(uid);
    for (const [method, url, path] of [
      ['DELETE', '/presets/0123456789abcdef01234567', '/presets/{presetId}'],
      ['GET', '/results/last', '/results/last'],
      ['DELETE', '/users/tags/0123456789abcdef01234567', '/users/tags/{tagId}'],
    ] as const) {
      const res = await t.request(method, url, { auth });
      const documented = doc.paths[path]![method.toLowerCase() as 'get']!.responses[String(res.status)];
      expect({ url, status: res.status, documented: documented !== undefined }).toEqual({
        url,
        status: 404,
        documented: true,
      });
      const media = deref<ResponseObject>(documented!).content!['application/json']!;
      expect(media.example).toEqual({ message: res.body.message, data: null });
      // The guard's 404 for a caller without an account is named there too.
      expect(deref<ResponseObject>(documented!).description).toContain(MESSAGES.userNotFound);
    }
  });

  it('documents the CompletedEvent body of POST /results and the validation errors', () => {
    const op = operation('POST', '/results')!;
    const body = deref(op.requestBody!) as { content: Record<string, { schema: SchemaObject }> };
    const submit = deref<SchemaObject>(body.content['application/json']!.schema);
    const result = deref<SchemaObject>(submit.properties!.result!);
    expect(Object.keys(result.properties ?? {})).toEqual(
      expect.arrayContaining(['wpm', 'acc', 'mode', 'mode2', 'language', 'hash', 'chartData', 'keySpacing']),
    );
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining([
        '200',
        '401',
        '422',
        '429',
        '460',
        '461',
        '462',
        '463',
        '464',
        '465',
        '466',
        '503',
      ]),
    );
  });

  it('is built from current generated metadata (src/generated/openapi-metadata.ts, src/generated/openapi-payloads.ts)', async () => {
    // The generated file is what swc builds and jest see; a DTO changed without regenerating it fails here.
    const { stdout } = await promisify(execFile)(process.execPath, [
      'scripts/openapi-metadata.mjs',
      '--verify',
    ]);
    expect(stdout).toContain('are current');
  }, 120_000);
});
