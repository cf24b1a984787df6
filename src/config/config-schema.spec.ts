import { deepMerge, defaultsOf, pruneToSchema, s, validateAgainst } from './config-schema';

const schema = s.obj({
  flag: s.bool(true),
  count: s.int(5, 1, 10),
  ratio: s.num(0.5, 0),
  label: s.str('x', 3),
  mode: s.oneOf(['off', 'on'], 'off'),
  rules: s.arr(s.obj({ name: s.str('') }), [{ name: 'a' }]),
  nested: s.obj({ deep: s.bool(false) }),
});

describe('configuration schema', () => {
  it('derives defaults from the schema, deep-cloned', () => {
    const a = defaultsOf(schema) as { rules: { name: string }[] };
    const b = defaultsOf(schema) as { rules: { name: string }[] };
    expect(a).toEqual({
      flag: true,
      count: 5,
      ratio: 0.5,
      label: 'x',
      mode: 'off',
      rules: [{ name: 'a' }],
      nested: { deep: false },
    });
    a.rules[0]!.name = 'changed';
    expect(b.rules[0]!.name).toBe('a');
  });

  it.each([
    [{ flag: 'yes' }, '"flag" Expected boolean, received string'],
    [{ count: 0 }, '"count" Number must be greater than or equal to 1'],
    [{ count: 11 }, '"count" Number must be less than or equal to 10'],
    [{ count: 2.5 }, '"count" Expected integer, received float'],
    [{ ratio: Number.NaN }, '"ratio" Expected number, received number'],
    [{ ratio: -1 }, '"ratio" Number must be greater than or equal to 0'],
    [{ label: 'long' }, '"label" String must contain at most 3 character(s)'],
    [{ mode: 'maybe' }, `"mode" Invalid enum value. Expected 'off' | 'on', received 'maybe'`],
    [{ mode: 1 }, '"mode" Expected string, received number'],
    [{ rules: {} }, '"rules" Expected array, received object'],
    [{ rules: [{}] }, '"rules.0.name" Required'],
    [{ rules: [{ name: 'b', extra: 1 }] }, '"rules.0" Unrecognized key(s) in object: \'extra\''],
    [{ nested: null }, '"nested" Expected object, received null'],
    [{ nested: { deep: true, other: 1 } }, '"nested" Unrecognized key(s) in object: \'other\''],
    [{ unknown: 1 }, "Unrecognized key(s) in object: 'unknown'"],
  ])('refuses %j: %s', (value, message) => {
    expect(validateAgainst(schema, value, '', true)).toContain(message);
  });

  it('accepts any deep partial of valid values, and reports missing keys only when not partial', () => {
    expect(validateAgainst(schema, { nested: { deep: true }, count: 10 }, '', true)).toEqual([]);
    expect(validateAgainst(schema, {}, '', true)).toEqual([]);
    expect(validateAgainst(schema, { flag: false }, '', false)).toContain('"count" Required');
  });

  it('prefixes paths when validating under a parent', () => {
    expect(validateAgainst(schema, { flag: 1 }, 'configuration', true)).toEqual([
      '"configuration.flag" Expected boolean, received number',
    ]);
  });

  it('merges deeply, replacing arrays and leaves and keeping siblings', () => {
    const base = { a: { b: 1, c: [1, 2] }, d: true };
    expect(deepMerge(base, { a: { c: [3] } })).toEqual({ a: { b: 1, c: [3] }, d: true });
    expect(deepMerge(base, { a: { b: 2 }, e: 'new' })).toEqual({ a: { b: 2, c: [1, 2] }, d: true, e: 'new' });
    expect(base).toEqual({ a: { b: 1, c: [1, 2] }, d: true });
  });

  it('prunes stored values that no longer fit the schema', () => {
    expect(pruneToSchema(schema, { flag: 'old', count: 7, gone: 1, nested: { deep: true, old: 2 } })).toEqual(
      {
        count: 7,
        nested: { deep: true },
      },
    );
    expect(pruneToSchema(schema, null)).toBeUndefined();
  });
});
