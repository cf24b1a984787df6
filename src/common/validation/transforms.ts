import { Transform } from 'class-transformer';

// Linear: the digits before and after the point can be split only one way (ReDoS, docs/security.md "Fixed findings").
export const NUMERIC = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

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

/**
 * A text field that may look numeric (`mode2`): in JSON query mode `mode2=15` arrives as the number 15 and
 * `mode2=%2215%22` as the string "15"; both mean "15" (the original converts the number the same way).
 */
export const ToText = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isFinite(value) ? String(value) : value,
  );
