/**
 * A dependency the service cannot start without, named by the variable an operator has to fix, where it points
 * (without credentials) and what is wrong with it: `REDIS_PASSWORD (rediss://cache:6380) was refused: WRONGPASS ...`.
 */
export class DependencyError extends Error {
  constructor(
    readonly variable: string,
    readonly target: string,
    readonly reason: unknown,
    /** A phrase after the variable: "is unreachable", "was refused", "is unreadable", ... */
    readonly problem = 'is unreachable',
  ) {
    super(`${variable} (${target}) ${problem}: ${reason instanceof Error ? reason.message : String(reason)}`);
  }
}
