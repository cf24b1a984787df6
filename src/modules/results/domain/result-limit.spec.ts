import { effectiveResultLimit, maxResultLimit } from './result-limit';

describe('effectiveResultLimit', () => {
  it.each<
    [string, { limit?: number; offset: number; maxLimit: number; maxBatchSize: number }, number | 'refused']
  >([
    ['no limit: min(maxBatchSize, maxLimit)', { offset: 0, maxLimit: 1000, maxBatchSize: 1000 }, 1000],
    ['no limit, smaller batch size', { offset: 0, maxLimit: 1000, maxBatchSize: 200 }, 200],
    ['no limit, smaller maxLimit', { offset: 0, maxLimit: 100, maxBatchSize: 1000 }, 100],
    ['no limit cut at maxLimit', { offset: 990, maxLimit: 1000, maxBatchSize: 1000 }, 10],
    ['within the cap', { limit: 50, offset: 100, maxLimit: 1000, maxBatchSize: 1000 }, 50],
    ['exactly up to the cap', { limit: 10, offset: 990, maxLimit: 1000, maxBatchSize: 1000 }, 10],
    ['cut: limit 20, offset 990', { limit: 20, offset: 990, maxLimit: 1000, maxBatchSize: 1000 }, 10],
    ['offset maxLimit - 1', { limit: 50, offset: 999, maxLimit: 1000, maxBatchSize: 1000 }, 1],
    ['offset = maxLimit', { limit: 1, offset: 1000, maxLimit: 1000, maxBatchSize: 1000 }, 'refused'],
    ['offset beyond maxLimit', { offset: 5000, maxLimit: 1000, maxBatchSize: 1000 }, 'refused'],
    ['premium cap', { limit: 1000, offset: 9500, maxLimit: 10000, maxBatchSize: 1000 }, 500],
    ['maxLimit 0 refuses everything', { offset: 0, maxLimit: 0, maxBatchSize: 1000 }, 'refused'],
  ])('%s', (_label, input, expected) => {
    const outcome = effectiveResultLimit(input);
    if (expected === 'refused') expect(outcome).toEqual({ ok: false, maxLimit: input.maxLimit });
    else expect(outcome).toEqual({ ok: true, limit: expected });
  });
});

describe('maxResultLimit', () => {
  const limits = { regularUser: 1000, premiumUser: 10000 };
  it.each([
    [true, true, 10000],
    [true, false, 1000],
    [false, true, 1000],
    [false, false, 1000],
  ])('premium enabled %p, premium user %p → %p', (enabled, premium, expected) => {
    expect(maxResultLimit(limits, enabled, premium)).toBe(expected);
  });
});
