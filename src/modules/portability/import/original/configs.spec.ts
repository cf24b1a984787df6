import { ObjectId } from 'bson';
import { mapConfig, mapPreset, upgradeLegacySettings } from './configs';
import { mapApeKey, mapBlocklist, mapConnection, mapReport } from './collections';

describe('settings, presets and the other collections of the original', () => {
  it.each([
    [{ funbox: 'none' }, { funbox: [] }],
    [{ funbox: 'a#b' }, { funbox: ['a', 'b'] }],
    [{ indicateTypos: true }, { indicateTypos: 'replace' }],
    [{ indicateTypos: false }, { indicateTypos: 'off' }],
    [{ fontSize: '125' }, { fontSize: 1.25 }],
    [{ fontSize: '2' }, { fontSize: 2 }],
    [{ quoteLength: -1 }, { quoteLength: [0, 1, 2, 3] }],
    [{ quoteLength: 2 }, { quoteLength: [2] }],
    [{ showLiveWpm: true, timerStyle: 'text' }, { liveSpeedStyle: 'text' }],
    [{ keymapShowTopRow: 'never' }, { keymapKeys: 'minimal' }],
    [{ tapeMargin: 5 }, { tapeMargin: 10 }],
    [{ customBackgroundFilter: [1, 2, 3, 4, 5] }, { customBackgroundFilter: [1, 2, 3, 4] }],
  ])('upgrades %p like the original client', (input, expected) => {
    expect(upgradeLegacySettings(input)).toMatchObject(expected);
  });

  it('keeps only settings our rules accept, each refusal noted', () => {
    const mapped = mapConfig({ uid: 'u1', config: { punctuation: true, difficulty: 'impossible', gone: 1 } });
    expect(mapped.ok && mapped.value.config).toEqual({ punctuation: true });
    expect(mapped.ok && mapped.adjustments.map((a) => a.path).sort()).toEqual([
      'config.difficulty',
      'config.gone',
    ]);
  });

  it('renames presets to our name rule and keeps their tags', () => {
    const mapped = mapPreset({
      _id: new ObjectId('65a000000000000000000001'),
      uid: 'u1',
      name: 'my preset',
      config: { tags: ['abc'], punctuation: true },
    });
    expect(mapped.ok && mapped.value).toMatchObject({
      name: 'my_preset',
      config: { tags: ['abc'], punctuation: true },
      setting_groups: null,
    });
  });

  it('keeps original ApeKey hashes with their scheme, refuses what is not bcrypt', () => {
    const hash = `$2b$05$${'a'.repeat(53)}`;
    const key = mapApeKey({
      _id: new ObjectId('65a000000000000000000001'),
      uid: 'u1',
      name: 'bot',
      enabled: true,
      hash,
      createdOn: 1,
      modifiedOn: 2,
      lastUsedOn: -1,
    });
    expect(key.ok && key.value).toMatchObject({ hash, hash_scheme: 'bcrypt', last_used_on: -1 });
    expect(mapApeKey({ _id: new ObjectId(), uid: 'u1', hash: 'plain' })).toEqual({
      ok: false,
      reason: 'hash is not a bcrypt hash',
    });
  });

  it('maps blocklist hashes, connections and reports; refuses what it cannot', () => {
    const hash = 'a'.repeat(64);
    expect(mapBlocklist({ emailHash: hash, timestamp: 5 })).toMatchObject({
      ok: true,
      value: [{ kind: 'email', hash, created_at: 5 }],
    });
    expect(mapBlocklist({ usernameHash: 'zz' })).toEqual({
      ok: false,
      reason: 'usernameHash is not a SHA-256 hex digest',
    });
    expect(
      mapConnection({ _id: new ObjectId(), initiatorUid: 'a', receiverUid: 'a', status: 'accepted' }),
    ).toEqual({
      ok: false,
      reason: 'a connection of a user with themselves',
    });
    const report = mapReport({
      id: '3f1a2b3c-4d5e-4f60-8a7b-000000000001',
      uid: 'u',
      type: 'quote',
      contentId: 'english-42',
      reason: 'Duplicate quote',
      comment: 'a/b<c>',
    });
    expect(report.ok && report.value).toMatchObject({
      quote_id: 42,
      quote_language: 'english',
      comment: 'ab',
    });
  });
});
