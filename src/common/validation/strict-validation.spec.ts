import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { SubmitResultDto } from '../../modules/results/dto/submit-result.dto';
import { GetResultsQueryDto } from '../../modules/results/dto/get-results-query.dto';
import { passesStrict, validateStrict } from './strict-validation';

const STRICT = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
} as const;

function result(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    wpm: 80.5,
    rawWpm: 82,
    acc: 97.2,
    mode: 'time',
    mode2: '15',
    language: 'english',
    timestamp: 1_700_000_000_000,
    testDuration: 15.01,
    consistency: 80,
    hash: 'abc123',
    charStats: [100, 2, 1, 0],
    incompleteTests: [{ acc: 90, seconds: 3 }],
    funbox: [],
    tags: [],
    chartData: { wpm: [80, 81], burst: [70, 90], err: [0, 1] },
    keySpacing: [120.5, 99, 130],
    keyDuration: [80, 70.25, 90],
    customText: undefined,
    ...overrides,
  };
}

const toInstance = (body: unknown) =>
  plainToInstance(SubmitResultDto, body as object, { exposeDefaultValues: true });

describe('validateStrict', () => {
  it('accepts a valid body without class-validator and agrees with it', () => {
    const instance = toInstance({ result: result() });
    expect(passesStrict(instance)).toBe(true);
    expect(validateSync(instance, STRICT)).toEqual([]);
    expect(validateStrict(instance)).toEqual([]);
  });

  const invalid: Record<string, unknown> = {
    'a number out of range': { result: result({ wpm: 421 }) },
    'a wrong type': { result: result({ acc: '97' }) },
    'mode2 disagreeing with mode (a constraint reading the object)': { result: result({ mode: 'zen' }) },
    'a charStats item out of range (each)': { result: result({ charStats: [1, 2, 3, -1] }) },
    'a nested item failing': { result: result({ incompleteTests: [{ acc: 101, seconds: 1 }] }) },
    'a nested item that is not an object': { result: result({ incompleteTests: [5] }) },
    'a nested array item': { result: result({ incompleteTests: [[{ acc: 1, seconds: 1 }]] }) },
    'an unknown key': { result: result({ extra: 1 }) },
    'an unknown nested key': { result: result({ incompleteTests: [{ acc: 1, seconds: 1, x: 1 }] }) },
    'an unknown top-level key': { result: result(), other: true },
    'a missing required field': { result: result({ hash: undefined }) },
    'null on an optional field': { result: result({ afkDuration: null }) },
    'a bad key timing': { result: result({ keySpacing: [1, -2] }) },
    'a missing result': {},
    'a result that is not an object': { result: 'x' },
    'an unknown funbox (each)': { result: result({ funbox: ['nope'] }) },
  };
  it.each(Object.entries(invalid))('leaves %s to class-validator, with its errors', (_name, body) => {
    const instance = toInstance(body);
    const expected = validateSync(instance, STRICT);
    expect(expected.length).toBeGreaterThan(0);
    expect(passesStrict(instance)).toBe(false);
    expect(validateStrict(instance)).toEqual(expected);
  });

  it('validates query DTOs the same way', () => {
    const good = plainToInstance(GetResultsQueryDto, {}, { exposeDefaultValues: true });
    expect(validateStrict(good)).toEqual(validateSync(good, STRICT));
    const bad = plainToInstance(GetResultsQueryDto, { unknown: '1' }, { exposeDefaultValues: true });
    expect(passesStrict(bad)).toBe(false);
    expect(validateStrict(bad)).toEqual(validateSync(bad, STRICT));
  });

  it('refuses a class without metadata (forbidUnknownValues)', () => {
    expect(passesStrict({ a: 1 })).toBe(false);
    expect(validateStrict({ a: 1 })).toEqual(validateSync({ a: 1 }, STRICT));
  });
});
