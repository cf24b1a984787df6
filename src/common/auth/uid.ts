import { applyDecorators } from '@nestjs/common';
import { IsString, Length, Matches } from 'class-validator';

/**
 * A user id is whatever the identity provider's `sub` claim says: Firebase uids are 28 alphanumerics, but a standard
 * OIDC issuer may use UUIDs (Keycloak), `auth0|…` (Auth0) or any other string up to 255 characters (OpenID Connect
 * Core 1.0 §2). So uids are never checked against the entity-id pattern — only for length and for control
 * characters (which would end up in logs and keys).
 */
export const UID_MAX_LENGTH = 255;

// eslint-disable-next-line no-control-regex
const UID_PATTERN = /^[^\u0000-\u001f\u007f]+$/;

export function isValidUid(value: string): boolean {
  return value.length >= 1 && value.length <= UID_MAX_LENGTH && UID_PATTERN.test(value);
}

/** A uid in a path, query or body (1-255 printable characters). */
export const IsUid = () =>
  applyDecorators(
    IsString(),
    Length(1, UID_MAX_LENGTH, { message: `must be a valid uid (1-${UID_MAX_LENGTH} characters)` }),
    Matches(UID_PATTERN, { message: 'must be a valid uid' }),
  );
