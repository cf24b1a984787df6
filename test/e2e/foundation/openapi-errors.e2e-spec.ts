import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { MESSAGES } from '../../../src/common/app-error';
import { declaredFailures } from '../../../src/common/http/api-failure.decorator';
import { HTTP_METHODS } from '../../../src/common/http/openapi-complete';
import { isIntegerRule } from '../../../src/common/http/openapi-integers';
import { handlerRoutes } from '../../../src/common/http/route-handlers';
import type { Node } from '../../../src/config/config-schema';
import { SERVER_CONFIGURATION_SCHEMA } from '../../../src/config/server-configuration.schema';
import { createUser } from '../../support/factories';
import { reachableErrors, type ReachableError } from '../../support/handler-errors';
import { listRoutes } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

type Schema = SchemaObject & { properties?: Record<string, Schema>; items?: Schema };

/**
 * Issue 24, item 6: every status (and constant message) a handler can answer is in the API document, and every
 * integer is documented as one. The handlers' errors come from a static scan of the sources (test/support/
 * handler-errors.ts): each `new AppError(...)` reachable from a handler through the services and helpers it calls.
 */
describe('OpenAPI document: handler errors and integers', () => {
  let t: TestApp;
  let doc: OpenAPIObject;
  let scan: Map<string, ReachableError[]>;

  beforeAll(async () => {
    scan = reachableErrors();
    t = await createTestApp();
    doc = (await t.request('GET', '/docs/openapi.json')).body as unknown as OpenAPIObject;
  }, 120_000);
  afterAll(() => t.close());

  const operations = (): { where: string; id: string; op: OperationObject }[] =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((m) => {
        const op = item[m];
        if (!op) return [];
        return [
          { where: `${m.toUpperCase()} ${path}`, id: (op.operationId ?? '').replace(/\[\d+\]$/, ''), op },
        ];
      }),
    );
  const statusesOf = (id: string) => [...new Set((scan.get(id) ?? []).flatMap((e) => e.statuses))].sort();
  /** What a response says in words: its description and its example's message. */
  const textOf = (op: OperationObject, status: number) =>
    JSON.stringify(op.responses[String(status)] ?? null);

  it('sees errors through services, helpers, abstract adapters and guards', () => {
    // A service's own error, a shared service's (quote reports), a guard's (the webhook signature).
    expect(statusesOf('QuotesController_report')).toEqual([409, 422, 503]);
    expect(statusesOf('UsersRequestsController_report')).toEqual(
      expect.arrayContaining([400, 404, 409, 503]),
    );
    expect(statusesOf('WebhooksController_githubRelease')).toEqual(expect.arrayContaining([401, 422, 500]));
    expect(statusesOf('LeaderboardsController_dailyPage')).toEqual([401, 404, 503]);
    expect(statusesOf('ResultsController_submit')).toEqual(
      expect.arrayContaining([400, 404, 460, 461, 462, 463, 464, 465, 466, 500]),
    );
    // Every route handler of the app was scanned.
    const ids = new Set(listRoutes(t.app).map((r) => r.handler.replace('.', '_')));
    expect([...ids].filter((id) => !scan.has(id))).toEqual([]);
  });

  it('documents the status and the message of every error a handler can answer', () => {
    const missing: string[] = [];
    for (const { where, id, op } of operations()) {
      for (const error of scan.get(id) ?? []) {
        if (error.statuses.length === 0)
          missing.push(`${where}: the status at ${error.at} is not a constant`);
        for (const status of error.statuses) {
          if (!op.responses[String(status)]) missing.push(`${where} ${status} (${error.at})`);
          else if (
            error.message !== null &&
            !textOf(op, status).includes(JSON.stringify(error.message).slice(1, -1))
          )
            missing.push(`${where} ${status} "${error.message}" (${error.at})`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('declares no failure a handler cannot answer (@ApiFailure is checked against the code)', () => {
    const guardMessages = new Set<string>([
      ...Object.values(MESSAGES),
      ...listRoutes(t.app).flatMap((r) => r.policy.configuration.map((c) => c.message)),
    ]);
    const stale: string[] = [];
    for (const { controller, name, handler } of handlerRoutes(t.app)) {
      const reachable = scan.get(`${controller.name}_${name}`) ?? [];
      for (const { status, messages } of declaredFailures(handler)) {
        for (const message of messages) {
          const thrown = reachable.some(
            (e) => e.statuses.includes(status) && (e.message === message || e.message === null),
          );
          if (!thrown && !guardMessages.has(message))
            stale.push(`${controller.name}.${name} ${status} "${message}"`);
        }
      }
    }
    expect([...new Set(stale)]).toEqual([]);
  });

  describe('integers', () => {
    const nameOf = (rule: ValidationMetadata) => (rule.target as { name: string }).name;
    const intRules = () =>
      [
        ...(
          getMetadataStorage() as unknown as { validationMetadatas: Map<unknown, ValidationMetadata[]> }
        ).validationMetadatas.values(),
      ]
        .flat()
        .filter(isIntegerRule);

    it('documents every integer field (@IsInt(), @IsIn of whole numbers) of a body DTO as integer', () => {
      const schemas = doc.components!.schemas as Record<string, Schema>;
      const rules = intRules().filter((rule) => schemas[nameOf(rule)]);
      expect(rules.length).toBeGreaterThanOrEqual(8);
      const wrong = rules.flatMap((rule) => {
        const field = schemas[nameOf(rule)]!.properties?.[rule.propertyName];
        const type = rule.each ? field?.items?.type : field?.type;
        return type === 'integer' ? [] : [`${nameOf(rule)}.${rule.propertyName}: ${type}`];
      });
      expect(wrong).toEqual([]);
    });

    it('documents integer query parameters as integer', () => {
      const param = (path: string, name: string) =>
        ((doc.paths[path]!.get!.parameters ?? []) as ParameterObject[]).find((p) => p.name === name)?.schema;
      for (const [path, names] of [
        ['/results', ['limit', 'offset', 'onOrAfterTimestamp']],
        ['/leaderboards', ['page', 'pageSize']],
        ['/leaderboards/daily', ['daysBefore', 'page', 'pageSize']],
      ] as const) {
        for (const name of names)
          expect({ path, name, schema: param(path, name) }).toMatchObject({ schema: { type: 'integer' } });
      }
    });

    /** Every integer leaf of the configuration document, as dotted paths (`[]` for array items). */
    const configLeaves = (node: Node, path: string, integer: boolean): string[] => {
      if (node.kind === 'object')
        return Object.entries(node.fields).flatMap(([k, v]) =>
          configLeaves(v, path ? `${path}.${k}` : k, integer),
        );
      if (node.kind === 'array') return configLeaves(node.item, `${path}[]`, integer);
      return node.kind === 'number' && (node.integer === true) === integer ? [path] : [];
    };
    const schemaLeaves = (schema: Schema, path: string, type: string): string[] => {
      if (schema.type === 'object')
        return Object.entries(schema.properties ?? {}).flatMap(([k, v]) =>
          schemaLeaves(v, path ? `${path}.${k}` : k, type),
        );
      if (schema.type === 'array' && schema.items) return schemaLeaves(schema.items, `${path}[]`, type);
      return schema.type === type ? [path] : [];
    };

    it("documents GET /configuration's integer keys exactly as the configuration schema has them", () => {
      const ok = doc.paths['/configuration']!.get!.responses['200'] as {
        content: Record<string, { schema: Schema }>;
      };
      const data = ok.content['application/json']!.schema.properties!.data!;
      expect(schemaLeaves(data, '', 'integer').sort()).toEqual(
        configLeaves(SERVER_CONFIGURATION_SCHEMA, '', true).sort(),
      );
      expect(schemaLeaves(data, '', 'number').sort()).toEqual(
        configLeaves(SERVER_CONFIGURATION_SCHEMA, '', false).sort(),
      );
    });

    it('answers whole numbers wherever the document says integer', async () => {
      const { uid, name } = await createUser(t.db, { timeTyping: 10_000, xp: 1234 });
      const auth = await t.bearer(uid);
      const wrong: string[] = [];
      const check = (value: unknown, schema: Schema | undefined, path: string) => {
        if (!schema || value === null || value === undefined) return;
        if (schema.type === 'integer' && !Number.isInteger(value)) wrong.push(`${path} = ${String(value)}`);
        if (schema.type === 'array' && Array.isArray(value))
          value.forEach((v, i) => check(v, schema.items, `${path}[${i}]`));
        if (schema.type === 'object' && typeof value === 'object') {
          for (const [k, v] of Object.entries(value as Record<string, unknown>))
            check(
              v,
              schema.properties?.[k] ?? (schema.additionalProperties as Schema | undefined),
              `${path}.${k}`,
            );
        }
      };
      let checked = 0;
      for (const [url, path] of [
        ['/users', '/users'],
        [`/users/${name}/profile`, '/users/{uidOrName}/profile'],
        ['/users/streak', '/users/streak'],
        ['/configuration', '/configuration'],
        ['/ape-keys', '/ape-keys'],
        ['/leaderboards?language=english&mode=time&mode2=%2215%22', '/leaderboards'],
      ] as const) {
        const res = await t.request('GET', url, { auth });
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
        const ok = doc.paths[path]!.get!.responses['200'] as { content: Record<string, { schema: Schema }> };
        const data = ok.content['application/json']!.schema.properties?.data;
        check(res.body.data, data, url);
        checked += schemaLeaves(data ?? {}, '', 'integer').length;
      }
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(20);
    });
  });
});
