export interface ResultLimitInput {
  /** `limit` of the request, if given. */
  limit?: number;
  offset: number;
  maxLimit: number;
  maxBatchSize: number;
}

export type ResultLimit = { ok: true; limit: number } | { ok: false; maxLimit: number };

/**
 * Spec results rule 3: without `limit` it is `min(maxBatchSize, maxLimit)`; a page reaching past `maxLimit` is cut at
 * it; an offset at or beyond `maxLimit` is refused (422).
 */
export function effectiveResultLimit({
  limit,
  offset,
  maxLimit,
  maxBatchSize,
}: ResultLimitInput): ResultLimit {
  if (offset >= maxLimit) return { ok: false, maxLimit };
  const requested = limit ?? Math.min(maxBatchSize, maxLimit);
  return { ok: true, limit: requested + offset > maxLimit ? maxLimit - offset : requested };
}

/** Spec results rule 2 with premium rule 1: the premium cap needs premium enabled server-wide and a premium user. */
export function maxResultLimit(
  limits: { regularUser: number; premiumUser: number },
  premiumEnabled: boolean,
  userIsPremium: boolean,
): number {
  return premiumEnabled && userIsPremium ? limits.premiumUser : limits.regularUser;
}
