import { Double, Int32, Long, ObjectId } from 'bson';
import { mapPersonalBests, mergeLeaderboardCopy } from './personal-bests';
import { Notes } from '../mapped';
import { mapUser, replacementName } from './users';
import { mapTestActivity, mapThemes } from './user-parts';

const user = (extra: Record<string, unknown>) => {
  const m = mapUser({
    _id: new ObjectId('64f000000000000000000001'),
    uid: 'u1',
    name: 'alice',
    addedAt: 1,
    ...extra,
  });
  if (!m.ok) throw new Error(m.reason);
  return m.value;
};

describe('users of the original', () => {
  it.each([
    ['xp as Int64', { xp: Long.fromNumber(5_000_000_000) }, { xp: 5_000_000_000 }],
    [
      'counters as Int32 and Double',
      { completedTests: new Int32(3), timeTyping: new Double(12.5) },
      { completed_tests: 3, time_typing: 12.5 },
    ],
    ['addedAt as a date', { addedAt: new Date(1_600_000_000_000) }, { added_at: 1_600_000_000_000 }],
    ['no addedAt: the ObjectId time', { addedAt: undefined }, { added_at: 0x64f00000 * 1000 }],
    ['the chat link', { discordId: '123', discordAvatar: 'av' }, { chat_id: '123', chat_avatar: 'av' }],
    [
      'streak and hour offset',
      { streak: { length: 2, maxLength: 9, lastResultTimestamp: 5, hourOffset: -3.5 } },
      { streak_length: 2, streak_max_length: 9, streak_last_result_at: 5, streak_hour_offset: -3.5 },
    ],
    ['an hour offset off the half hours', { streak: { hourOffset: 1.25 } }, { streak_hour_offset: null }],
    [
      'lifetime premium',
      { premium: { startTimestamp: 10, expirationTimestamp: -1 } },
      { premium_start_at: 10, premium_expires_at: -1 },
    ],
    [
      'the first lbMemory layout',
      { lbMemory: { time60: { global: 9, daily: 1 } } },
      { lb_memory: { time: { '60': { english: 9 } } } },
    ],
    [
      'missing counters from oldTypingStats',
      { oldTypingStats: { completedTests: 7 } },
      { completed_tests: 7 },
    ],
    [
      'flags',
      { banned: true, lbOptOut: true, canReport: false, canManageApeKeys: false },
      { banned: true, lb_opt_out: true, can_report: false, can_manage_ape_keys: false },
    ],
    [
      'needsToChangeName: free to rename',
      { needsToChangeName: true, lastNameChange: 99 },
      { last_name_change_at: null },
    ],
    [
      'profile text sanitised and cut',
      { profileDetails: { bio: `<i>x</i>${'y'.repeat(300)}` } },
      { profile_bio: `x${'y'.repeat(249)}` },
    ],
  ])('%s', (_, extra, expected) => {
    expect(user(extra).user).toMatchObject(expected);
  });

  it('renames an invalid name to a stable replacement and grants quoteMod only for all languages', () => {
    const bad = user({ name: 'has space', quoteMod: 'english' });
    expect(bad.user.name).toBe(replacementName('u1'));
    expect(bad.user.name).toMatch(/^u_[0-9a-f]{14}$/);
    expect(bad.permissions).toEqual([]);
    expect(user({ quoteMod: true }).permissions).toEqual(['quoteMod']);
  });

  it('refuses a document without a uid', () => {
    expect(mapUser({ name: 'x', addedAt: 1 })).toEqual({ ok: false, reason: 'no valid uid' });
  });

  it('maps personal bests of every layout, keeping the best per settings, and merges the leaderboard copy', () => {
    const notes = new Notes();
    const bests = mapPersonalBests(
      {
        time: {
          15: [
            {
              wpm: 100,
              acc: 95,
              raw: 101,
              consistency: 70,
              language: 'english',
              difficulty: 'normal',
              timestamp: 5,
            },
            {
              wpm: 90,
              acc: 95,
              raw: 91,
              consistency: 70,
              language: 'english',
              difficulty: 'normal',
              timestamp: 6,
            },
          ],
          60: { wpm: 50, language: 'english' },
        },
        words: { 10: [{ wpm: 70 }] },
        marathon: {},
      },
      'personalBests',
      notes,
    );
    expect([...bests.values()].map((b) => [b.mode, b.mode2, b.wpm, b.lazy_mode, b.numbers, b.acc])).toEqual([
      ['time', '15', 100, false, false, 95],
      ['time', '60', 50, false, false, 0],
    ]);
    mergeLeaderboardCopy(
      {
        time: {
          60: { english: { wpm: 55, acc: 99, language: 'english', difficulty: 'normal', timestamp: 7 } },
        },
      },
      bests,
      'lbPersonalBests',
      notes,
    );
    expect([...bests.values()].find((b) => b.mode2 === '60')?.wpm).toBe(55);
    expect(notes.list.map((n) => [n.path, n.action])).toEqual([
      ['personalBests.time.15[1]', 'left out'],
      ['personalBests.time.60[0]', 'changed'],
      ['personalBests.words.10[0]', 'left out'],
      ['personalBests.marathon', 'left out'],
      ['lbPersonalBests.time.60.english', 'changed'],
    ]);
  });

  it('reads test activity by year and day of the year', () => {
    const days = mapTestActivity({ '2024': [null, 3, 0, 2] }, new Notes());
    const first = Date.UTC(2024, 0, 1) / 86_400_000;
    expect(days).toEqual([
      { day: first + 1, tests: 3 },
      { day: first + 3, tests: 2 },
    ]);
    expect(mapTestActivity(undefined, new Notes())).toBeNull();
  });

  it('gives nine-colour themes the subAlt the original client inserts, and leaves out bad colours', () => {
    const notes = new Notes();
    const nine = ['#000', '#111', '#222', '#333', '#444', '#555', '#666', '#777', '#888'];
    const themes = mapThemes(
      [
        { _id: new ObjectId('65a000000000000000000001'), name: 'x', colors: nine },
        { _id: new ObjectId('65a000000000000000000002'), name: 'y', colors: ['red'] },
      ],
      0,
      notes,
    );
    expect(themes.map((t) => t.colors)).toEqual([
      ['#000', '#111', '#222', '#333', '#000000', '#444', '#555', '#666', '#777', '#888'],
    ]);
    expect(notes.list.map((n) => n.action)).toEqual(['changed', 'left out']);
  });
});
