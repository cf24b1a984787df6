export interface PbEligibilityInput {
  mode: string;
  acc: number;
  bailedOut: boolean;
  stopOnLetter: boolean;
  /** Every funbox used allows a personal best. */
  funboxesAllowPb: boolean;
}

/**
 * Whether a result may set a personal best at all (domain facts §1.4): never for quotes, abandoned tests, funboxes that
 * change the words, or stop-on-letter tests with mistakes.
 */
export function canSetPersonalBest(result: PbEligibilityInput): boolean {
  if (result.mode === 'quote' || result.bailedOut || !result.funboxesAllowPb) return false;
  return !(result.stopOnLetter && result.acc < 100);
}

/**
 * A result is a personal best when its bucket (mode, mode2, language, difficulty, punctuation, numbers, lazy mode)
 * has no record yet, or when it is strictly faster than the record: a tie is not a new best.
 */
export function isNewPersonalBest(recordWpm: number | null | undefined, wpm: number): boolean {
  return recordWpm === null || recordWpm === undefined || wpm > recordWpm;
}
