import { runCli } from '../../../src/cli/run-cli';
import { PSA_CACHE_MS, PsasService } from '../../../src/modules/psas/psas.service';
import { createUser } from '../../support/factories';
import { freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('GET /psas and the psas CLI commands', () => {
  let t: TestApp;
  let psas: PsasService;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
    psas = t.app.get(PsasService);
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('psas').execute();
    // Past any cached list.
    t.clock.advance(PSA_CACHE_MS);
  });

  const get = (auth?: string) => t.request<{ data: unknown[] }>('GET', '/psas', { auth, ip: freshIp() });

  it('answers an empty list publicly', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'PSAs retrieved', data: [] });
  });

  it('answers every stored announcement, oldest first, leaving out absent facts', async () => {
    const first = await psas.add({
      message: 'Maintenance at {dateHere}',
      date: Date.parse('2027-01-15T08:00:00Z'),
      level: -1,
      sticky: true,
    });
    t.clock.advance(1);
    const second = await psas.add({ message: '  New funboxes!  ' });
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        _id: first._id,
        message: 'Maintenance at {dateHere}',
        date: Date.parse('2027-01-15T08:00:00Z'),
        level: -1,
        sticky: true,
      },
      { _id: second._id, message: 'New funboxes!' },
    ]);
    expect(first._id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('serves a signed-in caller too', async () => {
    await psas.add({ message: 'hello' });
    const { uid } = await createUser(t.db);
    expect((await get(await t.bearer(uid))).body.data).toHaveLength(1);
  });

  it('caches the list for a minute; changes made through the service show at once', async () => {
    await psas.add({ message: 'one' });
    expect((await get()).body.data).toHaveLength(1);
    // Written behind the service's back (another replica): not seen until the cache expires.
    await t.db
      .insertInto('psas')
      .values({ id: 'abcdef0123456789abcdef01', message: 'elsewhere', created_at: t.clock.now() })
      .execute();
    expect((await get()).body.data).toHaveLength(1);
    t.clock.advance(PSA_CACHE_MS);
    expect((await get()).body.data).toHaveLength(2);
    await psas.remove('abcdef0123456789abcdef01');
    expect((await get()).body.data).toEqual([expect.objectContaining({ message: 'one' })]);
  });

  it('refuses bad announcements', async () => {
    await expect(psas.add({ message: '   ' })).rejects.toMatchObject({ status: 400 });
    await expect(psas.add({ message: 'x', level: 7 })).rejects.toMatchObject({ status: 400 });
    await expect(psas.add({ message: 'x', date: -5 })).rejects.toMatchObject({ status: 400 });
    expect((await get()).body.data).toEqual([]);
  });

  it('is limited by the psaGet class (60 per minute per IP)', async () => {
    const ip = freshIp();
    for (let i = 0; i < 60; i += 1) expect((await t.request('GET', '/psas', { ip })).status).toBe(200);
    const limited = await t.request('GET', '/psas', { ip });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
  });

  describe('CLI', () => {
    async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
      const out: string[] = [];
      const err: string[] = [];
      const env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
      const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
      return { code, out, err };
    }

    it('adds, lists and removes announcements', async () => {
      expect(await cli('psas', 'list')).toMatchObject({ code: 0, out: ['no PSAs'] });
      const added = await cli(
        'psas',
        'add',
        'Servers restart soon',
        '--level',
        '0',
        '--sticky',
        '--date',
        '2027-01-15T08:00:00Z',
      );
      expect(added.code).toBe(0);
      const id = /^added PSA ([0-9a-f]{24})$/.exec(added.out[0] ?? '')?.[1];
      expect(id).toBeDefined();
      const listed = await cli('psas', 'list');
      expect(listed.code).toBe(0);
      expect(listed.out[0]?.split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
        {
          _id: id,
          message: 'Servers restart soon',
          level: 0,
          sticky: true,
          date: Date.parse('2027-01-15T08:00:00Z'),
        },
      ]);
      t.clock.advance(PSA_CACHE_MS);
      expect((await get()).body.data).toEqual([
        {
          _id: id,
          message: 'Servers restart soon',
          level: 0,
          sticky: true,
          date: Date.parse('2027-01-15T08:00:00Z'),
        },
      ]);
      expect(await cli('psas', 'remove', id ?? '')).toMatchObject({ code: 0, out: [`removed PSA ${id}`] });
      expect(await cli('psas', 'remove', id ?? '')).toMatchObject({ code: 0, out: [`no PSA ${id}`] });
      t.clock.advance(PSA_CACHE_MS);
      expect((await get()).body.data).toEqual([]);
    });

    it('refuses missing arguments, unknown options and bad values before touching the stores (exit 2)', async () => {
      const noMessage = await cli('psas', 'add');
      expect(noMessage.code).toBe(2);
      expect(noMessage.err.join('\n')).toContain("missing required argument 'message'");
      const badOption = await cli('psas', 'add', 'hi', '--colour', 'red');
      expect(badOption.code).toBe(2);
      expect(badOption.err.join('\n')).toContain("unknown option '--colour'");
      const badLevel = await cli('psas', 'add', 'hi', '--level', '9');
      expect(badLevel.code).toBe(2);
      expect(badLevel.err.join('\n')).toContain('expected one of -1, 0, 1');
      const msDate = await cli('psas', 'add', 'hi', '--date', '1800000000000');
      expect(msDate.code).toBe(2);
      expect(msDate.err.join('\n')).toContain('expected an ISO date');
      // Usage errors are found before anything boots: no target line was printed.
      for (const refused of [noMessage, badOption, badLevel, msDate]) {
        expect(refused.err.join('\n')).not.toContain('target:');
      }
      expect(await t.db.selectFrom('psas').select('id').execute()).toEqual([]);
    });
  });
});
