import type { AddressInfo } from 'node:net';
import { MetricsService } from '../../../src/modules/status/metrics.service';
import { createUser } from '../../support/factories';
import { createTestStores, type TestStores } from '../../support/stores';
import { createTestApp, type TestApp } from '../../support/test-app';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const NOT_FOUND = { message: 'Unknown request URL (GET: /metrics)', data: null };

/** Security headers, CORS, /docs and /metrics exposure (issue 14, item 4). */
describe('exposure', () => {
  let stores: TestStores;
  const apps: TestApp[] = [];
  const app = async (options: Parameters<typeof createTestApp>[0] = {}) => {
    const t = await createTestApp({ stores, ...options });
    apps.push(t);
    return t;
  };

  beforeAll(async () => {
    stores = await createTestStores();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  describe('security headers', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await app();
    });

    it.each([
      ['a JSON answer', '/'],
      ['an error', '/users'],
      ['an unknown route', '/nowhere'],
    ])('are set on %s', async (_label, url) => {
      const res = await t.request('GET', url);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-compatibility-check']).toBeDefined();
    });

    it('sends no HSTS without a TLS-terminating proxy', async () => {
      const res = await t.request('GET', '/');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });

    it('sends HSTS behind a proxy (TRUST_PROXY)', async () => {
      const proxied = await app({ env: { trustProxy: 1 } });
      const res = await proxied.request('GET', '/');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+; includeSubDomains$/);
    });

    it('keeps Swagger UI working under the CSP: same-origin scripts only, no inline script', async () => {
      const page = await t.request('GET', '/docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        const src = /src=["']([^"']+)["']/.exec(attributes ?? '')?.[1];
        expect(src).toBeDefined();
        expect(src).not.toMatch(/^(https?:)?\/\//); // same origin
        expect((body ?? '').trim()).toBe('');
        const asset = await t.request('GET', new URL(src as string, 'http://x/docs').pathname);
        expect({ src, status: asset.status }).toEqual({ src, status: 200 });
      }
    });
  });

  describe('CORS', () => {
    const preflight = (t: TestApp, origin: string) =>
      t.request('OPTIONS', '/users', {
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });

    it('allows any origin by default (development)', async () => {
      const t = await app();
      const res = await preflight(t, 'https://anywhere.example');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('allows only the configured origins (CORS_ORIGINS)', async () => {
      const t = await app({ env: { corsOrigins: ['https://app.example'] } });
      const allowed = await preflight(t, 'https://app.example');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      const refused = await preflight(t, 'https://evil.example');
      expect(refused.headers['access-control-allow-origin']).toBeUndefined();
      const simple = await t.request('GET', '/', { headers: { origin: 'https://evil.example' } });
      expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('/docs', () => {
    it('is switched off by DOCS_ENABLED=false', async () => {
      const t = await app({ env: { docsEnabled: false } });
      const originals = ['/docs/public', '/docs/internal', '/docs/public.json', '/docs/internal.json'];
      for (const url of ['/docs', '/docs/openapi.json', '/docs/openapi.yaml', ...originals]) {
        const res = await t.request('GET', url);
        expect({ url, status: res.status }).toEqual({ url, status: 404 });
      }
    });
  });

  describe('/metrics', () => {
    it('is hidden in production when neither a metrics port nor a token is set', async () => {
      const t = await app();
      const res = await t.request('GET', '/metrics');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });

    it('is open in dev mode without a token', async () => {
      const t = await app({ mode: 'dev' });
      const res = await t.request('GET', '/metrics');
      expect(res.status).toBe(200);
      expect(res.text).toContain('process_cpu_user_seconds_total');
    });

    it('needs the bearer token when METRICS_TOKEN is set (and never reads it as an ID token)', async () => {
      const t = await app({ mode: 'dev', env: { metrics: { host: '127.0.0.1', token: METRICS_TOKEN } } });
      const { uid } = await createUser(t.db);
      for (const auth of [
        undefined,
        `Bearer ${METRICS_TOKEN}x`,
        `Bearer ${METRICS_TOKEN.slice(1)}`,
        await t.bearer(uid),
      ]) {
        const res = await t.request('GET', '/metrics', { auth });
        expect({ auth, status: res.status, body: res.body }).toEqual({
          auth,
          status: 401,
          body: { message: 'Unauthorized', data: null },
        });
      }
      const res = await t.request('GET', '/metrics', { auth: `Bearer ${METRICS_TOKEN}` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
    });

    it('moves to its own port with METRICS_PORT; the API port no longer serves it', async () => {
      const t = await app({ mode: 'dev', env: { metrics: { host: '127.0.0.1', port: 0 } } });
      await t.request('GET', '/');
      expect((await t.request('GET', '/metrics')).body).toEqual(NOT_FOUND);
      const server = t.app.get(MetricsService).exposedOn;
      const { port } = server?.address() as AddressInfo;
      const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toContain(
        'http_request_duration_seconds_count{method="GET",route="/",status="200"}',
      );
      expect((await fetch(`http://127.0.0.1:${port}/users`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);
    });

    it('requires the token on the metrics port too when both are set', async () => {
      const t = await app({ env: { metrics: { host: '127.0.0.1', port: 0, token: METRICS_TOKEN } } });
      const { port } = t.app.get(MetricsService).exposedOn?.address() as AddressInfo;
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
      const ok = await fetch(`http://127.0.0.1:${port}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(ok.status).toBe(200);
    });
  });
});
