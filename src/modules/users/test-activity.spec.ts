import { currentTestActivity, DAY_MS, testActivityByYear, utcDay } from './test-activity';

const day = (iso: string) => utcDay(Date.parse(`${iso}T00:00:00Z`));

describe('utcDay', () => {
  it('counts UTC calendar days from the epoch', () => {
    expect(utcDay(0)).toBe(0);
    expect(utcDay(DAY_MS - 1)).toBe(0);
    expect(utcDay(Date.parse('2024-04-03T23:59:59Z'))).toBe(day('2024-04-03'));
  });
});

describe('currentTestActivity', () => {
  const now = Date.parse('2025-01-03T15:00:00Z');

  it('covers 372 days ending today, across the new year', () => {
    const result = currentTestActivity(
      [
        { day: day('2025-01-03'), tests: 4 },
        { day: day('2024-12-31'), tests: 2 },
        { day: day('2023-12-29'), tests: 9 }, // the first day of the window (2024 has 366 days)
        { day: day('2023-12-28'), tests: 7 }, // one day too old
      ],
      now,
    );
    expect(result.testsByDays).toHaveLength(372);
    expect(result.lastDay).toBe(Date.parse('2025-01-03T00:00:00Z'));
    expect(result.testsByDays[371]).toBe(4);
    expect(result.testsByDays[368]).toBe(2);
    expect(result.testsByDays[0]).toBe(9);
    expect(result.testsByDays.reduce((a, b) => a + b, 0)).toBe(15);
  });

  it('is all zeros without activity', () => {
    const result = currentTestActivity([], now);
    expect(result.testsByDays.every((n) => n === 0)).toBe(true);
  });

  it('ignores days in the future', () => {
    const result = currentTestActivity([{ day: day('2025-01-04'), tests: 1 }], now);
    expect(result.testsByDays.every((n) => n === 0)).toBe(true);
  });
});

describe('testActivityByYear', () => {
  it('puts 2024-04-03 at index 93 of 2024 with zeros before it', () => {
    const years = testActivityByYear([{ day: day('2024-04-03'), tests: 1 }]);
    expect(Object.keys(years)).toEqual(['2024']);
    expect(years['2024']).toHaveLength(94);
    expect(years['2024']?.[93]).toBe(1);
    expect(years['2024']?.slice(0, 93).every((n) => n === 0)).toBe(true);
  });

  it('splits by year and handles the leap day and Dec 31 of a leap year', () => {
    const years = testActivityByYear([
      { day: day('2024-12-31'), tests: 3 },
      { day: day('2024-02-29'), tests: 2 },
      { day: day('2025-01-01'), tests: 5 },
    ]);
    expect(years['2024']).toHaveLength(366);
    expect(years['2024']?.[59]).toBe(2);
    expect(years['2024']?.[365]).toBe(3);
    expect(years['2025']).toEqual([5]);
  });
});
