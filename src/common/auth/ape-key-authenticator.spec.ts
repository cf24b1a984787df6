import { formatApeKey, parseApeKey } from './ape-key-authenticator';

describe('ApeKey structure', () => {
  const secret = 'A'.repeat(32);

  it('round-trips base64url("<keyId>.<secret>")', () => {
    const raw = formatApeKey('0123456789abcdef01234567', secret);
    expect(raw).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseApeKey(raw)).toEqual({ keyId: '0123456789abcdef01234567', secret, raw });
  });

  it.each([
    ['empty', ''],
    ['not base64url', '***'],
    ['no dot', Buffer.from('nodothere').toString('base64url')],
    ['empty id', Buffer.from(`.${secret}`).toString('base64url')],
    ['empty secret', Buffer.from('abc.').toString('base64url')],
    ['short secret', Buffer.from('abc.tooshort').toString('base64url')],
    ['spaces in the id', Buffer.from(`a b.${secret}`).toString('base64url')],
    ['an over-long header', 'A'.repeat(2000)],
  ])('rejects %s', (_label, raw) => {
    expect(parseApeKey(raw)).toBeNull();
  });
});
