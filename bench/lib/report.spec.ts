import type { ScenarioRow } from '../scenarios/context';
import { evaluateTargets, importTarget } from './report';

function importRow(resultsPerSecond: number, peakRssMb: number): ScenarioRow {
  return {
    id: '9',
    scenario: "import of the original's dump",
    server: 'ours',
    result: null,
    seconds: 60,
    importFigures: { resultsPerSecond, peakRssMb },
  };
}

describe('scenario 9 target', () => {
  it('is met at 20,000 results/s or more within 300 MB', () => {
    const line = importTarget([importRow(24_510.4, 190.2)]);
    expect(line.verdict).toBe('met');
    expect(line.figures).toBe('24,510 results/s, peak RSS 190 MB');
  });

  it('is not met below the rate or above the memory ceiling', () => {
    expect(importTarget([importRow(19_999, 190)]).verdict).toBe('NOT MET');
    expect(importTarget([importRow(30_000, 301)]).verdict).toBe('NOT MET');
  });

  it('is not available when the scenario did not run, and is part of the full report', () => {
    expect(importTarget([])).toMatchObject({ verdict: 'not available', figures: 'not run' });
    const targets = evaluateTargets([importRow(25_000, 200)], 32);
    expect(targets.find((t) => t.target.startsWith('Scenario 9'))?.verdict).toBe('met');
  });
});
