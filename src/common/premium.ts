/**
 * Spec "Rules for premium" rule 2: absent → not premium; -1 → lifetime; otherwise premium while the expiry (ms) is in
 * the future. Rule 1 (the server-wide switch) is the caller's concern.
 */
export function hasPremium(expiresAt: number | null | undefined, now: number): boolean {
  if (expiresAt === null || expiresAt === undefined) return false;
  if (expiresAt === -1) return true;
  return expiresAt > now;
}
