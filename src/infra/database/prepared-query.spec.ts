import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import type { DB } from './database.types';
import { PreparedQuery } from './prepared-query';

const db = new Kysely<DB>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('PreparedQuery', () => {
  const pbOf = (p: { uid: string; mode: string; numbers: boolean }) =>
    db
      .selectFrom('personal_bests')
      .select('wpm')
      .where('uid', '=', p.uid)
      .where('mode', '=', p.mode)
      .where('numbers', '=', p.numbers)
      .where('mode2', '=', sql<string>`${p.mode}`);

  it('compiles the statement the builder would, with the values in parameter order', () => {
    const prepared = new PreparedQuery(pbOf, ['uid', 'mode', 'numbers']);
    const values = { uid: 'u1', mode: 'time', numbers: false };
    const direct = pbOf(values).compile();
    const compiled = prepared.with(values);
    expect(compiled.sql).toBe(direct.sql);
    expect(compiled.parameters).toEqual(['u1', 'time', false, 'time']);
    expect(compiled.parameters).toEqual(direct.parameters);
  });

  it('builds once, however often it runs', () => {
    const build = jest.fn(pbOf);
    const prepared = new PreparedQuery(build, ['uid', 'mode', 'numbers']);
    prepared.with({ uid: 'a', mode: 'words', numbers: true });
    prepared.with({ uid: 'b', mode: 'time', numbers: false });
    expect(build).toHaveBeenCalledTimes(1);
    expect(prepared.with({ uid: 'b', mode: 'time', numbers: false }).parameters).toEqual([
      'b',
      'time',
      false,
      'time',
    ]);
  });

  it('refuses a template whose parameters are not all named', () => {
    const constant = () => db.selectFrom('users').select('uid').where('name', '=', 'fixed');
    expect(() => new PreparedQuery(constant, [])).toThrow(/"fixed" is not one of/);
  });
});
