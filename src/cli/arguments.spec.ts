import { InvalidArgumentError } from 'commander';
import { permission, premiumExpiry, uid, userName } from './arguments';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const expiry = premiumExpiry(() => NOW);

describe('premium expiry argument', () => {
  it.each([
    ['never', -1],
    ['lifetime', -1],
    ['2027-01-31', Date.parse('2027-01-31T00:00:00Z')],
    ['2027-01-31T18:00:00Z', Date.parse('2027-01-31T18:00:00Z')],
    ['2027-01-31T18:00+02:00', Date.parse('2027-01-31T16:00:00Z')],
    ['2028-02-29', Date.parse('2028-02-29T00:00:00Z')],
  ])('reads %s', (value, expected) => {
    expect(expiry(value)).toBe(expected);
  });

  it.each([
    ['12'],
    ['1893456000000'],
    ['-1'],
    ['tomorrow'],
    ['2027-02-30'],
    ['2027-13-01'],
    ['2027-01-31T18:00:00'],
    ['2027-01-31T25:00Z'],
    ['31/01/2027'],
  ])('refuses %s', (value) => {
    expect(() => expiry(value)).toThrow(InvalidArgumentError);
  });

  it('refuses a date in the past, naming it', () => {
    expect(() => expiry('2026-11-24')).toThrow('2026-11-24T00:00:00.000Z is in the past');
  });
});

describe('uid and permission arguments', () => {
  it('accepts provider uids and refuses anything else', () => {
    expect(uid('aB3_x-9')).toBe('aB3_x-9');
    // OIDC subjects: Auth0's `provider|id`, Keycloak's UUIDs.
    expect(uid('auth0|5f7c8ec7c33c6c004bbafe82')).toBe('auth0|5f7c8ec7c33c6c004bbafe82');
    expect(uid('f81d4fae-7dec-11d0-a765-00a0c91e6bf6')).toBe('f81d4fae-7dec-11d0-a765-00a0c91e6bf6');
    for (const bad of ['', 'x'.repeat(256), 'a\tb', 'a\nb'])
      expect(() => uid(bad)).toThrow(InvalidArgumentError);
  });

  it('takes a name the users feature allows (import account --name)', () => {
    expect(userName('New.Name_2')).toBe('New.Name_2');
    expect(() => userName('x'.repeat(17))).toThrow('not a valid name: must be 1-16 characters long');
    expect(() => userName('.dot')).toThrow('not a valid name: cannot start with a dot');
    expect(() => userName('a b')).toThrow(InvalidArgumentError);
  });

  it('knows admin and quoteMod only', () => {
    expect(permission('admin')).toBe('admin');
    expect(permission('quoteMod')).toBe('quoteMod');
    expect(() => permission('root')).toThrow('unknown permission "root" (admin or quoteMod)');
  });
});
