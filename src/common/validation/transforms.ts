import { Transform } from 'class-transformer';

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Query-string values arrive as strings. These convert only well-formed values and leave anything else untouched,
 * so the validators report it (`?page=abc` fails `IsInt`, never silently becomes 0 or NaN).
 */
export const ToNumber = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value.trim()) : value,
  );

export const ToBoolean = () =>
  Transform(({ value }: { value: unknown }) => {
    if (value === 'true') return true;
    if (value === 'false') return false;
    return value;
  });
