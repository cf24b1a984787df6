import { selectedBadgeId, toFriend } from './friends.mapper';
import type { FriendRow, TimePbRow } from './friends.types';

const NOW = 1_800_000_000_000;

const row = (overrides: Partial<FriendRow> = {}): FriendRow => ({
  uid: 'u1',
  name: 'alice',
  chat_id: null,
  chat_avatar: null,
  started_tests: 5,
  completed_tests: 4,
  time_typing: 123.5,
  xp: 900,
  streak_length: 3,
  streak_max_length: 7,
  last_result_at: null,
  banned: false,
  lb_opt_out: false,
  inventory_badges: [],
  premium_expires_at: null,
  connection_id: null,
  last_modified: null,
  ...overrides,
});

const pb = (mode2: string, wpm: number): TimePbRow => ({
  uid: 'u1',
  mode2,
  acc: 97,
  consistency: 80,
  difficulty: 'normal',
  lazy_mode: false,
  language: 'english',
  punctuation: false,
  numbers: false,
  raw: wpm + 5,
  wpm,
  timestamp: NOW - 1000,
});

describe('selectedBadgeId', () => {
  it.each<[unknown, number | undefined]>([
    [[], undefined],
    [null, undefined],
    [{ id: 1, selected: true }, undefined],
    [[{ id: 1 }, { id: 2, selected: false }], undefined],
    [[{ id: 1 }, { id: 14, selected: true }], 14],
    [
      [
        { id: '3', selected: true },
        { id: 4, selected: true },
      ],
      4,
    ],
    [['junk', null, { id: 5, selected: true }], 5],
  ])('%j → %s', (badges, expected) => {
    expect(selectedBadgeId(badges)).toBe(expected);
  });
});

describe('toFriend', () => {
  it('leaves out what the user does not have, and isPremium while premium is disabled', () => {
    expect(toFriend(row(), {}, false, NOW)).toEqual({
      uid: 'u1',
      name: 'alice',
      startedTests: 5,
      completedTests: 4,
      timeTyping: 123.5,
      xp: 900,
      streak: { length: 3, maxLength: 7 },
      banned: false,
      lbOptOut: false,
    });
  });

  it('carries every optional fact when present', () => {
    const friend = toFriend(
      row({
        chat_id: 'c1',
        chat_avatar: 'av',
        last_result_at: NOW - 5,
        inventory_badges: [{ id: 2, selected: true }],
        premium_expires_at: -1,
        connection_id: 'abc',
        last_modified: NOW - 10,
      }),
      { top15: pb('15', 100), top60: pb('60', 90) },
      true,
      NOW,
    );
    expect(friend).toMatchObject({
      chatId: 'c1',
      chatAvatar: 'av',
      lastActivityTimestamp: NOW - 5,
      badgeId: 2,
      isPremium: true,
      connectionId: 'abc',
      lastModified: NOW - 10,
    });
    expect(friend.top15).toEqual({
      acc: 97,
      consistency: 80,
      difficulty: 'normal',
      lazyMode: false,
      language: 'english',
      punctuation: false,
      numbers: false,
      raw: 105,
      wpm: 100,
      timestamp: NOW - 1000,
    });
    expect(friend.top60?.wpm).toBe(90);
  });

  it.each<[number | null, boolean]>([
    [null, false],
    [-1, true],
    [NOW + 1, true],
    [NOW, false],
  ])('premium expiring at %s → isPremium %s when premium is enabled', (expiresAt, expected) => {
    expect(toFriend(row({ premium_expires_at: expiresAt }), {}, true, NOW).isPremium).toBe(expected);
  });
});
