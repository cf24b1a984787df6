import { Type } from 'class-transformer';
import { IsInt, IsString, Max, ValidateNested } from 'class-validator';
import { MESSAGES, ValidationFailed } from '../app-error';
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
});
