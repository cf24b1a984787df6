import type { ScenarioRow } from '../scenarios/context';
import { evaluateTargets, importTarget, sequentialTargets } from './report';

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

function cpuRow(server: 'ours' | 'baseline', cpuMsPerRequest: number | null): ScenarioRow {
  return {
    id: '11-root',
    scenario: 'GET / one at a time',
    server,
    result: {
      requests: 3000,
      requestsPerSecond: 1000,
      p50: 1,
      p99: 2,
      errors: 0,
      statuses: { '200': 3000 },
      errorSamples: {},
      rssMb: 150,
      cpuMsPerRequest,
      postgresCpuMsPerRequest: null,
    },
  };
}

describe('scenario 11 target: GET / one at a time within 2x the floor', () => {
  it('compares the server CPU per request of ours with the baseline', () => {
    expect(sequentialTargets([cpuRow('ours', 0.5), cpuRow('baseline', 0.3)])).toEqual([
      {
        target: "Scenario 11: GET / one at a time costs at most 2x the baseline's server CPU",
        verdict: 'met',
        figures: '0.500 vs 0.300 ms per request: 1.67x',
      },
    ]);
    expect(sequentialTargets([cpuRow('ours', 0.7), cpuRow('baseline', 0.3)])[0]?.verdict).toBe('NOT MET');
  });

  it('is not available without both figures', () => {
    expect(sequentialTargets([cpuRow('ours', 0.5)])[0]?.verdict).toBe('not available');
    expect(sequentialTargets([cpuRow('ours', 0.5), cpuRow('baseline', null)])[0]?.verdict).toBe(
      'not available',
    );
  });
});
