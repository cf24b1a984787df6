import { CONFIG_SCHEMA } from '../../configs/config-schema';
import { validateStrict } from '../../../common/validation/strict-validation';
import { TRIBE_LIMITS } from './limits';
import type { CustomTextSettings, RoomConfig } from './room';

/**
 * The keys a room imposes on its members: those the client's config metadata marks `tribeBlocked` (its
 * `RoomConfig` type is built from them), plus `customText`.
 */
export const ROOM_CONFIG_KEYS = [
  'punctuation',
  'numbers',
  'words',
  'time',
  'mode',
  'quoteLength',
  'language',
  'difficulty',
  'minWpm',
  'minWpmCustomSpeed',
  'minAcc',
  'minAccCustom',
  'minBurst',
  'minBurstCustomSpeed',
  'funbox',
  'customLayoutfluid',
  'customPolyglot',
  'strictSpace',
  'stopOnError',
  'lazyMode',
] as const satisfies readonly (keyof typeof CONFIG_SCHEMA)[];

/**
 * The same rules as the account configuration (`PATCH /configs`): one table of class-validator constraints, every
 * key required here. The lobby inserts several of these values into its page as HTML, so only known names and
 * numbers get through.
 */
class RoomConfigRules {
  [key: string]: unknown;
}
for (const key of ROOM_CONFIG_KEYS) {
  for (const rule of CONFIG_SCHEMA[key].rules) rule(RoomConfigRules.prototype, key);
}

const TEXT_MODES = ['repeat', 'random', 'shuffle'];
const LIMIT_MODES = ['word', 'time', 'section'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function customTextProblem(value: unknown): string | null {
  if (!isRecord(value)) return '"customText" must be an object';
  const { text, mode, pipeDelimiter, limit } = value;
  if (!Array.isArray(text) || text.length === 0) return '"customText.text" must be a non-empty array';
  if (text.length > TRIBE_LIMITS.customTextMaxWords)
    return `"customText.text" must have at most ${TRIBE_LIMITS.customTextMaxWords} words`;
  let characters = 0;
  for (const word of text as unknown[]) {
    if (typeof word !== 'string' || word.length > TRIBE_LIMITS.customTextMaxWordLength)
      return `"customText.text" must contain strings of at most ${TRIBE_LIMITS.customTextMaxWordLength} characters`;
    characters += word.length;
  }
  if (characters > TRIBE_LIMITS.customTextMaxCharacters)
    return `"customText.text" must have at most ${TRIBE_LIMITS.customTextMaxCharacters} characters`;
  if (typeof mode !== 'string' || !TEXT_MODES.includes(mode))
    return `"customText.mode" must be one of ${TEXT_MODES.join(', ')}`;
  if (typeof pipeDelimiter !== 'boolean') return '"customText.pipeDelimiter" must be a boolean';
  if (!isRecord(limit)) return '"customText.limit" must be an object';
  if (typeof limit.mode !== 'string' || !LIMIT_MODES.includes(limit.mode))
    return `"customText.limit.mode" must be one of ${LIMIT_MODES.join(', ')}`;
  if (
    typeof limit.value !== 'number' ||
    !Number.isInteger(limit.value) ||
    limit.value < 0 ||
    limit.value > 1e6
  )
    return '"customText.limit.value" must be an integer from 0 to 1000000';
  return null;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * A room config from a client: every key checked, keys the room does not impose dropped (never relayed), and a
 * fresh object built, so nothing of the payload's own prototype or extra fields reaches the store.
 */
export function checkRoomConfig(value: unknown): Checked<RoomConfig> {
  if (!isRecord(value)) return { ok: false, error: 'Invalid room config: must be an object' };
  const rules = new RoomConfigRules();
  for (const key of ROOM_CONFIG_KEYS) rules[key] = Object.hasOwn(value, key) ? value[key] : undefined;
  const errors = validateStrict(rules);
  if (errors.length > 0) {
    const first = errors[0]!;
    const message = Object.values(first.constraints ?? {})[0] ?? 'is invalid';
    const what = message.startsWith(`${first.property} `)
      ? message.slice(first.property.length + 1)
      : message;
    return { ok: false, error: `Invalid room config: "${first.property}" ${what}` };
  }
  const textProblem = customTextProblem(value.customText);
  if (textProblem) return { ok: false, error: `Invalid room config: ${textProblem}` };
  const text = value.customText as CustomTextSettings;
  const config = { ...structuredClone(rules) } as Record<string, unknown>;
  config.customText = {
    text: [...text.text],
    mode: text.mode,
    pipeDelimiter: text.pipeDelimiter,
    limit: { mode: text.limit.mode, value: text.limit.value },
  };
  return { ok: true, value: config as unknown as RoomConfig };
}

/** Tests of no fixed length (the client's `isConfigInfinite`): they end when each racer stops. */
export function isInfinite(config: RoomConfig): boolean {
  if (config.mode === 'time') return config.time === 0;
  if (config.mode === 'words') return config.words === 0;
  if (config.mode === 'custom') return config.customText.limit.value === 0;
  return false;
}

/** Seconds a timed test lasts, or null when the test ends by its words. */
export function timedSeconds(config: RoomConfig): number | null {
  if (config.mode === 'time' && config.time > 0) return config.time;
  if (
    config.mode === 'custom' &&
    config.customText.limit.mode === 'time' &&
    config.customText.limit.value > 0
  )
    return config.customText.limit.value;
  return null;
}
