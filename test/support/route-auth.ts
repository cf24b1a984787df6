import { formatApeKey } from '../../src/common/auth/ape-key-authenticator';
import type { TestApp } from './test-app';

let ipCounter = 0;

/** A fresh client address, so refusals in one test never add up to a bad-authentication ban in another. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** A well-formed ApeKey header (the key need not exist: Bearer-only routes refuse the scheme itself). */
export const someApeKey = (): string => `ApeKey ${formatApeKey('abcdef0123456789abcdef01', 'S'.repeat(32))}`;

/**
 * Asserts that a Bearer-only route refuses callers without a usable identity: no header, a garbage token, an ApeKey,
 * and a valid token of a user who does not exist in the service.
 */
export async function expectBearerOnly(
  t: TestApp,
  method: string,
  url: string,
  body?: unknown,
): Promise<void> {
  const cases: [string | undefined, number, string][] = [
    [undefined, 401, 'Unauthorized'],
    ['Bearer not.a.jwt', 401, 'Unauthorized'],
    [someApeKey(), 401, 'This endpoint does not accept ApeKeys'],
    [await t.bearer('uidThatWasNeverSignedUp'), 404, 'User not found'],
  ];
  for (const [auth, status, message] of cases) {
    const res = await t.request(method, url, { auth, body, ip: freshIp() });
    expect({ auth, status: res.status, body: res.body }).toEqual({
      auth,
      status,
      body: { message, data: null },
    });
  }
}
