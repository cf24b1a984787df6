import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger';
import { MESSAGES } from '../app-error';
import type { RoutePolicy } from '../auth/policy';
import { completeDocument, exampleOf } from './openapi-complete';
import type { RouteFacts } from './openapi-routes';

const POLICY: RoutePolicy = {
  public: false,
  devPublic: false,
  rawAuth: false,
  acceptsApeKey: false,
  freshToken: false,
  noTokenCache: false,
  allowUnregistered: false,
  permission: undefined,
  premium: false,
  configuration: [],
  skipMaintenance: false,
};

function facts(policy: Partial<RoutePolicy>, message?: string): RouteFacts {
  return {
    controller: 'Things',
    handler: 'addThing',
    policy: { ...POLICY, ...policy },
    rateLimited: true,
    message,
  };
}

function documentWith(operationId: string, extra: object = {}): OpenAPIObject {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/things/{thingId}': { post: { operationId, responses: { '201': { description: '' } }, ...extra } },
    },
  };
}

const complete = (
  doc: OpenAPIObject,
  f: RouteFacts,
  devMode = false,
  payloads: Record<string, object> = {},
) =>
  completeDocument(doc, new Map([['ThingsController_add', f]]), { devMode, payloads }).paths[
    '/things/{thingId}'
  ]!.post!;

describe('completeDocument', () => {
  it('documents 200 instead of 201, with the envelope and the handler message as example', () => {
    const op = complete(documentWith('ThingsController_add'), facts({}, 'Thing added'));
    expect(Object.keys(op.responses)).not.toContain('201');
    const ok = op.responses['200'] as ResponseObject;
    expect(ok.content!['application/json']!.example).toEqual({ message: 'Thing added', data: null });
  });

  it('builds the payload schema and example from the handler return type schema', () => {
    const payload = { type: 'object', properties: { count: { type: 'number' } }, required: ['count'] };
    const op = complete(documentWith('ThingsController_add'), facts({}, 'ok'), false, {
      ThingsController_add: payload,
    });
    const media = (op.responses['200'] as ResponseObject).content!['application/json']!;
    expect(media.example).toEqual({ message: 'ok', data: { count: 0 } });
    expect(media.schema).toMatchObject({
      properties: { data: { properties: { count: { type: 'number' } } } },
    });
  });

  it.each([
    [{}, [{ Bearer: [] }]],
    [{ acceptsApeKey: true }, [{ Bearer: [] }, { ApeKey: [] }]],
    [{ public: true }, []],
    [{ public: true, rawAuth: true }, []],
  ])('security of %j', (policy, security) => {
    expect(complete(documentWith('ThingsController_add'), facts(policy)).security).toEqual(security);
  });

  it('treats @DevPublic routes as public in dev mode only', () => {
    expect(complete(documentWith('ThingsController_add'), facts({ devPublic: true }), true).security).toEqual(
      [],
    );
    expect(
      complete(documentWith('ThingsController_add'), facts({ devPublic: true }), false).security,
    ).toEqual([{ Bearer: [] }]);
  });

  it('derives the common errors from the policy', () => {
    const op = complete(
      documentWith('ThingsController_add', { requestBody: { content: {} } }),
      facts({ permission: 'admin', configuration: [{ path: 'things.enabled', message: 'Things are off' }] }),
    );
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '422',
      '429',
      '503',
    ]);
    expect((op.responses['503'] as ResponseObject).description).toContain('Things are off');
    expect((op.responses['401'] as ResponseObject).description).toContain(MESSAGES.apeKeyNotAccepted);
    const pub = complete(documentWith('ThingsController_add'), facts({ public: true }));
    expect(Object.keys(pub.responses)).not.toContain('403');
    expect(Object.keys(pub.responses)).toEqual(expect.arrayContaining(['470', '471']));
  });

  it('declares the path parameters the scan missed, once', () => {
    const op = complete(documentWith('ThingsController_add'), facts({}));
    expect(op.parameters).toEqual([
      { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('leaves an operation it has no facts for unsecured but with a 200', () => {
    const op = complete(documentWith('OtherController_x'), facts({}));
    expect(op.security).toBeUndefined();
    expect(op.responses['200']).toBeDefined();
  });
});

describe('exampleOf', () => {
  it.each([
    [{ type: 'string', enum: ['a', 'b'] }, 'a'],
    [{ type: 'array', items: { type: 'boolean' } }, [false]],
    [{ type: 'array', items: {} }, []],
    [{ type: 'object', additionalProperties: { type: 'number' } }, { key: 0 }],
    [{ oneOf: [{ type: 'string' }, { type: 'number' }] }, 'string'],
    [{}, null],
  ])('%j → %j', (schema, example) => {
    expect(exampleOf(schema)).toEqual(example);
  });
});
