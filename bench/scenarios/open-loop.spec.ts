import type { LoadResult } from '../lib/load';
import type { ScenarioRow } from './context';
import { DEFAULT_OPEN_RATES, openRates } from './open-loop';

const row = (id: string, server: 'ours' | 'baseline', requestsPerSecond: number): ScenarioRow => ({
  id,
  scenario: id,
  server,
  result: { requestsPerSecond } as LoadResult,
});

describe('scenario 8 arrival rates', () => {
  it("takes half of the baseline's maximum for submissions and pages, half of ours for profiles", () => {
    const rates = openRates(
      [
        row('1', 'ours', 428),
        row('1', 'baseline', 857),
        row('2-1M', 'ours', 701),
        row('2-1M', 'baseline', 2277),
        row('4', 'ours', 518),
      ],
      undefined,
    );
    expect(rates.submit).toEqual({ rate: 429, source: "half of the baseline's 857/s in 1", oursMax: 428 });
    expect(rates.page).toEqual({ rate: 1139, source: "half of the baseline's 2277/s in 2-1M", oursMax: 701 });
    expect(rates.profile).toEqual({ rate: 259, source: "half of ours' 518/s in 4", oursMax: 518 });
  });

  it('falls back to the defaults, saying so, when the run measured nothing', () => {
    const rates = openRates([row('1', 'ours', 428)], undefined);
    expect(rates.submit).toEqual({
      rate: DEFAULT_OPEN_RATES.submit,
      source: 'default, 1 not measured in this run',
      oursMax: 428,
    });
    expect(rates.page.rate).toBe(DEFAULT_OPEN_RATES.page);
    expect(rates.profile.rate).toBe(DEFAULT_OPEN_RATES.profile);
  });

  it('uses --open-rate for every route when given', () => {
    const rates = openRates([row('1', 'baseline', 857)], 300);
    expect([rates.submit, rates.page, rates.profile].map((r) => [r.rate, r.source])).toEqual([
      [300, '--open-rate'],
      [300, '--open-rate'],
      [300, '--open-rate'],
    ]);
  });
});
