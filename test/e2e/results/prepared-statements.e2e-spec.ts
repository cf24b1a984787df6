import { sql } from 'kysely';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, resultCount, signed, submit } from './result-factory';

describe('hot statements of POST /results are prepared once per connection', () => {
  let t: TestApp;

  beforeAll(async () => {
    // One connection: the statements the requests prepared are visible to the check below.
    t = await createTestApp({
      env: { databasePoolMax: 1, rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
  });
  afterAll(() => t.close());

  async function prepared(): Promise<string[]> {
    const { rows } = await sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(
      t.db,
    );
    return rows.map((r) => r.statement);
  }

  const count = (statements: string[], marker: (s: string) => boolean) => statements.filter(marker).length;
  const guardRead = (s: string) => s.includes('coalesce(array_agg(permission)');
  const lockRead = (s: string) => s.includes('for update') && s.includes('"personal_bests"');
  const write = (s: string) => s.startsWith('WITH stored_result AS');

  it('the guard read, the locked read and the write (per shape) are named statements, reused by later requests', async () => {
    const { uid } = await createUser(t.db);
    const result = (wpm: number) =>
      signed(clientResult({ mode: 'time', mode2: '15', testDuration: 15, wpm }), uid);
    const first = await submit(t, uid, result(90));
    expect(first.status).toBe(200);
    expect(first.body.data.isPb).toBe(true);
    let statements = await prepared();
    expect([count(statements, guardRead), count(statements, lockRead), count(statements, write)]).toEqual([
      1, 1, 1,
    ]);

    // Not a personal best: the write statement's other shape.
    t.clock.advance(60_000);
    const second = await submit(t, uid, result(70));
    expect(second.status).toBe(200);
    expect(second.body.data.isPb).toBe(false);
    statements = await prepared();
    expect([count(statements, guardRead), count(statements, lockRead), count(statements, write)]).toEqual([
      1, 1, 2,
    ]);

    t.clock.advance(60_000);
    const third = await submit(t, uid, result(60));
    expect(third.status).toBe(200);
    expect(await prepared()).toHaveLength(statements.length);
    expect(await resultCount(t.db, uid)).toBe(3);
  });

  it('other statements are not prepared', async () => {
    const before = await prepared();
    await sql`SELECT 1 AS one`.execute(t.db);
    expect(await prepared()).toEqual(before);
  });
});
