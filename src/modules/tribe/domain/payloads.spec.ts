import * as payloads from './payloads';
import { checkRoomConfig } from './room-config';
import { clientRoomConfig as clientConfig } from '../../../../generators/tribe-room-config';

const errorOf = (checked: { ok: boolean; error?: string }) => (checked.ok ? null : checked.error);

describe('room config', () => {
  it('accepts the client’s config and keeps only the keys a room imposes', () => {
    const checked = checkRoomConfig({ ...clientConfig(), theme: 'serika', __proto__: { polluted: true } });
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(Object.keys(checked.value).sort()).toEqual(Object.keys(clientConfig()).sort());
    expect(checked.value).toEqual(clientConfig());
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, unknown, string]>([
    ['not an object', [], 'Invalid room config: must be an object'],
    ['a missing key', { ...clientConfig(), mode: undefined }, '"mode"'],
    ['an unknown mode', clientConfig({ mode: '<b>' }), '"mode"'],
    [
      'an unknown language',
      clientConfig({ language: 'english<script>' }),
      '"language" must be a supported language',
    ],
    [
      'an unknown funbox',
      clientConfig({ funbox: ['<img src=x>'] }),
      '"funbox" must contain only known funboxes',
    ],
    ['a negative word count', clientConfig({ words: -1 }), '"words"'],
    ['a non-integer time', clientConfig({ time: 1.5 }), '"time"'],
    ['an out-of-range accuracy', clientConfig({ minAccCustom: 101 }), '"minAccCustom"'],
    ['one polyglot language', clientConfig({ customPolyglot: ['english'] }), '"customPolyglot"'],
    ['no custom text', clientConfig({ customText: null }), '"customText" must be an object'],
    [
      'an empty custom text',
      clientConfig({
        customText: { text: [], mode: 'repeat', pipeDelimiter: false, limit: { mode: 'word', value: 0 } },
      }),
      '"customText.text" must be a non-empty array',
    ],
    [
      'a custom text of 10,001 words',
      clientConfig({
        customText: {
          text: Array(10_001).fill('a'),
          mode: 'repeat',
          pipeDelimiter: false,
          limit: { mode: 'word', value: 1 },
        },
      }),
      'at most 10000 words',
    ],
    [
      'a custom text word that is not a string',
      clientConfig({
        customText: { text: [1], mode: 'repeat', pipeDelimiter: false, limit: { mode: 'word', value: 1 } },
      }),
      'must contain strings',
    ],
    [
      'an unknown custom text mode',
      clientConfig({
        customText: { text: ['a'], mode: 'x', pipeDelimiter: false, limit: { mode: 'word', value: 1 } },
      }),
      '"customText.mode"',
    ],
    [
      'a custom text limit that is not an integer',
      clientConfig({
        customText: { text: ['a'], mode: 'random', pipeDelimiter: true, limit: { mode: 'time', value: 'x' } },
      }),
      '"customText.limit.value"',
    ],
  ])('refuses %s', (_, config, message) => {
    expect(errorOf(checkRoomConfig(config))).toContain(message);
  });
});

describe('event payloads', () => {
  it.each<[string, () => { ok: boolean; error?: string }, string | null]>([
    ['version check', () => payloads.versionCheck({ version: '25.12.4' }), null],
    ['version check without a version', () => payloads.versionCheck({}), 'Invalid version'],
    ['version check of a number', () => payloads.versionCheck({ version: 1 }), 'Invalid version'],
    ['set name', () => payloads.setName({ name: 'alice', confirm: true }), null],
    [
      'set name with a bad confirm',
      () => payloads.setName({ name: 'alice', confirm: 'yes' }),
      'Invalid request',
    ],
    ['set name of an array', () => payloads.setName({ name: ['a'] }), 'Invalid name'],
    ['public rooms', () => payloads.publicRoomsQuery({ page: 0, search: 'abc' }), null],
    [
      'public rooms, long search',
      () => payloads.publicRoomsQuery({ search: 'x'.repeat(33) }),
      'Invalid search',
    ],
    ['public rooms, bad page', () => payloads.publicRoomsQuery({ page: -1 }), 'Invalid page'],
    ['public rooms without a payload', () => payloads.publicRoomsQuery(undefined), 'Invalid request'],
    ['join', () => payloads.joinRoom({ roomId: 'A1b2C3', fromBrowser: true }), null],
    ['join a bad code', () => payloads.joinRoom({ roomId: 'a1b2c' }), 'Incorrect room code format'],
    ['join a code of 7', () => payloads.joinRoom({ roomId: 'a1b2c3d' }), 'Incorrect room code format'],
    [
      'join, fromBrowser not a boolean',
      () => payloads.joinRoom({ roomId: 'a1b2c3', fromBrowser: 1 }),
      'Invalid request',
    ],
    ['create', () => payloads.createRoom({ config: clientConfig() }), null],
    ['create a public room', () => payloads.createRoom({ config: clientConfig(), type: 'public' }), null],
    [
      'create an unknown type',
      () => payloads.createRoom({ config: clientConfig(), type: 'mm' }),
      'Invalid room type',
    ],
    ['give leader', () => payloads.playerTarget({ userId: 'Abcdefghij0123456789' }), null],
    ['give leader to a selector', () => payloads.playerTarget({ userId: 'a"]' }), 'Invalid user id'],
    ['rename', () => payloads.roomName({ name: 'Room' }), null],
    ['rename to a number', () => payloads.roomName({ name: 5 }), 'Invalid room name'],
    ['afk', () => payloads.flag({ isAfk: true }, 'isAfk'), null],
    ['afk as a string', () => payloads.flag({ isAfk: 'true' }, 'isAfk'), 'Invalid isAfk'],
    ['chatting', () => payloads.flag({ isChatting: false }, 'isChatting'), null],
    ['chat', () => payloads.chat({ message: 'hi' }), null],
    ['chat of an object', () => payloads.chat({ message: { toString: 'x' } }), 'Invalid message'],
    ['chat of 4 KB', () => payloads.chat({ message: 'x'.repeat(4096) }), 'Invalid message'],
  ])('%s', (_, check, error) => {
    expect(errorOf(check())).toBe(error);
  });
});

describe('progress', () => {
  const tick = { wpm: 80, raw: 90, acc: 96.5, progress: 40, wordIndex: 12, letterIndex: 3, afk: false };

  it('keeps a client’s tick as it is', () => {
    expect(payloads.progress(tick)).toEqual({ ok: true, value: tick });
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['a first-keystroke speed', { wpm: 2400, raw: 2400 }, { wpm: 420, raw: 420 }],
    ['negative figures', { acc: -5, progress: -1, wordIndex: -3 }, { acc: 0, progress: 0, wordIndex: 0 }],
    ['fractions', { wpm: 80.6, progress: 40.4, letterIndex: 3.9 }, { wpm: 81, progress: 40, letterIndex: 3 }],
  ])('bounds %s', (_, change, expected) => {
    const checked = payloads.progress({ ...tick, ...change });
    expect(checked).toEqual({ ok: true, value: { ...tick, ...expected } });
  });

  it.each<[string, unknown]>([
    ['NaN', { ...tick, wpm: Number.NaN }],
    ['a string', { ...tick, raw: '90' }],
    ['no afk flag', { ...tick, afk: undefined }],
    ['an array', [tick]],
  ])('refuses %s', (_, payload) => {
    expect(errorOf(payloads.progress(payload))).toBe('Invalid progress');
  });
});

describe('race result', () => {
  const result = {
    wpm: 95.2,
    raw: 101,
    acc: 97.1,
    consistency: 80,
    testDuration: 30.01,
    charStats: [240, 3, 1, 0],
    chartData: { wpm: [90, 95], burst: [100, 110], err: [0, 1] },
    resolve: { login: true, bailedOut: false, saved: true, isPb: false },
  };

  it('accepts the client’s result and its resolve shapes', () => {
    for (const resolve of [
      { login: true, bailedOut: false, saved: true, isPb: true },
      { login: true, bailedOut: false, saved: false, saveFailedMessage: 'Test is too short' },
      { login: false, bailedOut: true, valid: false, invalidReason: 'afk detected' },
      { login: false, bailedOut: false, failed: true, failedReason: 'out of time' },
      { login: false, bailedOut: false },
    ]) {
      const checked = payloads.raceResult({ result: { ...result, resolve } });
      expect(checked).toEqual({ ok: true, value: { ...result, resolve } });
    }
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['wpm above the client’s bound', { wpm: 421 }, 'out of range'],
    ['accuracy above 100', { acc: 100.5 }, 'out of range'],
    ['a negative duration', { testDuration: -1 }, 'out of range'],
    ['three char stats', { charStats: [1, 2, 3] }, 'charStats'],
    ['fractional char stats', { charStats: [1, 2, 3, 0.5] }, 'charStats'],
    [
      'a chart of an hour and a second',
      { chartData: { wpm: Array(3601).fill(1), burst: [], err: [] } },
      'chartData',
    ],
    ['a chart with a string', { chartData: { wpm: ['1'], burst: [], err: [] } }, 'chartData'],
    ['no resolve', { resolve: undefined }, 'resolve'],
    ['a resolve without login', { resolve: { bailedOut: false } }, 'resolve'],
    ['a saved resolve without isPb', { resolve: { login: true, bailedOut: false, saved: true } }, 'resolve'],
  ])('refuses %s', (_, change, message) => {
    expect(errorOf(payloads.raceResult({ result: { ...result, ...change } }))).toContain(message);
  });

  it('relays the reasons it carries without control characters and bounded', () => {
    const checked = payloads.raceResult({
      result: {
        ...result,
        resolve: { login: false, bailedOut: false, failed: true, failedReason: `a\nb${'x'.repeat(300)}` },
      },
    });
    expect(checked.ok && checked.value.resolve.failedReason).toBe(`a b${'x'.repeat(197)}`);
  });
});
