import { isValidUid, UID_MAX_LENGTH } from './uid';

describe('isValidUid', () => {
  it.each([
    ['a Firebase uid', 'x5Yb1kBqZ3S0pQa9rTfGw2mN7cLd'],
    ['a Keycloak UUID', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6'],
    ['an Auth0 subject', 'auth0|5f7c8ec7c33c6c004bbafe82'],
    ['a Google subject', 'google-oauth2|104293847561234567890'],
    ['an email-like subject', 'user.name+tag@example.org'],
    ['non-ASCII letters', 'benutzer-ü-日本'],
    ['255 characters', 'a'.repeat(UID_MAX_LENGTH)],
  ])('accepts %s', (_label, uid) => {
    expect(isValidUid(uid)).toBe(true);
  });

  it.each([
    ['the empty string', ''],
    ['256 characters', 'a'.repeat(UID_MAX_LENGTH + 1)],
    // Control characters would forge log lines and Redis key parts.
    ['a line feed', 'auth0|x\nlevel=error msg=forged'],
    ['a carriage return', 'a\rb'],
    ['a NUL', 'a\u0000b'],
    ['a DEL', 'a\u007fb'],
  ])('refuses %s', (_label, uid) => {
    expect(isValidUid(uid)).toBe(false);
  });
});
