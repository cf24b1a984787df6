import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import { holdReasons } from './review-ceiling';

const review = () => structuredClone(defaultServerConfiguration().results.antiCheat.review);

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
    expect(holdReasons({ mode, wpm }, review()).length > 0).toBe(held);
  });

  it('names the check and the figures', () => {
    expect(holdReasons({ mode: 'time', wpm: 290 }, review())).toEqual([
      { check: 'ceiling', figures: { mode: 'time', wpm: 290, ceiling: 250 } },
    ]);
  });

  it('holds nothing when switched off, and follows a configured ceiling', () => {
    const config = review();
    config.ceilings.time = 300;
    expect(holdReasons({ mode: 'time', wpm: 290 }, config)).toEqual([]);
    config.enabled = false;
    config.ceilings.time = 10;
    expect(holdReasons({ mode: 'time', wpm: 290 }, config)).toEqual([]);
  });
});
