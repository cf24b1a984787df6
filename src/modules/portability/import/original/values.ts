/**
 * Reading the values the original platform wrote over the years, as the `bson` package hands them over (BSON files and
 * Extended JSON, relaxed or canonical, parse to the same values): numbers as JS numbers, Int32, Int64 (`Long`),
 * Double or Decimal128 objects, or numeric text (its first database kept some numbers as text); dates as BSON dates,
 * millisecond numbers, ISO text or Firestore timestamps (`{ seconds, nanoseconds }`, from its first database); ids as
 * ObjectIds or text. Each reader answers `undefined` for a value it cannot read, and the mappers decide what that means.
 */

type BsonValue = {
  _bsontype?: string;
  toNumber?: () => number;
  toString?: () => string;
  valueOf?: () => unknown;
};

const NUMERIC_TEXT = /^\s*-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?\s*$/i;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if ((value as BsonValue)._bsontype !== undefined || value instanceof Date) return false;
  return true;
}

/** A finite number from any numeric form; undefined otherwise. */
export function num(value: unknown): number | undefined {
  let n: number | undefined;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'bigint') n = Number(value);
  else if (typeof value === 'string') n = NUMERIC_TEXT.test(value) ? Number(value) : undefined;
  else if (typeof value === 'object' && value !== null) {
    const bson = value as BsonValue;
    switch (bson._bsontype) {
      case 'Long':
        n = bson.toNumber?.();
        break;
      case 'Int32':
      case 'Double':
        n = Number(bson.valueOf?.());
        break;
      case 'Decimal128':
        n = Number(bson.toString?.());
        break;
      default:
        n = undefined;
    }
  }
  return n !== undefined && Number.isFinite(n) ? n : undefined;
}

/** A whole number (rounded), at least `min`. */
export function int(value: unknown, min = 0): number | undefined {
  const n = num(value);
  if (n === undefined) return undefined;
  const rounded = Math.round(n);
  return rounded >= min && Number.isSafeInteger(rounded) ? rounded : undefined;
}

/** Milliseconds since the epoch from a date in any of the forms above; undefined when it is not one. */
export function millis(value: unknown): number | undefined {
  if (value instanceof Date) {
    const ms = value.getTime();
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (typeof value === 'string' && !NUMERIC_TEXT.test(value)) {
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : undefined;
  }
  if (typeof value === 'object' && value !== null && (value as BsonValue)._bsontype === 'Timestamp') {
    // A BSON timestamp: seconds in the high 32 bits.
    const t = value as unknown as { high?: number; t?: number };
    const seconds = t.t ?? t.high;
    return typeof seconds === 'number' ? seconds * 1000 : undefined;
  }
  if (isPlainObject(value)) {
    const seconds = num(value.seconds ?? value._seconds);
    const nanos = num(value.nanoseconds ?? value._nanoseconds) ?? 0;
    return seconds === undefined ? undefined : Math.round(seconds * 1000 + nanos / 1e6);
  }
  const n = num(value);
  return n === undefined || n < 0 ? undefined : Math.round(n);
}

/** An id as text: an ObjectId's 24 hex characters, or a string id as it is. */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) {
    const bson = value as BsonValue & { toHexString?: () => string };
    if (bson._bsontype === 'ObjectId' || bson._bsontype === 'ObjectID') return bson.toHexString?.();
  }
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** When an ObjectId was made (its first four bytes), for records that keep no creation time of their own. */
export function objectIdTime(value: unknown): number | undefined {
  const hex = idText(value);
  if (hex === undefined || !/^[0-9a-f]{24}$/i.test(hex)) return undefined;
  return parseInt(hex.slice(0, 8), 16) * 1000;
}

export function bool(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
