import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import { holdReasons, missingMeasurements } from './review-ceiling';

const antiCheat = () => structuredClone(defaultServerConfiguration().results.antiCheat);

// Every measurement present, as the client sends them (values do not matter to the hold).
const measured = {
  charStats: [100, 2, 1, 0],
  charTotal: 103,
  chartData: { wpm: [80], burst: [80], err: [0] },
  keySpacing: [120, 95],
  keyDuration: [90, 85, 100],
};

describe('review ceiling', () => {
  it.each([
    ['time', 250, false],
    ['time', 250.01, true],
    ['words', 251, true],
    ['quote', 221, true],
    ['quote', 219, false],
    ['zen', 260, true],
    ['custom', 240, false],
  ])('%s at %p wpm held: %p', (mode, wpm, held) => {
    expect(holdReasons({ ...measured, mode, wpm }, antiCheat()).length > 0).toBe(held);
  });

  it('names the check and the figures', () => {
    expect(holdReasons({ ...measured, mode: 'time', wpm: 290 }, antiCheat())).toEqual([
      { check: 'ceiling', figures: { mode: 'time', wpm: 290, ceiling: 250 } },
    ]);
  });

  it('holds nothing when switched off, and follows a configured ceiling', () => {
    const config = antiCheat();
    config.review.ceilings.time = 300;
    expect(holdReasons({ ...measured, mode: 'time', wpm: 290 }, config)).toEqual([]);
    config.review.enabled = false;
    config.review.ceilings.time = 10;
    expect(holdReasons({ mode: 'time', wpm: 290 }, config)).toEqual([]);
  });
});

describe('results without the measurements the checks need', () => {
  it('lists what is absent or empty; "toolong" is a value the client sends, not a gap', () => {
    expect(missingMeasurements(measured)).toEqual([]);
    expect(missingMeasurements({ ...measured, keySpacing: 'toolong', chartData: 'toolong' })).toEqual([]);
    expect(missingMeasurements({ ...measured, keySpacing: [], charTotal: undefined })).toEqual([
      'charTotal',
      'keySpacing',
    ]);
    expect(missingMeasurements({})).toEqual([
      'charStats',
      'charTotal',
      'chartData',
      'keySpacing',
      'keyDuration',
    ]);
  });

  it('holds a result that leaves them out (the spec requires none of them), beside a ceiling', () => {
    expect(holdReasons({ mode: 'time', wpm: 60 }, antiCheat())).toEqual([
      {
        check: 'measurements',
        figures: { missing: 'charStats,charTotal,chartData,keySpacing,keyDuration' },
      },
    ]);
    const { chartData: _chart, ...noChart } = measured;
    expect(holdReasons({ ...noChart, mode: 'zen', wpm: 300 }, antiCheat()).map((r) => r.check)).toEqual([
      'ceiling',
      'measurements',
    ]);
  });

  it('holds nothing for them with the measurements check or the review switched off', () => {
    const config = antiCheat();
    config.measurements.enabled = false;
    expect(holdReasons({ mode: 'time', wpm: 60 }, config)).toEqual([]);
    const noReview = antiCheat();
    noReview.review.enabled = false;
    expect(holdReasons({ mode: 'time', wpm: 60 }, noReview)).toEqual([]);
  });
});
