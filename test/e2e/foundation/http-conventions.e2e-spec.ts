import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ProbeModule } from '../../support/probe.module';

const METRICS_TOKEN = 'conventions-metrics-token-0123';

describe('HTTP conventions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      extraModules: [ProbeModule],
      // Production hides /metrics unless a token or a metrics port is configured (docs/security.md).
      env: {
        metrics: { host: '127.0.0.1', token: METRICS_TOKEN },
        // The probe routes use adminLimit (1 per 5 s), which these tests are not about.
        rateLimit: { globalPerMinute: 10_000, overrides: { adminLimit: { max: 10_000 } } },
      },
    });
  });
  afterAll(() => t.close());

  it('GET / answers ok with uptime and version in the envelope', async () => {
    const res = await t.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('ok');
    const data = res.body.data as { uptime: number; version: string };
    expect(typeof data.uptime).toBe('number');
    expect(data.uptime).toBeGreaterThanOrEqual(0);
    expect(data.version).toMatch(/^\d{4}\.\d{2}\.\d{2}_\d{2}\.\d{2}_NO_HASH$/);
  });

  it('sets X-Compatibility-Check on success, error and unknown-route responses', async () => {
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/probe/bearer'],
      ['DELETE', '/nowhere'],
    ] as const) {
      const res = await t.request(method, url);
      expect(res.headers['x-compatibility-check']).toBe('5');
    }
  });

  it('answers unknown routes with 404 naming the method and path (without the query)', async () => {
    const res = await t.request('DELETE', '/ape-keys/', { query: { a: 1 } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Unknown request URL (DELETE: /ape-keys/)', data: null });
  });

  it('answers a known path with an unknown method with 404 too', async () => {
    const res = await t.request('PUT', '/');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Unknown request URL (PUT: /)');
  });

  it('answers CORS preflights and exposes the compatibility header', async () => {
    const res = await t.request('OPTIONS', '/probe/bearer', {
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const get = await t.request('GET', '/', { headers: { origin: 'https://example.com' } });
    expect(String(get.headers['access-control-expose-headers'])).toContain('X-Compatibility-Check');
  });

  describe('body validation (422)', () => {
    let auth: string;
    beforeAll(async () => {
      const user = await createUser(t.db, { permissions: ['quoteMod'] });
      auth = await t.bearer(user.uid);
    });

    it('reports missing fields with their path', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, body: {} });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.data).toBeNull();
      expect(res.body.validationErrors).toEqual(expect.arrayContaining([expect.stringMatching(/^"name" /)]));
    });

    it('reports wrong types and out-of-range numbers', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, body: { name: 12, count: 11 } });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(
        expect.arrayContaining(['"name" must be a string', '"count" must not be greater than 10']),
      );
    });

    it('rejects unknown keys (strict bodies)', async () => {
      const res = await t.request('POST', '/probe/ordered', {
        auth,
        body: { name: 'ok', extra: 1, more: 2 },
      });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(["Unrecognized key(s) in object: 'extra', 'more'"]);
    });

    it('rejects a body that is not an object', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, body: [1, 2] });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(['Expected object, received array']);
    });

    it('treats an empty JSON body as no body', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, rawBody: '' });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors?.some((e) => e.startsWith('"name"'))).toBe(true);
    });

    it('accepts a valid body and returns the validated instance', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, body: { name: 'ok', count: 3 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'probe', data: { name: 'ok', count: 3 } });
    });

    it('answers malformed JSON with 400 Invalid request parameters', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, rawBody: '{"name":' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Invalid request parameters', data: null });
    });

    it('refuses prototype poisoning', async () => {
      const res = await t.request('POST', '/probe/ordered', {
        auth,
        rawBody: '{"name":"a","__proto__":{"x":1}}',
      });
      expect(res.status).toBe(400);
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    it.each([
      ['an escaped __proto__', '{"name":"a","\\u005f_proto__":{"x":1}}'],
      ['constructor.prototype', '{"name":"a","constructor":{"prototype":{"x":1}}}'],
    ])('refuses prototype poisoning through %s (400)', async (_, rawBody) => {
      const res = await t.request('POST', '/probe/ordered', { auth, rawBody });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Invalid request parameters', data: null });
      expect(({} as Record<string, unknown>).x).toBeUndefined();
    });

    it('parses a body that starts with a byte order mark, as before', async () => {
      const res = await t.request('POST', '/probe/ordered', { auth, rawBody: '\uFEFF{"name":"ok"}' });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ name: 'ok' });
    });

    it('answers a non-JSON content type with 415', async () => {
      const res = await t.request('POST', '/probe/ordered', {
        auth,
        rawBody: 'name=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(res.status).toBe(415);
      expect(res.body.data).toBeNull();
      expect(res.body.message).toMatch(/Unsupported media type/);
    });

    it('answers bodies over the size limit with 413', async () => {
      const res = await t.request('POST', '/probe/ordered', {
        auth,
        body: { name: 'x'.repeat(t.env.bodyLimitBytes + 10) },
      });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ message: 'Request body is too large', data: null });
    });
  });

  describe('query validation (400)', () => {
    it('converts and validates query values', async () => {
      const res = await t.request('GET', '/probe/query', { query: { page: 2, mode: 'time' } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ page: 2, mode: 'time' });
    });

    it('reports bad values with 400 Invalid request parameters', async () => {
      const res = await t.request('GET', '/probe/query', { query: { page: 'abc', mode: 'zen' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors).toEqual(
        expect.arrayContaining([
          '"page" must be an integer number',
          '"mode" must be one of the following values: time, words',
        ]),
      );
    });

    it('rejects unknown query keys', async () => {
      const res = await t.request('GET', '/probe/query', { query: { pgae: 1 } });
      expect(res.status).toBe(400);
      expect(res.body.validationErrors).toEqual(["Unrecognized key(s) in object: 'pgae'"]);
    });

    it('rejects negative numbers', async () => {
      const res = await t.request('GET', '/probe/query', { query: { page: -1 } });
      expect(res.status).toBe(400);
      expect(res.body.validationErrors).toEqual(['"page" must not be less than 0']);
    });
  });

  it('answers unexpected failures with 500, an error id, and no stack', async () => {
    const res = await t.request('GET', '/probe/boom');
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Internal server error');
    expect(res.body.data).toBeNull();
    expect((res.body as { errorId?: string }).errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.text).not.toContain('kaboom');
    expect(res.text).not.toContain('stack');
  });

  it('serves the OpenAPI document', async () => {
    const res = await t.request('GET', '/docs/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body as unknown as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/', '/configuration']));
  });

  it('serves Prometheus metrics', async () => {
    await t.request('GET', '/');
    const res = await t.request('GET', '/metrics', { auth: `Bearer ${METRICS_TOKEN}` });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.text).toContain('http_request_duration_seconds_count{method="GET",route="/",status="200"}');
    expect(res.text).toContain('process_cpu_user_seconds_total');
  });
});
