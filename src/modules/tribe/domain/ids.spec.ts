import { addressKey, newPlayerId, newRoomCode, newSeed, PLAYER_ID_LENGTH } from './ids';

describe('ids', () => {
  it('makes player ids a CSS selector can hold unescaped: a letter, then letters and digits, 20 long', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newPlayerId()));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(new RegExp(`^[A-Za-z][A-Za-z0-9]{${PLAYER_ID_LENGTH - 1}}$`));
  });

  it('makes room codes the client’s join form accepts, and seeds it can use', () => {
    for (let i = 0; i < 200; i++) {
      expect(newRoomCode()).toMatch(/^[a-f0-9]{6}$/);
      const seed = newSeed();
      expect(Number.isInteger(seed) && seed > 0 && seed < 2 ** 31).toBe(true);
    }
  });

  it('keys addresses by a hash, the same for the same address', () => {
    expect(addressKey('203.0.113.9')).toBe(addressKey('203.0.113.9'));
    expect(addressKey('203.0.113.9')).not.toBe(addressKey('203.0.113.10'));
    expect(addressKey('203.0.113.9')).not.toContain('203');
  });
});
