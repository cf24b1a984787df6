import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, ValidateNested } from 'class-validator';
import { MESSAGES, ValidationFailed } from '../app-error';
import { Nullable } from './nullable';
import { AppValidationPipe } from './validation.pipe';

class Inner {
  @IsInt()
  @Max(3)
  level!: number;
}

class Outer {
  @IsString()
  name!: string;

  @ValidateNested()
  @Type(() => Inner)
  inner!: Inner;
}

class Optionals {
  @IsOptional()
  @IsString()
  note?: string;

  @IsOptional()
  @Nullable()
  @IsString()
  clearable?: string | null;

  @IsOptional()
  @ValidateNested()
  @Type(() => Inner)
  inner?: Inner;
}

describe('AppValidationPipe', () => {
  const pipe = new AppValidationPipe();
  const fail = (value: unknown, type: 'body' | 'query' | 'param') => {
    try {
      pipe.transform(value, { type, metatype: Outer });
    } catch (e) {
      return e as ValidationFailed;
    }
    throw new Error('expected a validation failure');
  };

  it('answers body problems with 422 and query or path problems with 400', () => {
    expect(fail({}, 'body')).toMatchObject({ status: 422, message: MESSAGES.invalidBody });
    expect(fail({}, 'query')).toMatchObject({ status: 400, message: MESSAGES.invalidParameters });
    expect(fail({}, 'param')).toMatchObject({ status: 400, message: MESSAGES.invalidParameters });
  });

  it('reports nested paths and unknown keys per object', () => {
    const error = fail({ name: 'x', inner: { level: 9, color: 'red' }, extra: true }, 'body');
    expect(error.validationErrors).toEqual([
      "Unrecognized key(s) in object: 'extra'",
      '"inner" Unrecognized key(s) in object: \'color\'',
      '"inner.level" must not be greater than 3',
    ]);
  });

  it('returns a class instance for a valid value and leaves primitives alone', () => {
    const value = pipe.transform({ name: 'x', inner: { level: 1 } }, { type: 'body', metatype: Outer });
    expect(value).toBeInstanceOf(Outer);
    expect(pipe.transform('abc', { type: 'param', metatype: String })).toBe('abc');
  });

  describe('rules every input obeys', () => {
    const failing = (
      value: unknown,
      metatype: unknown = Optionals,
      type: 'body' | 'query' | 'param' = 'body',
    ) => {
      try {
        pipe.transform(value, {
          type,
          metatype: metatype as never,
          data: type === 'param' ? 'id' : undefined,
        });
      } catch (e) {
        return (e as ValidationFailed).validationErrors;
      }
      throw new Error('expected a validation failure');
    };

    it('refuses null on optional fields, with the path, unless @Nullable()', () => {
      expect(failing({ note: null })).toEqual(['"note" must not be null']);
      expect(failing({ inner: { level: 1 }, note: null, extra: 1 })).toEqual([
        "Unrecognized key(s) in object: 'extra'",
        '"note" must not be null',
      ]);
      expect(pipe.transform({ clearable: null }, { type: 'body', metatype: Optionals })).toEqual(
        Object.assign(new Optionals(), { clearable: null }),
      );
    });

    it('treats keys every object inherits as unknown keys, at any depth', () => {
      expect(failing({ constructor: { a: 1 } })).toEqual(["Unrecognized key(s) in object: 'constructor'"]);
      expect(failing({ inner: { level: 1, toString: 'x', valueOf: 1 } })).toEqual([
        "\"inner\" Unrecognized key(s) in object: 'toString', 'valueOf'",
      ]);
      expect(failing(JSON.parse('{"__proto__":{"x":1}}'))).toEqual([
        "Unrecognized key(s) in object: '__proto__'",
      ]);
    });

    it('refuses NUL and unpaired surrogates in values and keys', () => {
      const problem = 'must not contain NUL characters or unpaired surrogates';
      expect(failing({ note: 'a\u0000b' })).toEqual([`"note" ${problem}`]);
      expect(failing({ note: '\udc00' })).toEqual([`"note" ${problem}`]);
      expect(failing({ note: 'x\ud800' })).toEqual([`"note" ${problem}`]);
      expect(pipe.transform({ note: '😀 ok' }, { type: 'body', metatype: Optionals })).toBeInstanceOf(
        Optionals,
      );
      expect(failing('a\u0000', String, 'param')).toEqual([`"id" ${problem}`]);
      expect(failing({ result: { 'a\u0000': 1 } }, Object)).toEqual([`"result.a\\u0000" key ${problem}`]);
    });

    it('refuses numbers outside the safe-integer range, also after a query conversion', () => {
      expect(failing({ name: 'x', inner: { level: -1e20 } }, Outer)).toEqual([
        `"inner.level" must be a finite number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
      ]);
      expect(failing({ list: [1, 2, Infinity] }, Object)).toEqual([
        `"list.2" must be a finite number between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`,
      ]);
    });

    it('checks every number of a long list, the edges of the safe range included', () => {
      const max = Number.MAX_SAFE_INTEGER;
      const list = Array.from({ length: 2000 }, (_, i) => i / 3);
      Object.assign(list, { 10: max, 11: -max, 12: max + 2, 13: -max - 2, 14: NaN, 15: -Infinity, 16: -0 });
      const message = `must be a finite number between -${max} and ${max}`;
      expect(failing({ list }, Object)).toEqual([12, 13, 14, 15].map((i) => `"list.${i}" ${message}`));
    });
  });
});
