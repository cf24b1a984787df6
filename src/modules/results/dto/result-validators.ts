import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { isFunboxName } from '../domain/funboxes';

export const TOO_LONG = 'toolong';
export const MAX_CHART_POINTS = 122;

function isNumberList(value: unknown, options: { integer?: boolean; maxItems?: number } = {}): boolean {
  if (!Array.isArray(value)) return false;
  if (options.maxItems !== undefined && value.length > options.maxItems) return false;
  // One plain loop: these lists run to thousands of key timings, and per-item decorators cost far more.
  for (const item of value) {
    if (typeof item !== 'number' || !Number.isFinite(item) || item < 0) return false;
    if (options.integer && !Number.isInteger(item)) return false;
  }
  return true;
}

/** Key timings: a list of non-negative numbers, or `"toolong"` for tests too long to send them. */
export const IsKeyTimings = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isKeyTimings',
      validator: {
        validate: (value: unknown) => value === TOO_LONG || isNumberList(value),
        defaultMessage: () => 'must be a list of non-negative numbers or "toolong"',
      },
    },
    options,
  );

/** `{ wpm, burst, err }` lists of at most 122 points each (burst whole numbers), or `"toolong"`. */
export const IsChartData = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isChartData',
      validator: {
        validate: (value: unknown) => {
          if (value === TOO_LONG) return true;
          if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
          const chart = value as Record<string, unknown>;
          const keys = Object.keys(chart);
          return (
            keys.length === 3 &&
            isNumberList(chart.wpm, { maxItems: MAX_CHART_POINTS }) &&
            isNumberList(chart.burst, { maxItems: MAX_CHART_POINTS, integer: true }) &&
            isNumberList(chart.err, { maxItems: MAX_CHART_POINTS })
          );
        },
        defaultMessage: () =>
          `must be "toolong" or { wpm, burst, err }, each a list of at most ${MAX_CHART_POINTS} non-negative numbers`,
      },
    },
    options,
  );

const NUMERIC_MODE2 = /^\d{1,10}$/;

/** `mode2` agrees with `mode`: a number as text for time, words and quote; "zen" and "custom" for those modes. */
export const IsMode2ForMode = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isMode2ForMode',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => {
          if (typeof value !== 'string') return false;
          const mode = (args?.object as { mode?: unknown } | undefined)?.mode;
          if (mode === 'zen' || mode === 'custom') return value === mode;
          return NUMERIC_MODE2.test(value);
        },
        defaultMessage: () =>
          'must be a number as text (e.g. "60") for time, words and quote, "zen" for zen and "custom" for custom',
      },
    },
    options,
  );

export const IsFunboxName = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isFunboxName',
      validator: {
        validate: (value: unknown) => isFunboxName(value),
        defaultMessage: () => 'must be a known funbox',
      },
    },
    { ...options, each: true },
  );
