import { averageRating } from './quote-ratings.service';

describe('averageRating', () => {
  it.each([
    [0, 0, 0],
    [5, 1, 5],
    [9, 2, 4.5],
    [10, 3, 3.3],
    [11, 3, 3.7],
    [7, 6, 1.2],
  ])('total %d over %d ratings is %d', (total, ratings, average) => {
    expect(averageRating(total, ratings)).toBe(average);
  });
});
