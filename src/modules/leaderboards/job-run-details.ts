/**
 * A finished period's record (`leaderboard_job_runs.details`) lists the standings it announced, entries with a `uid`.
 * When an account is deleted its entries go (erasure, issue 22); the others keep their ranks as announced.
 */
export function withoutUser(value: unknown, uid: string): unknown {
  if (Array.isArray(value)) {
    return value
      .filter(
        (item) => !(typeof item === 'object' && item !== null && (item as { uid?: unknown }).uid === uid),
      )
      .map((item) => withoutUser(item, uid));
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutUser(item, uid)]));
  }
  return value;
}
