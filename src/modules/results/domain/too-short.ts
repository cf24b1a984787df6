export interface TooShortInput {
  mode: string;
  mode2: string;
  testDuration: number;
  bailedOut: boolean;
  customText?: { limit: { mode: string; value: number } };
}

/**
 * Spec results rule 1 (460), with the original platform's thresholds (domain facts §1.2 step 4): timed tests need
 * 15 s, word tests 10 words; infinite and abandoned tests need 15 s of typing; quotes are never too short.
 */
export function isTestTooShort(result: TooShortInput): boolean {
  const bailedShort = result.bailedOut && result.testDuration < 15;
  switch (result.mode) {
    case 'time': {
      const seconds = parseInt(result.mode2, 10);
      return (seconds > 0 && seconds < 15) || (seconds === 0 && result.testDuration < 15) || bailedShort;
    }
    case 'words': {
      const words = parseInt(result.mode2, 10);
      return (words > 0 && words < 10) || (words === 0 && result.testDuration < 15) || bailedShort;
    }
    case 'custom': {
      const limit = result.customText?.limit;
      if (!limit) return true;
      if ((limit.mode === 'word' || limit.mode === 'section') && limit.value < 10) return true;
      if (limit.mode === 'time' && limit.value < 15) return true;
      return bailedShort;
    }
    case 'zen':
      return result.testDuration < 15;
    default:
      return false;
  }
}
