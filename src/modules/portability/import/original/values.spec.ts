import { Decimal128, Double, Int32, Long, ObjectId, Timestamp } from 'bson';
import { idText, int, millis, num, objectIdTime } from './values';

describe('values of the original as the bson package reads them', () => {
  it.each([
    [5, 5],
    [new Int32(7), 7],
    [new Double(2.5), 2.5],
    [Long.fromNumber(123_456_789_012), 123_456_789_012],
    [Decimal128.fromString('12.75'), 12.75],
    [12n, 12],
    ['15.02', 15.02],
    [' 60 ', 60],
    ['sixty', undefined],
    [Number.NaN, undefined],
    [null, undefined],
    [{}, undefined],
  ])('num(%p) = %p', (value, expected) => {
    expect(num(value)).toBe(expected);
  });

  it('int rounds and refuses what is below the minimum', () => {
    expect(int(new Double(4.6))).toBe(5);
    expect(int(-1)).toBeUndefined();
    expect(int(-1, -1)).toBe(-1);
  });

  it.each([
    [new Date(1_700_000_000_000), 1_700_000_000_000],
    [1_700_000_000_000, 1_700_000_000_000],
    [Long.fromNumber(1_700_000_000_000), 1_700_000_000_000],
    ['2023-11-14T22:13:20.000Z', 1_700_000_000_000],
    [{ seconds: 1_700_000_000, nanoseconds: 500_000_000 }, 1_700_000_000_500],
    [{ _seconds: 1_700_000_000, _nanoseconds: 0 }, 1_700_000_000_000],
    [new Timestamp({ t: 1_700_000_000, i: 1 }), 1_700_000_000_000],
    [-5, undefined],
    ['not a date', undefined],
  ])('millis(%p) = %p', (value, expected) => {
    expect(millis(value)).toBe(expected);
  });

  it('reads ObjectIds as their hex and their creation time', () => {
    const id = new ObjectId('65a000000000000000000001');
    expect(idText(id)).toBe('65a000000000000000000001');
    expect(idText('abc')).toBe('abc');
    expect(idText({})).toBeUndefined();
    expect(objectIdTime(id)).toBe(0x65a00000 * 1000);
    expect(objectIdTime('not-hex')).toBeUndefined();
  });
});
