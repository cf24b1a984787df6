import { createHmac } from 'node:crypto';
import { createUser } from '../../support/factories';
import { freshIp, someApeKey } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

const SECRET = 'webhook-test-secret';
const URL = '/webhooks/githubRelease';

/** What GitHub sends: hex HMAC-SHA256 of the exact body bytes. Written here independently of the service code. */
const sign = (raw: string, secret = SECRET) =>
  `sha256=${createHmac('sha256', secret).update(Buffer.from(raw, 'utf8')).digest('hex')}`;

const releaseEvent = (
  action: string,
  release: Record<string, unknown> = { id: 123456, tag_name: 'v26.47.0' },
) =>
  JSON.stringify({
    action,
    release: { ...release, name: 'Release', draft: false, author: { login: 'someone' } },
    repository: { full_name: 'example/typing' },
    sender: { login: 'someone' },
  });

describe('Webhook: POST /webhooks/githubRelease', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { githubWebhookSecret: SECRET } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('release_jobs').execute();
    await t.db.deleteFrom('psas').execute();
  });

  function deliver(raw: string, headers: Record<string, string> = {}, auth?: string) {
    return t.request('POST', URL, {
      rawBody: raw,
      headers: { 'x-github-event': 'release', ...headers },
      auth,
      ip: freshIp(),
    });
  }

  const jobs = () =>
    t.db
      .selectFrom('release_jobs')
      .select(['release_id', 'kind', 'status', 'tag_name', 'delivery_id', 'created_at'])
      .execute();

  const publicPsas = async () => (await t.request('GET', '/psas', { ip: freshIp() })).body.data;

  it('runs a published release as one job that becomes a PSA, and answers 200', async () => {
    const raw = releaseEvent('published');
    const res = await deliver(raw, { 'x-hub-signature-256': sign(raw), 'x-github-delivery': 'delivery-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Added release announcement task to queue', data: null });
    expect(await jobs()).toEqual([
      {
        release_id: '123456',
        kind: 'releaseAnnouncement',
        status: 'done',
        tag_name: 'v26.47.0',
        delivery_id: 'delivery-1',
        created_at: t.clock.now(),
      },
    ]);
    expect(await publicPsas()).toEqual([
      {
        _id: expect.stringMatching(/^[0-9a-f]{24}$/),
        message: 'Version v26.47.0 has been released: Release. Refresh the page to get it.',
        level: 1,
      },
    ]);
  });

  it('announces a release again after an operator removed its PSA only if its job never finished', async () => {
    const raw = releaseEvent('published');
    expect((await deliver(raw, { 'x-hub-signature-256': sign(raw) })).status).toBe(200);
    // A job left queued by a failed earlier run is run by the next delivery.
    await t.db.deleteFrom('psas').execute();
    await t.db.updateTable('release_jobs').set({ status: 'queued' }).execute();
    expect((await deliver(raw, { 'x-hub-signature-256': sign(raw) })).status).toBe(200);
    expect(await t.db.selectFrom('psas').select('release_id').execute()).toEqual([{ release_id: '123456' }]);
    expect((await jobs())[0]?.status).toBe('done');
    // A finished job is not run again: the removed announcement stays removed.
    await t.db.deleteFrom('psas').execute();
    expect((await deliver(raw, { 'x-hub-signature-256': sign(raw) })).status).toBe(200);
    expect(await t.db.selectFrom('psas').select('id').execute()).toEqual([]);
  });

  it('acknowledges a replayed delivery without creating a second job', async () => {
    const raw = releaseEvent('published');
    const headers = { 'x-hub-signature-256': sign(raw), 'x-github-delivery': 'delivery-1' };
    expect((await deliver(raw, headers)).status).toBe(200);
    const replay = await deliver(raw, headers);
    expect(replay.status).toBe(200);
    expect(replay.body.message).toBe('Added release announcement task to queue');
    // A redelivery under a new delivery id, with the id as a string, is the same release.
    const again = releaseEvent('published', { id: '123456', tag_name: 'v26.47.0' });
    expect(
      (await deliver(again, { 'x-hub-signature-256': sign(again), 'x-github-delivery': 'd-2' })).status,
    ).toBe(200);
    const rows = await jobs();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.delivery_id).toBe('delivery-1');
    expect(await t.db.selectFrom('psas').select('release_id').execute()).toEqual([{ release_id: '123456' }]);
  });

  it('verifies the signature over the exact bytes received, not a re-serialisation', async () => {
    const raw = '{ "action" : "published",\n  "release": { "id": 77, "name": "caf\\u00e9 ✓" } }';
    const res = await deliver(raw, { 'x-hub-signature-256': sign(raw) });
    expect(res.status).toBe(200);
    const reserialised = sign(JSON.stringify(JSON.parse(raw)));
    const refused = await deliver(raw, { 'x-hub-signature-256': reserialised });
    expect(refused.status).toBe(401);
    expect((await jobs()).map((j) => j.release_id)).toEqual(['77']);
  });

  it('answers 401 Github webhook signature invalid to a wrong signature', async () => {
    const raw = releaseEvent('published');
    for (const signature of [
      sign(raw, 'another-secret'),
      sign(raw).slice(7),
      `sha1=${sign(raw).slice(7)}`,
      sign(raw).slice(0, -1),
      `sha256=${'0'.repeat(64)}`,
    ]) {
      const res = await deliver(raw, { 'x-hub-signature-256': signature });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Github webhook signature invalid', data: null });
    }
    expect(await jobs()).toEqual([]);
  });

  it('answers 401 to a tampered body sent with the original signature', async () => {
    const original = releaseEvent('published', { id: 1, tag_name: 'v1' });
    const tampered = releaseEvent('published', { id: 2, tag_name: 'v1' });
    const res = await deliver(tampered, { 'x-hub-signature-256': sign(original) });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Github webhook signature invalid');
    expect(await jobs()).toEqual([]);
  });

  it('answers 401 Missing Github signature header without the header or with an empty one', async () => {
    const raw = releaseEvent('published');
    const variants: Record<string, string>[] = [{}, { 'x-hub-signature-256': '' }];
    for (const headers of variants) {
      const res = await deliver(raw, headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Missing Github signature header', data: null });
    }
    expect(await jobs()).toEqual([]);
  });

  it('checks the signature before the body: an unsigned invalid body gets 401, not 422', async () => {
    const res = await deliver('{"nothing":"here"}');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Missing Github signature header');
  });

  it('ignores the Authorization header: the signature alone authenticates', async () => {
    const raw = releaseEvent('published');
    const user = await createUser(t.db);
    for (const auth of ['Bearer not.a.jwt', someApeKey(), await t.bearer(user.uid)]) {
      const res = await deliver(raw, { 'x-hub-signature-256': sign(raw) }, auth);
      expect(res.status).toBe(200);
    }
    const unsigned = await deliver(raw, {}, await t.bearer(user.uid));
    expect(unsigned.status).toBe(401);
  });

  it.each(['created', 'edited', 'deleted', 'prereleased', 'released'])(
    'acknowledges a %s release without queuing anything',
    async (action) => {
      const raw = releaseEvent(action);
      const res = await deliver(raw, { 'x-hub-signature-256': sign(raw) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'No action taken', data: null });
      expect(await jobs()).toEqual([]);
      expect(await t.db.selectFrom('psas').select('id').execute()).toEqual([]);
    },
  );

  it('answers 422 to a signed published event without release.id', async () => {
    for (const raw of [
      JSON.stringify({ action: 'published' }),
      JSON.stringify({ action: 'published', release: { tag_name: 'v1' } }),
      JSON.stringify({ action: 'published', release: { id: '' } }),
      JSON.stringify({ action: 'published', release: { id: { nested: 1 } } }),
    ]) {
      const res = await deliver(raw, { 'x-hub-signature-256': sign(raw) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'Missing property "release.id".', data: null });
    }
    expect(await jobs()).toEqual([]);
  });

  it('answers 422 to a signed payload without an action', async () => {
    for (const raw of [JSON.stringify({ zen: 'Keep it simple.' }), JSON.stringify({ action: 5 }), '[]']) {
      const res = await deliver(raw, { 'x-hub-signature-256': sign(raw) });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'Invalid request data schema',
        data: null,
        validationErrors: ['"action" must be a string'],
      });
    }
  });

  it('has its own rate limit per source address (60 per minute)', async () => {
    const raw = releaseEvent('edited');
    const ip = freshIp();
    for (let i = 0; i < 60; i += 1) {
      const res = await t.request('POST', URL, {
        rawBody: raw,
        headers: { 'x-hub-signature-256': sign(raw) },
        ip,
      });
      expect(res.status).toBe(200);
    }
    const limited = await t.request('POST', URL, {
      rawBody: raw,
      headers: { 'x-hub-signature-256': sign(raw) },
      ip,
    });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Request limit reached, please try again later.');
    expect((await deliver(raw, { 'x-hub-signature-256': sign(raw) })).status).toBe(200);
  });
});

describe('Webhook without GITHUB_WEBHOOK_SECRET', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { githubWebhookSecret: undefined } });
  });
  afterAll(() => t.close());

  it('refuses every delivery with 500 and queues nothing', async () => {
    const raw = releaseEvent('published');
    const res = await t.request('POST', URL, { rawBody: raw, headers: { 'x-hub-signature-256': sign(raw) } });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Missing Github Webhook Secret');
    expect(res.body.data).toBeNull();
    expect(await t.db.selectFrom('release_jobs').select('release_id').execute()).toEqual([]);
  });
});
