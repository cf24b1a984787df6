import { HOUR, MINUTE, type RateLimitClass } from './time';

/** Configs, presets, quotes and the release webhook (the original platform's classes; config updates per spec). */
export const CONTENT_LIMITS = {
  configGet: { windowMs: HOUR, max: 120 },
  // Spec "Limits": config updates 120 per hour.
  configUpdate: { windowMs: HOUR, max: 120 },
  configDelete: { windowMs: HOUR, max: 120 },
  presetsGet: { windowMs: HOUR, max: 60 },
  presetsAdd: { windowMs: HOUR, max: 60 },
  presetsEdit: { windowMs: HOUR, max: 60 },
  presetsRemove: { windowMs: HOUR, max: 60 },
  newQuotesGet: { windowMs: HOUR, max: 500 },
  newQuotesAdd: { windowMs: HOUR, max: 60 },
  newQuotesAction: { windowMs: HOUR, max: 500 },
  newQuotesIsSubmissionEnabled: { windowMs: MINUTE, max: 60 },
  quoteRatingsGet: { windowMs: HOUR, max: 500 },
  quoteRatingsSubmit: { windowMs: HOUR, max: 500 },
  quoteReportSubmit: { windowMs: 30 * MINUTE, max: 50 },
  // Per source IP; generous enough for a burst of redeliveries from the code host.
  webhookGithubRelease: { windowMs: MINUTE, max: 60 },
} satisfies Record<string, RateLimitClass>;
