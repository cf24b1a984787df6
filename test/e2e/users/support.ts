import { ApeKeyAuthenticator, formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import type { TestApp } from '../../support/test-app';

/** An ApeKey header the test verifier below accepts for `uid`. */
export function apeKeyFor(uid: string): string {
  return `ApeKey ${formatApeKey(`k_${uid}`, 'S'.repeat(32))}`;
}

/** A key with a structure that passes parsing; refused by the route before any lookup where keys are not accepted. */
export const ANY_APE_KEY = `ApeKey ${formatApeKey('abcdef0123456789', 'S'.repeat(32))}`;

/**
 * Plugs a verifier into the foundation's ApeKey hook (the ApeKey feature registers the real one), so the tests can
 * prove which user routes accept keys: `k_<uid>` with the fixed secret is a valid, enabled key of `<uid>`.
 */
export function acceptTestApeKeys(t: TestApp): void {
  t.app.get(ApeKeyAuthenticator).register({
    verify: (key) =>
      Promise.resolve(
        key.keyId.startsWith('k_') && key.secret === 'S'.repeat(32)
          ? { status: 'valid', uid: key.keyId.slice(2), keyId: key.keyId }
          : { status: 'not-found' },
      ),
  });
}

/** A Bearer token whose sign-in is older than the 60 s a fresh-token route allows. */
export function staleBearer(t: TestApp, uid: string): Promise<string> {
  return t.bearer(uid, { authTime: t.clock.now() - 5 * 60_000 });
}

export const DAY_MS = 86_400_000;

export interface PbOverrides {
  mode?: string;
  mode2?: string;
  language?: string;
  punctuation?: boolean;
  wpm?: number;
  timestamp?: number;
}

/** A personal-best row as result submission would write it. */
export async function insertPersonalBest(t: TestApp, uid: string, pb: PbOverrides = {}): Promise<void> {
  await t.db
    .insertInto('personal_bests')
    .values({
      uid,
      mode: pb.mode ?? 'time',
      mode2: pb.mode2 ?? '15',
      language: pb.language ?? 'english',
      difficulty: 'normal',
      punctuation: pb.punctuation ?? false,
      numbers: false,
      lazy_mode: false,
      wpm: pb.wpm ?? 100,
      acc: 98,
      raw: (pb.wpm ?? 100) + 3,
      consistency: 80,
      timestamp: pb.timestamp ?? 1_700_000_000_000,
    })
    .execute();
}

/** Completed tests of one UTC day (days since the epoch), as result submission counts them. */
export async function insertActivity(t: TestApp, uid: string, day: number, tests: number): Promise<void> {
  await t.db.insertInto('test_activity').values({ uid, day, tests }).execute();
}
