import { keyStats } from './key-stats';

describe('keyStats', () => {
  it.each<[number[] | 'toolong' | undefined, { average: number; sd: number } | null]>([
    [undefined, null],
    ['toolong', null],
    [[], null],
    [[100], { average: 100, sd: 0 }],
    [[2, 4, 4, 4, 5, 5, 7, 9], { average: 5, sd: 2 }],
    [[1, 2], { average: 1.5, sd: 0.5 }],
    [[1.005, 1.005], { average: 1.01, sd: 0 }],
    [[10, 20, 31], { average: 20.33, sd: 8.58 }],
  ])('%p → %p', (timings, expected) => {
    expect(keyStats(timings)).toEqual(expected);
  });
});
