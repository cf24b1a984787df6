import Fastify from 'fastify';
import { envelopeSchema } from '../../../src/common/http/compiled-response.decorator';
import { compiledRoutesOf, installSerialisationAudit } from '../../support/serialisation-audit';
import { createTestApp, type TestApp } from '../../support/test-app';

/** Issue 30, item 1: the hot routes answer through serialisers compiled from their payload schemas. */
describe('compiled response serialisation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each([
    ['GET', '/'],
    ['GET', '/leaderboards'],
    ['GET', '/leaderboards/daily'],
    ['GET', '/leaderboards/xp/weekly'],
    ['GET', '/leaderboards/weekly-xp'],
    ['GET', '/leaderboards/rank'],
    ['GET', '/leaderboards/daily/rank'],
    ['GET', '/leaderboards/xp/weekly/rank'],
    ['POST', '/results'],
    ['GET', '/results'],
    ['GET', '/users/results'],
    ['GET', '/results/last'],
    ['GET', '/results/id/:resultId'],
    ['GET', '/users/:uidOrName/profile'],
    ['GET', '/users/profile/:uidOrName'],
  ])('%s %s has a 200 response schema (the envelope around its payload schema)', (method, url) => {
    expect(compiledRoutesOf(t.app.getHttpAdapter().getInstance()).has(`${method} ${url}`)).toBe(true);
  });

  it('and only the hot routes: the others answer through JSON.stringify', () => {
    const routes = [...compiledRoutesOf(t.app.getHttpAdapter().getInstance())].filter(
      (r) => !r.startsWith('HEAD '),
    );
    expect(routes.sort()).toEqual([
      'GET /',
      'GET /leaderboards',
      'GET /leaderboards/daily',
      'GET /leaderboards/daily/rank',
      'GET /leaderboards/rank',
      'GET /leaderboards/weekly-xp',
      'GET /leaderboards/xp/weekly',
      'GET /leaderboards/xp/weekly/rank',
      'GET /results',
      'GET /results/id/:resultId',
      'GET /results/last',
      'GET /users/:uidOrName/profile',
      'GET /users/profile/:uidOrName',
      'GET /users/results',
      'POST /results',
    ]);
  });

  it("answers what JSON.stringify would, with the envelope's fields", async () => {
    const res = await t.request<{ message: string; data: { uptime: number; version: string } }>('GET', '/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['message', 'data']);
    expect(Object.keys(res.body.data).sort()).toEqual(['uptime', 'version']);
  });

  describe('the audit every test app runs', () => {
    const app = Fastify();
    beforeAll(async () => {
      installSerialisationAudit(app);
      const lacking = envelopeSchema({ type: 'object', properties: { kept: { type: 'number' } } });
      app.get('/lacking', { schema: { response: { 200: lacking } } }, () => ({
        message: 'ok',
        data: { kept: 1, dropped: 2 },
      }));
      app.get('/exact', { schema: { response: { 200: lacking } } }, () => ({
        message: 'ok',
        data: { kept: 1 },
      }));
      await app.ready();
    });
    afterAll(() => app.close());

    it('fails a request whose compiled answer drops a field JSON.stringify keeps', async () => {
      const res = await app.inject({ method: 'GET', url: '/lacking' });
      expect(res.statusCode).toBe(500);
      expect(res.body).toContain('compiled serialiser of GET /lacking differs');
    });

    it('lets an answer the schema describes whole through', async () => {
      const res = await app.inject({ method: 'GET', url: '/exact' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'ok', data: { kept: 1 } });
    });
  });
});
