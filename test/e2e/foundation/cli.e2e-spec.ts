import { runCli } from '../../../src/cli/run-cli';
import { runMigrate } from '../../../src/infra/database/migrate.cli';
import { createUser } from '../../support/factories';
import { createTestStores } from '../../support/stores';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('operator CLI', () => {
  let t: TestApp;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await createTestApp();
    env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
  });
  afterAll(() => t.close());

  async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out, err };
  }

  /** As `cli`, with the target line (printed first whenever a command runs) checked and dropped. */
  async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const result = await cli(...argv);
    expect(result.err[0]).toBe(
      `target: ${targetOf(t.stores.databaseUrl)} and ${targetOf(t.stores.redisUrl)}`,
    );
    return { ...result, err: result.err.slice(1) };
  }

  const targetOf = (url: string) => {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  };

  const row = (uid: string) =>
    t.db
      .selectFrom('users')
      .select(['banned', 'premium_expires_at'])
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
  const permissions = async (uid: string) =>
    (await t.db.selectFrom('user_permissions').select('permission').where('uid', '=', uid).execute()).map(
      (r) => r.permission,
    );

  it('grants and revokes permissions, idempotently', async () => {
    const { uid } = await createUser(t.db);
    expect(await run('permissions', 'grant', uid, 'admin')).toMatchObject({
      code: 0,
      out: [`granted admin to ${uid}`],
    });
    expect((await run('permissions', 'grant', uid, 'admin')).code).toBe(0);
    await run('permissions', 'grant', uid, 'quoteMod');
    expect((await permissions(uid)).sort()).toEqual(['admin', 'quoteMod']);
    expect(await run('permissions', 'revoke', uid, 'admin')).toMatchObject({
      code: 0,
      out: [`revoked admin from ${uid}`],
    });
    expect(await run('permissions', 'revoke', uid, 'admin')).toMatchObject({
      code: 0,
      out: [`${uid} did not have admin`],
    });
    expect(await permissions(uid)).toEqual(['quoteMod']);
  });

  it('bans and unbans', async () => {
    const { uid } = await createUser(t.db);
    expect((await run('users', 'ban', uid)).code).toBe(0);
    expect((await row(uid)).banned).toBe(true);
    expect((await run('users', 'unban', uid)).code).toBe(0);
    expect((await row(uid)).banned).toBe(false);
  });

  it('sets lifetime and dated premium and clears it', async () => {
    const { uid } = await createUser(t.db);
    expect(await run('premium', 'set', uid, 'lifetime')).toMatchObject({
      code: 0,
      out: [`premium of ${uid} set to lifetime`],
    });
    expect((await row(uid)).premium_expires_at).toBe(-1);
    expect((await run('premium', 'set', uid, '2030-01-01T00:00:00Z')).code).toBe(0);
    expect((await row(uid)).premium_expires_at).toBe(1893456000000); // 2030-01-01
    expect((await run('premium', 'clear', uid)).code).toBe(0);
    expect((await row(uid)).premium_expires_at).toBeNull();
  });

  it('names an unknown uid clearly and exits 1', async () => {
    for (const argv of [
      ['users', 'ban', 'ghost'],
      ['permissions', 'grant', 'ghost', 'admin'],
      ['premium', 'clear', 'ghost'],
    ]) {
      const { code, err } = await run(...argv);
      expect(code).toBe(1);
      expect(err).toEqual(['User not found: ghost']);
    }
  });

  it('sets premium from an ISO date, and lifetime from never', async () => {
    const { uid } = await createUser(t.db);
    expect(await run('premium', 'set', uid, '2030-01-31')).toMatchObject({
      code: 0,
      out: [`premium of ${uid} set to 2030-01-31T00:00:00.000Z`],
    });
    expect((await row(uid)).premium_expires_at).toBe(Date.parse('2030-01-31T00:00:00Z'));
    expect((await run('premium', 'set', uid, 'never')).code).toBe(0);
    expect((await row(uid)).premium_expires_at).toBe(-1);
  });

  it('refuses bad arguments before booting anything, fast, with exit code 2', async () => {
    const { uid } = await createUser(t.db);
    // An unreachable database: a command that booted would hang on it or fail differently.
    const unreachable = { DATABASE_URL: 'postgres://u:p@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' };
    for (const [argv, message] of [
      [['users', 'explode', 'x'], "unknown command 'explode'"],
      [['permissions', 'grant', uid, 'root'], 'unknown permission "root"'],
      [['premium', 'set', uid, '12'], 'expected an ISO date'],
      [['premium', 'set', uid, 'tomorrow'], 'expected an ISO date'],
      [['premium', 'set', uid, '2001-01-01'], 'is in the past'],
      [['premium', 'set', uid], "missing required argument 'until'"],
      [['users', 'ban', 'a\tb'], 'not a uid'],
    ] as const) {
      const out: string[] = [];
      const err: string[] = [];
      const started = performance.now();
      const code = await runCli([...argv], { out: (l) => out.push(l), err: (l) => err.push(l) }, unreachable);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(code).toBe(2);
      expect(err.join('\n')).toContain(message);
      expect(err.join('\n')).not.toContain('target:');
      expect(out).toEqual([]);
    }
    expect((await row(uid)).premium_expires_at).toBeNull();
  });

  it('prints help for the program and for each command, exit 0', async () => {
    const top = await cli('--help');
    expect(top.code).toBe(0);
    const text = top.out.join('\n');
    for (const group of ['permissions', 'users', 'premium', 'leaderboards', '--dev', 'DATABASE_URL'])
      expect(text).toContain(group);
    const premium = await cli('premium', 'set', '--help');
    expect(premium.code).toBe(0);
    expect(premium.out.join('\n')).toMatch(/<uid>[\s\S]*<until>[\s\S]*never or lifetime/);
    expect((await cli()).code).toBe(2);
  });

  it('refuses to run without DATABASE_URL unless --dev asks for the dev stores', async () => {
    const { uid } = await createUser(t.db);
    const out: string[] = [];
    const err: string[] = [];
    const started = performance.now();
    const code = await runCli(
      ['users', 'ban', uid],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      {},
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(code).toBe(2);
    expect(err).toEqual([
      expect.stringMatching(/^DATABASE_URL is not set: refusing to guess a database.*--dev/),
    ]);
    expect(out).toEqual([]);
    expect((await row(uid)).banned).toBe(false);
  });

  it('never prints the database password, and names DATABASE_URL in one line when it is refused', async () => {
    const { uid } = await createUser(t.db);
    const url = new URL(t.stores.databaseUrl);
    url.password = 'hunter2';
    const withPassword = url.toString();
    const err: string[] = [];
    const code = await runCli(
      ['users', 'unban', uid],
      { out: () => undefined, err: (l) => err.push(l) },
      {
        ...env,
        DATABASE_URL: withPassword,
      },
    );
    expect(code).toBe(1);
    expect(err).toEqual([
      `target: ${targetOf(t.stores.databaseUrl)} and ${targetOf(t.stores.redisUrl)}`,
      expect.stringMatching(
        /^DATABASE_URL \(postgres:\/\/[^@]+\) is unreachable: password authentication failed/,
      ),
    ]);
    expect(err.join('\n')).not.toContain('hunter2');
  });
});

