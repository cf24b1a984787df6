import { mapAccountBundle, type AccountDocument } from './account-bundle';
import { mapConnection, mapReport, mapResult, mapResultReview, type RecordTarget } from './account-records';
import { shapeProblem } from './fields';

const target: RecordTarget & { name: string } = {
  uid: 'new-uid',
  sourceUid: 'old-uid',
  name: 'Mover',
  present: new Set(['friend']),
};

const result = {
  id: 'r1',
  timestamp: 1_700_000_000_000,
  name: 'Mover',
  wpm: 100,
  rawWpm: 104,
  acc: 98,
  consistency: 80,
  keyConsistency: null,
  charStats: [250, 2, 0, 1],
  mode: 'time',
  mode2: '15',
  quoteLength: null,
  language: 'english',
  difficulty: 'normal',
  punctuation: false,
  numbers: false,
  lazyMode: false,
  blindMode: false,
  bailedOut: false,
  stopOnLetter: false,
  funbox: [],
  tags: ['t1'],
  testDuration: 15,
  afkDuration: 0,
  incompleteTestSeconds: 0,
  restartCount: 0,
  isPb: true,
  xp: 12,
  chartData: 'toolong',
  keySpacingStats: null,
  keyDurationStats: { average: 90, sd: 1 },
};

const reason = (mapped: { ok: boolean; reason?: string }) => (mapped.ok ? null : mapped.reason);

describe('shape checks of export records', () => {
  it.each([
    [{ a: 'x', b: 1, c: null }, null],
    [{ a: 1, b: 1, c: null }, 'a is not a string'],
    [{ a: 'x', b: 1.5, c: null }, 'b is not an integer'],
    [{ a: 'x', c: null }, 'b is missing'],
    [{ a: 'x', b: null, c: null }, 'b is not an integer'],
    [{ a: 'x', b: 1, c: [1] }, null],
    [[], 'not an object'],
  ])('%j → %p', (value, expected) => {
    expect(shapeProblem(value, { a: 'string', b: 'integer', c: 'array?' })).toBe(expected);
  });
});

describe('results of an account export', () => {
  it('keeps every field as exported, under the uid here', () => {
    const mapped = mapResult(result, target);
    expect(mapped).toEqual({
      ok: true,
      adjustments: [],
      value: [
        expect.objectContaining({
          id: 'r1',
          uid: 'new-uid',
          raw_wpm: 104,
          char_stats: [250, 2, 0, 1],
          tags: ['t1'],
          xp: 12,
          stop_on_letter: false,
          chart_data: 'toolong',
          key_duration_stats: { average: 90, sd: 1 },
        }),
      ],
    });
  });

  it.each([
    // The live route's rules and messages (live-rules.ts).
    [{ wpm: 421 }, '"wpm" must not be greater than 420'],
    [{ rawWpm: -1 }, '"rawWpm" must not be less than 0'],
    [{ acc: 101 }, '"acc" must not be greater than 100'],
    [{ language: 'no_such_language' }, '"language" must be a supported language'],
    [{ difficulty: 'easy' }, '"difficulty" must be one of the following values: normal, expert, master'],
    [{ mode: 'marathon' }, '"mode" must be one of the following values: time, words, quote, zen, custom'],
    [{ funbox: ['randomcase'] }, '"funbox" must be a known funbox'],
    [{ funbox: [1] }, 'funbox or tags is not a list of names'],
    [{ charStats: [1.5] }, 'charStats is not a list of counts'],
    [{ xp: '12' }, 'xp is not an integer'],
    [{ chartData: undefined }, 'chartData is missing'],
  ])('refuses %j: %s', (change, expected) => {
    expect(reason(mapResult({ ...result, ...change }, target))).toBe(expected);
  });
});

