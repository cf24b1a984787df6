import { Writable } from 'node:stream';
import { REQUEST_CONTEXT_IS_CHEAP } from '../../../src/infra/logging/app-logger';
import { createUser } from '../../support/factories';
import { ProbeModule } from '../../support/probe.module';
import { createTestApp, type TestApp } from '../../support/test-app';

// Production serves /metrics only with a token or on its own port (docs/security.md).
const METRICS_TOKEN = 'probe-metrics-token-0123456789';
const METRICS_ENV = { metrics: { host: '127.0.0.1', token: METRICS_TOKEN } };
const METRICS_AUTH = `Bearer ${METRICS_TOKEN}`;

type Line = Record<string, unknown> & { reqId?: string; msg?: string; level?: number };

/** Collects the JSON lines the app writes. */
class LineSink extends Writable {
  lines: Line[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) this.lines.push(JSON.parse(line) as Line);
    done();
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request logging', () => {
  let t: TestApp;
  const sink = new LineSink();
  let auth: string;

  beforeAll(async () => {
    t = await createTestApp({
      extraModules: [ProbeModule],
      env: { logLevel: 'info', ...METRICS_ENV },
      logDestination: sink,
    });
    const user = await createUser(t.db, { permissions: ['quoteMod'] });
    auth = await t.bearer(user.uid);
  });
  afterAll(() => t.close());

  // The end-of-request line (the only one carrying `req`): "request completed" or "request errored".
  const completedLines = () => sink.lines.filter((l) => l.req !== undefined);

  it.each([
    ['GET', '/probe/public', 200, false],
    ['GET', '/', 200, false],
    ['GET', '/probe/bearer', 401, false],
    ['GET', '/nowhere', 404, false],
    ['POST', '/probe/ordered', 422, true],
  ] as const)(
    '%s %s (%i) writes exactly one request line carrying its id',
    async (method, url, status, signed) => {
      sink.lines = [];
      const res = await t.request(method, url, signed ? { auth, body: { name: '' } } : {});
      expect(res.status).toBe(status);
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(UUID);
      const lines = completedLines();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        reqId: id,
        req: { id, method, url },
        res: { statusCode: status },
        level: 30,
      });
    },
  );

  it('keeps successful probes and scrapes out of the info stream', async () => {
    sink.lines = [];
    expect((await t.request('GET', '/livez')).status).toBe(200);
    expect((await t.request('GET', '/metrics', { auth: METRICS_AUTH })).status).toBe(200);
    expect(completedLines()).toEqual([]);
  });

  it('gives every request its own id', async () => {
    const a = await t.request('GET', '/probe/public');
    const b = await t.request('GET', '/probe/public');
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('honours a sane incoming X-Request-Id and replaces an insane one', async () => {
    sink.lines = [];
    const kept = await t.request('GET', '/probe/public', { headers: { 'x-request-id': 'edge-42.abc' } });
    expect(kept.headers['x-request-id']).toBe('edge-42.abc');
    expect(completedLines()[0]?.reqId).toBe('edge-42.abc');
    const replaced = await t.request('GET', '/probe/public', {
      headers: { 'x-request-id': 'x'.repeat(500) },
    });
    expect(replaced.headers['x-request-id']).toMatch(UUID);
  });

  it('logs a 500 at error level and the failure line carries the request id', async () => {
    sink.lines = [];
    const res = await t.request('GET', '/probe/boom');
    expect(res.status).toBe(500);
    const id = res.headers['x-request-id'] as string;
    const failure = sink.lines.find((l) => l.msg === 'unexpected failure');
    expect(failure).toMatchObject({ reqId: id, level: 50 });
    expect(completedLines()).toEqual([expect.objectContaining({ reqId: id, level: 50 })]);
  });

  it("gives a handler's own lines its request id where the runtime carries the context cheaply (Node 24)", async () => {
    sink.lines = [];
    const res = await t.request('GET', '/probe/logs');
    expect(res.status).toBe(200);
    const inside = sink.lines.find((l) => l.msg === 'written inside a handler');
    expect(inside).toMatchObject({ level: 40, context: 'Probe' });
    expect(inside?.reqId).toBe(REQUEST_CONTEXT_IS_CHEAP ? res.headers['x-request-id'] : undefined);
    expect(completedLines()[0]?.reqId).toBe(res.headers['x-request-id']);
  });

  it('never logs the Authorization header', async () => {
    sink.lines = [];
    await t.request('GET', '/probe/bearer', { auth });
    expect(JSON.stringify(sink.lines)).not.toContain(auth.slice(7, 40));
  });

  it('exposes X-Request-Id to browsers', async () => {
    const res = await t.request('GET', '/probe/public', { headers: { origin: 'https://example.com' } });
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-Request-Id');
  });
});
