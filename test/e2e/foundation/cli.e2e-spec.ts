import { runCli } from '../../../src/cli/run-cli';
import { createUser } from '../../support/factories';
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
    expect(await cli('permissions', 'grant', uid, 'admin')).toMatchObject({
      code: 0,
      out: [`granted admin to ${uid}`],
    });
    expect((await cli('permissions', 'grant', uid, 'admin')).code).toBe(0);
    await cli('permissions', 'grant', uid, 'quoteMod');
    expect((await permissions(uid)).sort()).toEqual(['admin', 'quoteMod']);
    expect(await cli('permissions', 'revoke', uid, 'admin')).toMatchObject({
      code: 0,
      out: [`revoked admin from ${uid}`],
    });
    expect(await cli('permissions', 'revoke', uid, 'admin')).toMatchObject({
      code: 0,
      out: [`${uid} did not have admin`],
    });
    expect(await permissions(uid)).toEqual(['quoteMod']);
  });

  it('bans and unbans', async () => {
    const { uid } = await createUser(t.db);
    expect((await cli('users', 'ban', uid)).code).toBe(0);
    expect((await row(uid)).banned).toBe(true);
    expect((await cli('users', 'unban', uid)).code).toBe(0);
    expect((await row(uid)).banned).toBe(false);
  });

  it('sets lifetime and dated premium and clears it', async () => {
    const { uid } = await createUser(t.db);
    expect(await cli('premium', 'set', uid, '-1')).toMatchObject({
      code: 0,
      out: [`premium of ${uid} set to lifetime`],
    });
    expect((await row(uid)).premium_expires_at).toBe(-1);
    expect((await cli('premium', 'set', uid, '1893456000000')).code).toBe(0);
    expect((await row(uid)).premium_expires_at).toBe(1893456000000);
    expect((await cli('premium', 'clear', uid)).code).toBe(0);
    expect((await row(uid)).premium_expires_at).toBeNull();
  });

  it('names an unknown uid clearly and exits 1', async () => {
    for (const argv of [
      ['users', 'ban', 'ghost'],
      ['permissions', 'grant', 'ghost', 'admin'],
      ['premium', 'clear', 'ghost'],
    ]) {
      const { code, err } = await cli(...argv);
      expect(code).toBe(1);
      expect(err).toEqual(['User not found: ghost']);
    }
  });

  it('refuses bad arguments with the usage text', async () => {
    const unknown = await cli('users', 'explode', 'x');
    expect(unknown.code).toBe(2);
    expect(unknown.err[0]).toContain('usage: npm run cli');
    const { uid } = await createUser(t.db);
    const badPermission = await cli('permissions', 'grant', uid, 'root');
    expect(badPermission.code).toBe(1);
    expect(badPermission.err[0]).toContain('unknown permission "root"');
    const badExpiry = await cli('premium', 'set', uid, 'tomorrow');
    expect(badExpiry.code).toBe(1);
    expect(badExpiry.err[0]).toContain('-1 for lifetime');
    expect((await cli('premium', 'set', uid, '0')).code).toBe(1);
    expect((await row(uid)).premium_expires_at).toBeNull();
  });
});
