import { DAY, HOUR, type RateLimitClass } from './time';

export const RESULTS_LIMITS = {
  // Spec "Limits": result submission 500 per day.
  resultsAdd: { windowMs: DAY, max: 500 },
  // Spec: the ApeKey class of an endpoint is typically higher than its Bearer class.
  resultsGet: { windowMs: HOUR, max: 60 },
  resultsGetApe: { windowMs: HOUR, max: 120 },
  resultByIdGet: { windowMs: HOUR, max: 300 },
  resultByIdGetApe: { windowMs: HOUR, max: 600 },
  resultsDeleteAll: { windowMs: HOUR, max: 10 },
  resultsTagsUpdate: { windowMs: HOUR, max: 100 },
} satisfies Record<string, RateLimitClass>;
