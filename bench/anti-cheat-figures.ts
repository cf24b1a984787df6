import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultServerConfiguration } from '../src/config/server-configuration.schema';
import type { CheckedResult } from '../src/modules/results/domain/anti-cheat/checked-result';
import { unchartedAllowance } from '../src/modules/results/domain/anti-cheat/consistency-checks';
import { findBotTiming } from '../src/modules/results/domain/anti-cheat/bot-checks';
import { judgeConsistency } from '../src/modules/results/domain/anti-cheat/consistency';
import { resultFigures } from '../src/modules/results/domain/anti-cheat/result-figures';
import { timingProfile } from '../src/modules/results/domain/anti-cheat/timing-profile';

/**
 * The consistency figures of result bodies, one row per body, then the smallest and largest value of each figure:
 * the measurements the anti-cheat tolerances come from (`npm run anti-cheat:figures [dir]`, default the original
 * client's genuine results in test/fixtures/original-client-results).
 */
export type FigureRow = Record<string, number | string>;

export function figureRow(result: CheckedResult): FigureRow {
  const f = resultFigures(result);
  const row: FigureRow = {
    mode: `${result.mode} ${result.mode2}`,
    seconds: result.testDuration,
    wpm: result.wpm,
  };
  if (f.chars) {
    row['wpm − chars×12/s'] = result.wpm - f.chars.wpm;
    row['raw − total×12/s'] = result.rawWpm - f.chars.raw;
    row['wpm dev %'] = (100 * Math.abs(result.wpm - f.chars.wpm)) / f.chars.wpm;
  }
  if (f.keys && f.chars) {
    row['presses / charTotal'] = f.keys.presses / f.chars.total;
    row['durations − presses'] = f.keys.durations - f.keys.presses;
  }
  if (f.timelineMs !== null) {
    row['timeline − duration ms'] = f.timelineMs - result.testDuration * 1000;
    row['timeline dev %'] =
      (100 * Math.abs(f.timelineMs - result.testDuration * 1000)) / (result.testDuration * 1000);
  }
  if (f.chart) {
    const allowance = unchartedAllowance(result.rawWpm, f.chart.unchartedSeconds);
    row['points − seconds'] = f.chart.points - result.testDuration;
    row['uncharted s'] = f.chart.unchartedSeconds;
    if (f.chars) {
      row['last point chars − correct'] = (f.chart.lastWpm * f.chart.chartedSeconds) / 12 - f.chars.correct;
      row['inserts + allowance − charTotal'] = f.chart.inserts + allowance - f.chars.total;
    }
    if (f.keys) row['presses − inserts'] = f.keys.presses - f.chart.inserts;
    const all = f.chart.inserts + allowance;
    row['acc − chart acc (all charted)'] =
      result.acc - (100 * (f.chart.inserts - f.chart.errors)) / f.chart.inserts;
    row['acc in chart range'] =
      result.acc >= (100 * (f.chart.inserts - f.chart.errors)) / all &&
      result.acc <= (100 * (all - f.chart.errors)) / all
        ? 'yes'
        : 'no';
    row['consistency dev'] = result.consistency - f.chart.consistency;
    if (result.wpmConsistency !== undefined)
      row['wpmConsistency dev'] = result.wpmConsistency - f.chart.wpmConsistency;
    if (result.keyConsistency !== undefined && f.keys) {
      row['keyConsistency dev'] = result.keyConsistency - f.keys.keyConsistency;
    }
  }
  for (const array of ['keySpacing', 'keyDuration'] as const) {
    const values = result[array];
    if (!Array.isArray(values)) continue;
    const p = timingProfile(values);
    const name = array === 'keySpacing' ? 'spacing' : 'duration';
    row[`${name} cv`] = p.cv;
    row[`${name} distinct`] = p.distinct;
    row[`${name} distinct %`] = (100 * p.distinct) / Math.max(1, p.count - p.zeros);
    row[`${name} repeated %`] = p.repeatedShare * 100;
    row[`${name} autocorrelation`] = p.autocorrelation;
  }
  const config = defaultServerConfiguration().results.antiCheat;
  const finding =
    judgeConsistency(result, config)[0] ??
    (Array.isArray(result.keySpacing) && Array.isArray(result.keyDuration)
      ? findBotTiming(result.keySpacing, result.keyDuration, config.bot)
      : null);
  row.verdict = finding ? `${finding.status} ${finding.check}` : 'pass';
  return row;
}

/** Smallest and largest value of every numeric figure over the rows. */
export function figureRange(rows: FigureRow[]): Record<string, { min: number; max: number }> {
  const range: Record<string, { min: number; max: number }> = {};
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) {
      if (typeof value !== 'number') continue;
      const r = (range[key] ??= { min: value, max: value });
      r.min = Math.min(r.min, value);
      r.max = Math.max(r.max, value);
    }
  }
  return range;
}

const show = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(Math.abs(n) < 10 ? 4 : 2));

if (require.main === module) {
  const dir = process.argv[2] ?? join(process.cwd(), 'test', 'fixtures', 'original-client-results');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'responses.json');
  const rows = files.map((file): FigureRow => {
    const body = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { result: CheckedResult };
    return { file, ...figureRow(body.result) };
  });
  for (const row of rows) {
    console.log(
      Object.entries(row)
        .map(([k, v]) => `${k}=${typeof v === 'number' ? show(v) : v}`)
        .join('  '),
    );
  }
  console.log(`\n${rows.length} bodies; per figure: min / max`);
  for (const [key, { min, max }] of Object.entries(figureRange(rows))) {
    console.log(`${key.padEnd(34)} ${show(min).padStart(10)} ${show(max).padStart(10)}`);
  }
  const verdicts = rows.map((row) => row.verdict);
  console.log(`\nverdicts: ${verdicts.filter((v) => v === 'pass').length}/${rows.length} pass`);
}
