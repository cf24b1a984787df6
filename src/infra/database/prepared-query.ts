import { CompiledQuery, type Compilable } from 'kysely';

/**
 * Statement texts of every PreparedQuery, with the name they are prepared under on each connection (see
 * `namedStatement`). Only these: preparing every statement would keep a plan per distinct text (lists of varying
 * length make many) on every backend.
 */
const PREPARED = new Map<string, string>();

/** The name to prepare this statement text under, if it is a PreparedQuery's. */
export function namedStatement(text: string): string | undefined {
  return PREPARED.get(text);
}

/** What the template is built with in place of each parameter; unique enough never to be a real value. */
const sentinel = (name: string) => `\u0000prepared-parameter:${name}`;

/**
 * A query built and compiled once (when the repository is constructed); each execution only puts its values into the
 * compiled statement's parameter list, and PostgreSQL parses and plans it once per connection (a named prepared
 * statement, see database.ts) instead of on every execution. Meant for the hottest statements, whose shape never
 * changes (the guard's account read runs on every signed-in request): building, parsing and planning them cost more
 * CPU than executing them.
 *
 * `build` receives stand-ins for the named parameters and must pass each one as a query parameter (`where(col, '=',
 * p.uid)`), never into raw SQL text: building fails at start-up when a compiled parameter is not one of them.
 */
export class PreparedQuery<P extends object, R> {
  private readonly sql: string;
  private readonly order: (keyof P & string)[];

  constructor(build: (parameters: P) => Compilable<R>, names: readonly NoInfer<keyof P & string>[]) {
    const stand = Object.fromEntries(names.map((name) => [name, sentinel(name)])) as unknown as P;
    const compiled = build(stand).compile();
    this.sql = compiled.sql;
    if (!PREPARED.has(this.sql)) PREPARED.set(this.sql, `prepared_${PREPARED.size + 1}`);
    this.order = compiled.parameters.map((value) => {
      const name = names.find((n) => sentinel(n) === value);
      if (name === undefined) {
        throw new Error(
          `prepared query: parameter ${JSON.stringify(value)} is not one of ${names.join(', ')}`,
        );
      }
      return name;
    });
  }

  /** The statement with these values, for `executor.executeQuery(...)`. */
  with(values: P): CompiledQuery<R> {
    return CompiledQuery.raw(
      this.sql,
      this.order.map((name) => values[name]),
    ) as CompiledQuery<R>;
  }
}
