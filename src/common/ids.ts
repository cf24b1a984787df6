import { randomBytes } from 'node:crypto';

/**
 * Entity ids: 24 lower-case hex characters, the shape of the original platform's ids, so its clients' id checks
 * (`^[a-zA-Z0-9_]+$`) keep passing. Mail ids are UUIDs instead (spec).
 */
export function newId(): string {
  return randomBytes(12).toString('hex');
}

/** What an id in a path or body may look like; anything else is a validation error, an unknown id a 404. */
export const ID_PATTERN = /^[a-zA-Z0-9_]{1,64}$/;