describe('connections and reports of an account export', () => {
  const connection = {
    id: 'c1',
    initiatorUid: 'old-uid',
    initiatorName: 'Mover',
    receiverUid: 'friend',
    receiverName: 'Friend',
    status: 'accepted',
    createdAt: 1,
    lastModified: 2,
  };

  it('moves the account side of a connection to the uid here', () => {
    const left: string[] = [];
    expect(mapConnection(connection, target, (r) => left.push(r))).toMatchObject({
      ok: true,
      value: [{ id: 'c1', initiator_uid: 'new-uid', receiver_uid: 'friend', status: 'accepted' }],
    });
    const received = { ...connection, initiatorUid: 'friend', receiverUid: 'old-uid' };
    expect(mapConnection(received, target, (r) => left.push(r))).toMatchObject({
      value: [{ initiator_uid: 'friend', receiver_uid: 'new-uid' }],
    });
    expect(left).toEqual([]);
  });

  it('leaves out, counted, a connection or a report of a user who is not here', () => {
    const left: string[] = [];
    const absent = { ...connection, receiverUid: 'stranger' };
    expect(mapConnection(absent, target, (r) => left.push(r))).toEqual({
      ok: true,
      value: [],
      adjustments: [],
    });
    const report = {
      id: 'p1',
      type: 'user',
      contentId: 'stranger',
      quoteId: null,
      quoteLanguage: null,
      reason: 'Inappropriate name',
      comment: '',
      createdAt: 1,
    };
    expect(mapReport(report, target, (r) => left.push(r))).toEqual({ ok: true, value: [], adjustments: [] });
    expect(left).toEqual([
      'the other user is not on this instance',
      'the other user is not on this instance',
    ]);
    expect(mapReport({ ...report, contentId: 'friend' }, target, (r) => left.push(r))).toMatchObject({
      value: [{ uid: 'new-uid', content_id: 'friend' }],
    });
  });

  it.each([
    [{ status: 'friends' }, 'unknown status friends'],
    [{ initiatorUid: 'a', receiverUid: 'b' }, 'not a connection of the exported account'],
    [{ receiverUid: 'old-uid' }, 'a connection of the account with itself'],
  ])('refuses the connection %j: %s', (change, expected) => {
    expect(reason(mapConnection({ ...connection, ...change }, target, () => undefined))).toBe(expected);
  });
});

describe('result reviews of an account export', () => {
  const review = {
    resultId: 'r1',
    status: 'rejected',
    reasons: [{ check: 'ceiling', figures: { wpm: 300 } }],
    keyTiming: null,
    result: { wpm: 300 },
    heldAt: 5,
    decidedAt: 6,
    decisionReason: 'bot-like',
  };

  it('keeps the decision, without a moderator', () => {
    expect(mapResultReview(review, target)).toMatchObject({
      value: [{ result_id: 'r1', uid: 'new-uid', status: 'rejected', decided_by: null, decided_at: 6 }],
    });
  });

  it('refuses a status the queue does not have', () => {
    expect(reason(mapResultReview({ ...review, status: 'maybe' }, target))).toBe('unknown status maybe');
  });
});

