/**
 * The one error type services throw. `status` and `message` go to the client as-is; `details` are logged only.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** Validation failures carry the list of problems the client gets in `validationErrors`. */
export class ValidationFailed extends AppError {
  constructor(
    status: 400 | 422,
    message: string,
    readonly validationErrors: string[],
  ) {
    super(status, message);
    this.name = 'ValidationFailed';
  }
}

export const MESSAGES = {
  invalidBody: 'Invalid request data schema',
  invalidParameters: 'Invalid request parameters',
  internal: 'Internal server error',
  unauthorized: 'Unauthorized',
  tokenExpired: 'Token expired - please login again',
  tokenRevoked: 'Token revoked - please login again',
  freshTokenRequired: 'This endpoint requires a fresh token',
  userNotFound: 'User not found',
  apeKeyNotAccepted: 'This endpoint does not accept ApeKeys',
  apeKeyNotFound: 'ApeKey not found',
  apeKeyDisabled: 'ApeKey is disabled',
  apeKeyMalformed: 'ApeKey structure is invalid',
  apeKeysOff: 'ApeKeys are not being accepted at this time',
  rateLimited: 'Request limit reached, please try again later.',
  badAuthBanned: 'Too many bad authentication attempts',
  noPermission: "You don't have permission to do this.",
  apeKeyAccessLost: 'You have lost access to ape keys, please contact support',
  premiumDisabled: 'Premium features are disabled',
  notPremium: 'User does not have premium',
  maintenance: 'Server is down for maintenance',
  endpointUnavailable: 'This endpoint is currently unavailable.',
} as const;
