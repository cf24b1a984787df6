/**
 * A label a handler gives its request for `result_submissions_total{outcome}` (the anti-cheat's check that refused or
 * held a result, e.g. `463:speed`, `held:ceiling`); the metrics hook reads it when the response is sent, in place of
 * the bare status. Kept beside the request, not on it: Fastify requests keep a fixed shape.
 */
const outcomes = new WeakMap<object, string>();

export function labelOutcome(request: object, outcome: string): void {
  outcomes.set(request, outcome);
}

export function outcomeOf(request: object): string | undefined {
  return outcomes.get(request);
}