describe('the account bundle', () => {
  const account = {
    uid: 'old-uid',
    name: 'Mover',
    email: 'mover@example.test',
    addedAt: 1,
    lastNameChangeAt: null,
    banned: false,
    lbOptOut: false,
    canReport: true,
    canManageApeKeys: true,
    permissions: [{ permission: 'admin', grantedAt: 1 }],
    xp: 10,
    completedTests: 2,
    startedTests: 3,
    timeTyping: 45.5,
    streak: { length: 1, maxLength: 2, lastResultTimestamp: null, hourOffset: -3.5 },
    lastResultAt: null,
    profile: {
      bio: null,
      keyboard: 'split',
      socialProfiles: { github: 'mover' },
      showActivityOnPublicProfile: true,
    },
    badges: [{ id: 3, selected: true }],
    premium: { startTimestamp: null, expirationTimestamp: -1 },
    chat: { id: null, avatar: null },
    derived: { isPremium: true, allTimeLbs: {} },
  };
  const pb = {
    mode: 'time',
    mode2: '15',
    language: 'english',
    difficulty: 'normal',
    punctuation: false,
    numbers: false,
    lazyMode: false,
    wpm: 100,
    acc: 98,
    raw: 104,
    consistency: 80,
    timestamp: 7,
  };
  const doc = (extra: AccountDocument = {}): AccountDocument => ({ account: [account], ...extra });

  it('is the account under the uid and name here, without its permissions, counting its quote ratings', () => {
    const mapped = mapAccountBundle(
      doc({
        quoteRating: [{ language: 'english', quoteId: 7, rating: 4 }],
        personalBest: [{ ...pb, heldResultId: 'r9' }],
      }),
      target,
      true,
    );
    expect(mapped).toMatchObject({
      ok: true,
      value: {
        user: {
          uid: 'new-uid',
          name: 'Mover',
          time_typing: 45.5,
          streak_hour_offset: -3.5,
          last_result_hashes: [],
        },
        permissions: [],
        quoteRatings: [{ language: 'english', quote_id: 7, rating: 4 }],
        countQuoteRatings: true,
        personalBests: [{ wpm: 100, held_result_id: 'r9' }],
      },
    });
  });

  it('takes nothing an untrusted file grants: stats, XP and bests from the results, no premium, badge, flag, link or reward', () => {
    const mapped = mapAccountBundle(
      {
        account: [{ ...account, canReport: false, banned: true, chat: { id: 'chat1', avatar: 'a' } }],
        personalBest: [pb],
        inboxMail: [
          {
            ...{ id: 'm1', subject: 's', body: 'b', timestamp: 1, read: false },
            rewards: [{ type: 'badge', item: { id: 9 } }],
          },
        ],
        testActivity: [{ day: 1, date: '1970-01-02', tests: 4 }],
      },
      target,
      false,
    );
    expect(mapped).toMatchObject({
      ok: true,
      value: {
        user: {
          ...{
            xp: 0,
            completed_tests: 0,
            started_tests: 0,
            time_typing: 0,
            streak_length: 0,
            streak_max_length: 0,
          },
          ...{ premium_start_at: null, premium_expires_at: null, inventory_badges: [], chat_id: null },
          // This instance's defaults for the flags; the ban in the file stays, as does the streak's hour offset.
          ...{ can_report: true, can_manage_ape_keys: true, banned: true, streak_hour_offset: -3.5 },
        },
        personalBests: [],
        testActivity: [],
        mail: [{ id: 'm1', rewards: [] }],
        permissions: [],
      },
    });
    const listed = mapped.ok ? mapped.adjustments.map((a) => `${a.action} ${a.path}`) : [];
    expect(listed).toEqual(
      expect.arrayContaining([
        'changed xp',
        'changed premium.expirationTimestamp',
        'changed badges',
        'changed canReport',
        'changed chat.id',
        'left out personalBest[time/15/english]',
        'left out testActivity',
        'changed inboxMail[m1].rewards',
      ]),
    );
  });

  it('takes a personal best of a file written before heldResultId as on the boards', () => {
    const mapped = mapAccountBundle(doc({ personalBest: [pb] }), target, true);
    expect(mapped).toMatchObject({ value: { personalBests: [{ held_result_id: null }] } });
  });

  it('leaves out, reported, a nested record that is not sound, and keeps the rest', () => {
    const mapped = mapAccountBundle(
      doc({ personalBest: [pb, { ...pb, mode2: '60', wpm: 500 }], tag: [{ id: 't1', name: 'x' }] }),
      target,
      true,
    );
    expect(mapped).toMatchObject({
      ok: true,
      value: { personalBests: [{ mode2: '15' }], tags: [] },
      adjustments: [
        {
          path: 'personalBest[time/60/english]',
          action: 'left out',
          reason: '"wpm" must not be greater than 420',
        },
        { path: 'tag[t1]', action: 'left out', reason: 'createdAt is missing' },
      ],
    });
  });

  it.each([
    [{ email: 5 }, 'account record: email is not a string'],
    [
      { streak: { ...account.streak, hourOffset: 0.3 } },
      'account record: streak.hourOffset outside -11..12 in half hours',
    ],
    [{ badges: [{ id: 'x' }] }, 'account record: badges holds an item without a numeric id'],
  ])('refuses the account %j: %s', (change, expected) => {
    expect(reason(mapAccountBundle({ account: [{ ...account, ...change }] }, target, true))).toBe(expected);
  });
});
