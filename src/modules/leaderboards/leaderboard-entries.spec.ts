import { friendsPage, friendsRankOf, identity, storedIdentity } from './leaderboard-entries';

describe('leaderboard entries', () => {
  const entries = [3, 7, 20, 21, 40].map((rank) => ({ uid: `u${rank}`, rank }));

  describe('friendsPage', () => {
    it('renumbers in global order and keeps the global rank', () => {
      expect(friendsPage(entries, { page: 0, pageSize: 10 })).toEqual({
        count: 5,
        entries: [
          { uid: 'u3', rank: 1, globalRank: 3, friendsRank: 1 },
          { uid: 'u7', rank: 2, globalRank: 7, friendsRank: 2 },
          { uid: 'u20', rank: 3, globalRank: 20, friendsRank: 3 },
          { uid: 'u21', rank: 4, globalRank: 21, friendsRank: 4 },
          { uid: 'u40', rank: 5, globalRank: 40, friendsRank: 5 },
        ],
      });
    });

    it('pages the friends list (page 1 of size 2 starts at the third friend)', () => {
      expect(friendsPage(entries, { page: 1, pageSize: 2 }).entries.map((e) => [e.uid, e.rank])).toEqual([
        ['u20', 3],
        ['u21', 4],
      ]);
      expect(friendsPage(entries, { page: 3, pageSize: 2 })).toEqual({ entries: [], count: 5 });
      expect(friendsPage([], { page: 0, pageSize: 2 })).toEqual({ entries: [], count: 0 });
    });
  });

  it('friendsRankOf finds the caller among friends, or null', () => {
    expect(friendsRankOf(entries, 'u20')).toEqual({ uid: 'u20', rank: 3, globalRank: 20, friendsRank: 3 });
    expect(friendsRankOf(entries, 'nobody')).toBeNull();
  });

  describe('identity', () => {
    it('leaves out facts the user does not have, and isPremium while premium is disabled', () => {
      const source = { uid: 'u', name: 'n', badgeId: null, chatId: null, chatAvatar: null, isPremium: true };
      // What a client receives is the JSON: absent facts are not there at all (not null).
      const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
      expect(json(identity(source, false))).toStrictEqual({ uid: 'u', name: 'n' });
      expect(json(identity(source, true))).toStrictEqual({ uid: 'u', name: 'n', isPremium: true });
      expect(json(identity({ ...source, isPremium: null }, true))).toStrictEqual({
        uid: 'u',
        name: 'n',
        isPremium: false,
      });
    });

    it('keeps a badge (even 0) and the chat link', () => {
      expect(identity({ uid: 'u', name: 'n', badgeId: 0, chatId: 'c', chatAvatar: 'a' }, false)).toEqual({
        uid: 'u',
        name: 'n',
        badgeId: 0,
        chatId: 'c',
        chatAvatar: 'a',
      });
    });
  });

  describe('storedIdentity', () => {
    const account = {
      name: 'n',
      banned: false,
      lbOptOut: false,
      timeTypingBefore: 0,
      premiumExpiresAt: 2_000,
      chatId: null,
      chatAvatar: null,
      streak: 0,
    };
    it('stores premium only while enabled and not expired', () => {
      expect(storedIdentity(account, true, 1_000)).toEqual({ isPremium: true });
      expect(storedIdentity(account, true, 3_000)).toEqual({});
      expect(storedIdentity(account, false, 1_000)).toEqual({});
      expect(storedIdentity({ ...account, premiumExpiresAt: -1 }, true, 9e15)).toEqual({ isPremium: true });
    });

    it('stores the selected badge and chat link when present', () => {
      expect(
        storedIdentity({ ...account, selectedBadgeId: 5, chatId: 'c', chatAvatar: 'a' }, false, 0),
      ).toEqual({ badgeId: 5, chatId: 'c', chatAvatar: 'a' });
    });
  });
});
