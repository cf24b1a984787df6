import { checkRoomConfig, type Checked } from './room-config';
import { TRIBE_LIMITS } from './limits';
import { UNWANTED } from './text';
import type { Progress, RaceResult, ResultResolve, RoomConfig } from './room';

/**
 * One small schema per client event, written by hand: the payloads are a few flat fields, and each check builds a
 * fresh value of known keys only (a payload's extra keys, prototype or getters never get further). The room config
 * reuses the account configuration's class-validator rules (`room-config.ts`).
 */

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  return value as Fields;
}

function own(object: Fields, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

const fail = (error: string): { ok: false; error: string } => ({ ok: false, error });
const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });

function number(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? value : null;
}

function clamped(value: unknown, min: number, max: number): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : null;
}

function optionalBoolean(value: unknown): boolean | undefined | null {
  if (value === undefined) return undefined;
  return typeof value === 'boolean' ? value : null;
}

/** Player ids are socket ids: 20 letters and digits (see `ids.ts`); anything longer is not worth a lookup. */
export const PLAYER_ID = /^[A-Za-z0-9]{1,64}$/;
export const ROOM_CODE = /^[a-f0-9]{6}$/i;

export function versionCheck(payload: unknown): Checked<string> {
  const version = own(fields(payload) ?? {}, 'version');
  return typeof version === 'string' && version.length <= 64 ? ok(version) : fail('Invalid version');
}

export function setName(payload: unknown): Checked<string> {
  const object = fields(payload);
  if (!object) return fail('Invalid request');
  const name = own(object, 'name');
  if (typeof name !== 'string' || name.length > 64) return fail('Invalid name');
  if (optionalBoolean(own(object, 'confirm')) === null) return fail('Invalid request');
  return ok(name);
}

export function publicRoomsQuery(payload: unknown): Checked<{ search: string }> {
  const object = fields(payload);
  if (!object) return fail('Invalid request');
  const search = own(object, 'search') ?? '';
  const page = own(object, 'page');
  if (typeof search !== 'string' || search.length > TRIBE_LIMITS.searchMaxLength)
    return fail('Invalid search');
  if (page !== undefined && number(page, 0, 1000) === null) return fail('Invalid page');
  return ok({ search: search.trim() });
}

export function joinRoom(payload: unknown): Checked<{ roomId: string }> {
  const object = fields(payload);
  const roomId = object ? own(object, 'roomId') : undefined;
  if (typeof roomId !== 'string' || !ROOM_CODE.test(roomId)) return fail('Incorrect room code format');
  if (optionalBoolean(own(object as Fields, 'fromBrowser')) === null) return fail('Invalid request');
  return ok({ roomId: roomId.toLowerCase() });
}

export function createRoom(payload: unknown): Checked<{ config: RoomConfig; isPrivate: boolean }> {
  const object = fields(payload);
  if (!object) return fail('Invalid request');
  const type = own(object, 'type');
  if (type !== undefined && type !== null && type !== 'public' && type !== 'private')
    return fail('Invalid room type');
  const config = checkRoomConfig(own(object, 'config'));
  if (!config.ok) return config;
  return ok({ config: config.value, isPrivate: type !== 'public' });
}

export function updateConfig(payload: unknown): Checked<RoomConfig> {
  const object = fields(payload);
  return object ? checkRoomConfig(own(object, 'config')) : fail('Invalid request');
}

export function playerTarget(payload: unknown): Checked<string> {
  const userId = own(fields(payload) ?? {}, 'userId');
  return typeof userId === 'string' && PLAYER_ID.test(userId) ? ok(userId) : fail('Invalid user id');
}

export function roomName(payload: unknown): Checked<string> {
  const name = own(fields(payload) ?? {}, 'name');
  return typeof name === 'string' && name.length <= 256 ? ok(name.trim()) : fail('Invalid room name');
}

export function flag(payload: unknown, key: 'isAfk' | 'isChatting'): Checked<boolean> {
  const value = own(fields(payload) ?? {}, key);
  return typeof value === 'boolean' ? ok(value) : fail(`Invalid ${key}`);
}

export function chat(payload: unknown): Checked<string> {
  const message = own(fields(payload) ?? {}, 'message');
  // Longer than the cap even after trimming whitespace: no need to look further.
  return typeof message === 'string' && message.length <= TRIBE_LIMITS.chatMaxLength * 4
    ? ok(message)
    : fail('Invalid message');
}

/**
 * Live figures, clamped to what a test can show (the first keystrokes of a test can compute absurd speeds); a value
 * that is not a number at all refuses the tick.
 */
