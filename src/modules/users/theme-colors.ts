import { ValidateBy, type ValidationOptions } from 'class-validator';

/** Spec "Other resources": the nine named colours of a custom theme. */
export const THEME_COLOR_KEYS = [
  'bg',
  'main',
  'caret',
  'sub',
  'text',
  'error',
  'errorExtra',
  'colorfulError',
  'colorfulErrorExtra',
] as const;
export type NamedThemeColors = Record<(typeof THEME_COLOR_KEYS)[number], string>;

/**
 * The original client's tuple: bg, main, caret, sub, subAlt, text, error, errorExtra, colorfulError,
 * colorfulErrorExtra (contract facts §6).
 */
export const THEME_COLOR_TUPLE_LENGTH = 10;

/**
 * docs/decisions/0025-custom-theme-shapes.md: either shape is accepted and a theme is answered in the shape it was
 * stored in.
 */
export type ThemeColors = NamedThemeColors | string[];

const HEX = /^#([\da-f]{3}){1,2}$/i;

function isHex(value: unknown): boolean {
  return typeof value === 'string' && HEX.test(value);
}

/** Why `value` is not a theme's colours, or null when it is one of the two shapes. */
export function themeColorsProblem(value: unknown): string | null {
  if (Array.isArray(value)) {
    if (value.length !== THEME_COLOR_TUPLE_LENGTH) {
      return `must be an array of exactly ${THEME_COLOR_TUPLE_LENGTH} hex colours (got ${value.length})`;
    }
    const bad = value.findIndex((c) => !isHex(c));
    return bad === -1 ? null : `item ${bad} must be a hex colour (#rgb or #rrggbb)`;
  }
  if (typeof value !== 'object' || value === null) {
    return 'must be an object of the nine named hex colours or an array of 10 hex colours';
  }
  const record = value as Record<string, unknown>;
  const unknown = Object.keys(record).filter((k) => !(THEME_COLOR_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) return `Unrecognized key(s) in object: ${unknown.map((k) => `'${k}'`).join(', ')}`;
  const bad = THEME_COLOR_KEYS.find((k) => !isHex(record[k]));
  return bad === undefined ? null : `${bad} must be a hex colour (#rgb or #rrggbb)`;
}

/** Only the colours, in a fresh value of the shape given (the validator already refused anything else). */
export function normalizeThemeColors(colors: ThemeColors): ThemeColors {
  if (Array.isArray(colors)) return [...colors];
  return Object.fromEntries(THEME_COLOR_KEYS.map((k) => [k, colors[k]])) as NamedThemeColors;
}

export const IsThemeColors = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isThemeColors',
      validator: {
        validate: (value: unknown) => themeColorsProblem(value) === null,
        defaultMessage: (args) => themeColorsProblem(args?.value) ?? 'must be theme colours',
      },
    },
    options,
  );
