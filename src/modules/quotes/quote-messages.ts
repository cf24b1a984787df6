/** The original platform's texts for quote routes (contract facts §10.4, U36). */
export const QUOTE_MESSAGES = {
  submissionsDisabled:
    'Quote submission is disabled temporarily. The queue is quite long and we need some time to catch up.',
  reportingDisabled: 'Quote reporting is unavailable.',
  captchaFailed: 'Captcha check failed',
  queueFull: (max: number) => `There are already ${max} quotes in the queue for this language.`,
  notFound: 'Quote not found. It might have already been reviewed. Please refresh the list.',
  duplicate: 'Duplicate quote',
  backlogFull:
    'Reports are not being accepted at this time due to a large backlog of reports. Please try again later.',
  contentLimit: 'A report limit for this content has been reached.',
  alreadyReported: 'You have already reported this content.',
} as const;