export function progress(payload: unknown): Checked<Progress> {
  const object = fields(payload);
  if (!object) return fail('Invalid progress');
  const wpm = clamped(own(object, 'wpm'), 0, TRIBE_LIMITS.maxWpm);
  const raw = clamped(own(object, 'raw'), 0, TRIBE_LIMITS.maxWpm);
  const acc = clamped(own(object, 'acc'), 0, 100);
  const percent = clamped(own(object, 'progress'), 0, 100);
  const wordIndex = clamped(own(object, 'wordIndex'), 0, 1_000_000);
  const letterIndex = clamped(own(object, 'letterIndex'), 0, 1_000_000);
  const afk = own(object, 'afk');
  if (
    wpm === null ||
    raw === null ||
    acc === null ||
    percent === null ||
    wordIndex === null ||
    letterIndex === null ||
    typeof afk !== 'boolean'
  )
    return fail('Invalid progress');
  return ok({
    wpm: Math.round(wpm),
    raw: Math.round(raw),
    acc: Math.round(acc * 100) / 100,
    progress: Math.round(percent),
    wordIndex: Math.floor(wordIndex),
    letterIndex: Math.floor(letterIndex),
    afk,
  });
}

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return value.replace(UNWANTED, ' ').slice(0, TRIBE_LIMITS.resolveTextMaxLength);
}

function resolveOf(value: unknown): ResultResolve | null {
  const object = fields(value);
  if (!object) return null;
  const login = own(object, 'login');
  const bailedOut = own(object, 'bailedOut');
  if (typeof login !== 'boolean' || typeof bailedOut !== 'boolean') return null;
  const resolve: ResultResolve = { login, bailedOut };
  if (own(object, 'valid') === false) {
    const reason = text(own(object, 'invalidReason'));
    if (reason === null) return null;
    return { ...resolve, valid: false, invalidReason: reason };
  }
  if (own(object, 'failed') === true) {
    const reason = text(own(object, 'failedReason'));
    if (reason === null) return null;
    return { ...resolve, failed: true, failedReason: reason };
  }
  const saved = own(object, 'saved');
  if (saved === true) {
    const isPb = own(object, 'isPb');
    if (typeof isPb !== 'boolean') return null;
    return { ...resolve, saved: true, isPb };
  }
  if (saved === false) {
    const message = text(own(object, 'saveFailedMessage'));
    if (message === null) return null;
    return { ...resolve, saved: false, saveFailedMessage: message };
  }
  return resolve;
}

function series(value: unknown, max: number): number[] | null {
  if (!Array.isArray(value) || value.length > TRIBE_LIMITS.chartMaxPoints) return null;
  const out: number[] = [];
  for (const item of value as unknown[]) {
    const n = number(item, 0, max);
    if (n === null) return null;
    out.push(n);
  }
  return out;
}

/**
 * A racer's result: the speeds within the client's own result bounds (wpm and raw at most 420, accuracy and
 * consistency percentages), its chart and character counts bounded, its `resolve` one of the client's shapes.
 * Relayed to the room only; the result that counts is the one the client saves through `POST /results`.
 */
export function raceResult(payload: unknown): Checked<RaceResult> {
  const object = fields(own(fields(payload) ?? {}, 'result'));
  if (!object) return fail('Invalid result');
  const wpm = number(own(object, 'wpm'), 0, TRIBE_LIMITS.maxWpm);
  const raw = number(own(object, 'raw'), 0, TRIBE_LIMITS.maxWpm);
  const acc = number(own(object, 'acc'), 0, 100);
  const consistency = number(own(object, 'consistency'), 0, 100);
  const testDuration = number(own(object, 'testDuration'), 0, 24 * 3600);
  const charStats = own(object, 'charStats');
  const chart = fields(own(object, 'chartData'));
  const resolve = resolveOf(own(object, 'resolve'));
  if (wpm === null || raw === null || acc === null || consistency === null || testDuration === null)
    return fail('Invalid result: speed, accuracy, consistency or duration out of range');
  if (
    !Array.isArray(charStats) ||
    charStats.length !== 4 ||
    !charStats.every((n) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= 10_000_000)
  )
    return fail('Invalid result: charStats');
  const chartData = chart && {
    wpm: series(own(chart, 'wpm'), 10_000),
    burst: series(own(chart, 'burst'), 10_000),
    err: series(own(chart, 'err'), 10_000),
  };
  if (!chartData || !chartData.wpm || !chartData.burst || !chartData.err)
    return fail('Invalid result: chartData');
  if (!resolve) return fail('Invalid result: resolve');
  return ok({
    wpm,
    raw,
    acc,
    consistency,
    testDuration,
    charStats: [...charStats] as [number, number, number, number],
    chartData: { wpm: chartData.wpm, burst: chartData.burst, err: chartData.err },
    resolve,
  });
}
