import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import { isValidUid } from '../common/auth/uid';
import type { Permission } from '../common/auth/policy.decorators';
import { ID_PATTERN } from '../common/ids';
import { userNameProblem } from '../modules/users/user-name';

/** Argument parsers: they run while commander parses, so a bad argument fails before any store is touched. */

export function uid(value: string): string {
  // Accounts come from identity providers: Firebase uids, or any OIDC subject (`auth0|…`, UUIDs) up to 255 characters.
  if (!isValidUid(value)) throw new InvalidArgumentError('not a uid');
  return value;
}

/** An account name as the users feature allows it (1-16 of letters, digits, `_`, `-`, `.`). */
export function userName(value: string): string {
  const problem = userNameProblem(value);
  if (problem !== null) throw new InvalidArgumentError(`not a valid name: ${problem}`);
  return value;
}

/** An account named by uid or by name (names are uids' characters too). */
export function uidOrName(value: string): string {
  if (!isValidUid(value)) throw new InvalidArgumentError('not a uid or name');
  return value;
}

/** A file to read: it must exist and be a file. Returns it resolved. */
export function existingFile(value: string): string {
  const path = resolve(value);
  if (kindOf(path) === 'missing') throw new InvalidArgumentError(`${value} does not exist`);
  if (kindOf(path) !== 'file') throw new InvalidArgumentError(`${value} is not a file`);
  return path;
}

/** A directory to read: it must exist and be a directory. Returns it resolved. */
export function directory(value: string): string {
  const path = resolve(value);
  if (kindOf(path) === 'missing') throw new InvalidArgumentError(`${value} does not exist`);
  if (kindOf(path) !== 'directory') throw new InvalidArgumentError(`${value} is not a directory`);
  return path;
}

function kindOf(path: string): 'file' | 'directory' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/**
 * A file a command will create or replace: its directory must exist and the path must not be a directory, so a
 * mistake is a usage error before anything connects (and before an export runs for nothing). Returns it resolved.
 */
export function outputFile(value: string): string {
  const path = resolve(value);
  if (value === '' || kindOf(path) === 'directory') throw new InvalidArgumentError(`${value} is a directory`);
  if (kindOf(dirname(path)) !== 'directory')
    throw new InvalidArgumentError(`the directory of ${value} does not exist`);
  return path;
}

export function entityId(value: string): string {
  if (!ID_PATTERN.test(value)) throw new InvalidArgumentError('not an id');
  return value;
}

/** A whole number from `min` up. */
export function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < min) {
      throw new InvalidArgumentError(`expected a whole number of at least ${min}`);
    }
    return Number(value);
  };
}

export function permission(value: string): Permission {
  if (value !== 'admin' && value !== 'quoteMod')
    throw new InvalidArgumentError(`unknown permission "${value}" (admin or quoteMod)`);
  return value;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
export const LIFETIME = -1;

/** An ISO date (`2027-01-31`, midnight UTC) or date-time with a zone, as milliseconds. */
export function isoDate(value: string): number {
  const match = ISO_DATE.exec(value);
  const day = match ? `${match[1]}-${match[2]}-${match[3]}` : '';
  const ms = match ? Date.parse(value) : NaN;
  // Date.parse rolls 2027-02-30 over to March: only a day that round-trips is real.
  if (Number.isNaN(ms) || !new Date(day).toISOString().startsWith(day)) {
    throw new InvalidArgumentError(
      'expected an ISO date (2027-01-31) or a date-time with a zone (2027-01-31T18:00:00Z)',
    );
  }
  return ms;
}

/**
 * `premium set` expiry: `never`/`lifetime` (-1), or an ISO date (`2027-01-31`, midnight UTC) or date-time with a zone
 * (`2027-01-31T18:00:00Z`), in the future. Plain numbers are refused: `12` must not become a 1970 date.
 */
export function premiumExpiry(now: () => number = Date.now): (value: string) => number {
  return (value) => {
    if (value === 'never' || value === 'lifetime') return LIFETIME;
    let ms: number;
    try {
      ms = isoDate(value);
    } catch {
      throw new InvalidArgumentError(
        'expected an ISO date (2027-01-31), a date-time with a zone (2027-01-31T18:00:00Z), never or lifetime',
      );
    }
    if (ms <= now()) throw new InvalidArgumentError(`${new Date(ms).toISOString()} is in the past`);
    return ms;
  };
}

/** Another instance's public key as `GET /configuration/instance` gives it: raw Ed25519, base64url (43 characters). */
export function publicKey(value: string): string {
  if (!/^[A-Za-z0-9_-]{43}$/.test(value))
    throw new InvalidArgumentError(
      'not an Ed25519 public key (the base64url text GET /configuration/instance gives)',
    );
  return value;
}

/** An instance id (`INSTANCE_ID`, or the one an instance made for itself). */
export function instanceId(value: string): string {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(value))
    throw new InvalidArgumentError('not an instance id (1-64 letters, digits, dots, underscores or hyphens)');
  return value;
}