describe('migrate command', () => {
  async function migrate(argv: string[], source: NodeJS.ProcessEnv) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runMigrate(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, source);
    return { code, out, err };
  }

  it('refuses without DATABASE_URL (no --dev) and touches nothing', async () => {
    const started = performance.now();
    const result = await migrate(['latest'], {});
    expect(performance.now() - started).toBeLessThan(1000);
    expect(result).toEqual({
      code: 2,
      out: [],
      err: [expect.stringMatching(/^DATABASE_URL is not set: refusing to guess a database.*--dev/)],
    });
  });

  it('refuses an unknown direction, and has --help', async () => {
    expect((await migrate(['sideways'], { DATABASE_URL: 'postgres://127.0.0.1:1/x' })).code).toBe(2);
    const help = await migrate(['--help'], {});
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toContain('--dev');
  });

  it('prints the target first, then migrates DATABASE_URL', async () => {
    const stores = await createTestStores();
    const result = await migrate([], { DATABASE_URL: stores.databaseUrl });
    expect(result.code).toBe(0);
    const url = new URL(stores.databaseUrl);
    expect(result.err[0]).toBe(`target: postgres://${url.host}${url.pathname}`);
    expect(result.err[0]).not.toContain('@');
    // A copy of the migrated template: nothing left to apply.
    expect(result.out).toEqual(['nothing to do']);
  });
});
