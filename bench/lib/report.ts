import type { ScenarioRow } from '../scenarios/context';

export type Verdict = 'met' | 'NOT MET' | 'not available';

export interface TargetLine {
  target: string;
  verdict: Verdict;
  figures: string;
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

function find(
  rows: ScenarioRow[],
  id: string,
  server: 'ours' | 'baseline' = 'ours',
): ScenarioRow | undefined {
  return rows.find((r) => r.id === id && r.server === server);
}

/** The results table, as Markdown (readable on a terminal and pasteable into the README). */
export function renderTable(rows: ScenarioRow[]): string {
  const lines = [
    '| # | scenario | server | requests/s | p50 ms | p99 ms | errors | max server RSS MB | server CPU ms/req | PostgreSQL CPU ms/req | note |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of rows) {
    const r = row.result;
    const cells = r
      ? [
          fmt(r.requestsPerSecond),
          fmt(r.p50),
          fmt(r.p99),
          fmt(r.errors),
          r.rssMb === null ? 'n/a' : fmt(r.rssMb),
          r.cpuMsPerRequest === null ? 'n/a' : fmt(r.cpuMsPerRequest, 2),
          r.postgresCpuMsPerRequest === null ? 'n/a' : fmt(r.postgresCpuMsPerRequest, 2),
        ]
      : ['—', '—', '—', '—', '—', '—', '—'];
    const extra = [
      row.seconds !== undefined ? `${row.seconds.toFixed(2)} s` : '',
      row.note ?? '',
      r && r.errors > 0
        ? `statuses ${JSON.stringify(r.statuses)}, e.g. ${JSON.stringify(r.errorSamples)}`
        : '',
    ]
      .filter(Boolean)
      .join('; ');
    lines.push(`| ${row.id} | ${row.scenario} | ${row.server} | ${cells.join(' | ')} | ${extra} |`);
  }
  return lines.join('\n');
}

function ratio(ours: ScenarioRow | undefined, baseline: ScenarioRow | undefined): number | null {
  if (!ours?.result || !baseline?.result || baseline.result.requestsPerSecond === 0) return null;
  return ours.result.requestsPerSecond / baseline.result.requestsPerSecond;
}

/** Lines "ours ÷ baseline" for every scenario both servers ran. */
export function renderRatios(rows: ScenarioRow[]): string {
  const lines: string[] = [];
  for (const ours of rows.filter((r) => r.server === 'ours')) {
    const baseline = find(rows, ours.id, 'baseline');
    if (!baseline) continue;
    const r = ratio(ours, baseline);
    lines.push(
      r === null
        ? `- ${ours.scenario}: ours ÷ baseline not available (${baseline.note ?? ours.note ?? 'no figures'})`
        : `- ${ours.scenario}: ours ÷ baseline = ${fmt(ours.result?.requestsPerSecond ?? 0)} ÷ ` +
            `${fmt(baseline.result?.requestsPerSecond ?? 0)} = ${r.toFixed(2)}`,
    );
  }
  return lines.join('\n');
}

function verdict(ok: boolean): Verdict {
  return ok ? 'met' : 'NOT MET';
}

/** The issue's targets, each met / not met with its figures, or not available when its scenario could not run. */
export function evaluateTargets(rows: ScenarioRow[], connections: number): TargetLine[] {
  const targets: TargetLine[] = [];

  const s1 = find(rows, '1');
  const s1Ratio = ratio(s1, find(rows, '1', 'baseline'));
  targets.push(
    s1?.result && s1Ratio !== null
      ? {
          target: `Scenario 1: >= 50% of baseline requests/s, 0 errors, p99 <= 100 ms at ${connections} connections`,
          verdict: verdict(s1Ratio >= 0.5 && s1.result.errors === 0 && s1.result.p99 <= 100),
          figures:
            `${(s1Ratio * 100).toFixed(0)}% of baseline, ${s1.result.errors} errors, p99 ${fmt(s1.result.p99)} ms ` +
            `(baseline p99 ${fmt(find(rows, '1', 'baseline')?.result?.p99 ?? 0)} ms; with ${connections} requests ` +
            `always in flight the mean latency is ${connections} ÷ requests/s = ` +
            `${fmt((connections / Math.max(s1.result.requestsPerSecond, 1e-9)) * 1000)} ms)`,
        }
      : { target: 'Scenario 1', verdict: 'not available', figures: '' },
  );

  for (const [label, small, large, baselineId] of [
    ['Scenario 2 (page)', '2-10k', '2-1M', '2-1M'],
    ['Scenario 3 (rank)', '3-rank-10k', '3-rank-1M', null],
    ['Scenario 3 (weekly XP page)', '3-weekly-10k', '3-weekly-1M', null],
  ] as const) {
    const a = find(rows, small)?.result;
    const b = find(rows, large)?.result;
    if (!a || !b) {
      targets.push({
        target: `${label}: 1M board within 1.3x of the 10k board`,
        verdict: 'not available',
        figures: 'leaderboards not on this build',
      });
      continue;
    }
    const slower = a.requestsPerSecond / Math.max(b.requestsPerSecond, 1e-9);
    const p99 = b.p99 / Math.max(a.p99, 1e-9);
    targets.push({
      target: `${label}: 1M board within 1.3x of the 10k board (requests/s and p99)`,
      verdict: verdict(slower <= 1.3 && p99 <= 1.3),
      figures: `requests/s 10k ÷ 1M = ${slower.toFixed(2)}, p99 1M ÷ 10k = ${p99.toFixed(2)}`,
    });
    if (baselineId) {
      const r = ratio(find(rows, baselineId), find(rows, baselineId, 'baseline'));
      targets.push(
        r === null
          ? {
              target: `${label}: >= 50% of baseline`,
              verdict: 'not available',
              figures: 'no baseline figure',
            }
          : {
              target: `${label}: >= 50% of baseline`,
              verdict: verdict(r >= 0.5),
              figures: `${(r * 100).toFixed(0)}%`,
            },
      );
    }
  }

  const ape = find(rows, '5a')?.result;
  const bearer = find(rows, '5b')?.result;
  targets.push(
    ape && bearer
      ? {
          target: 'Scenario 5: ApeKey >= 80% of Bearer requests/s',
          verdict: verdict(ape.requestsPerSecond >= 0.8 * bearer.requestsPerSecond),
          figures:
            `${((ape.requestsPerSecond / bearer.requestsPerSecond) * 100).toFixed(0)}% ` +
            `(${fmt(ape.requestsPerSecond)} vs ${fmt(bearer.requestsPerSecond)})`,
        }
      : { target: 'Scenario 5', verdict: 'not available', figures: '' },
  );

  const rebuild = find(rows, '6-1000000');
  targets.push(
    rebuild?.seconds !== undefined
      ? {
          target: 'Scenario 6: rebuild <= 10 s for 1,000,000 users',
          verdict: verdict(rebuild.seconds <= 10),
          figures: `${rebuild.seconds.toFixed(2)} s (${rebuild.note ?? ''})`,
        }
      : {
          target: 'Scenario 6: rebuild <= 10 s for 1,000,000 users',
          verdict: 'not available',
          figures: rebuild?.note ?? '',
        },
  );

  targets.push(...liveRankTargets(rows));

  const rss = rows
    .filter((r) => r.server === 'ours' && r.result?.rssMb !== null && r.result?.rssMb !== undefined)
    .map((r) => r.result?.rssMb as number);
  targets.push(
    rss.length > 0
      ? {
          target: 'Server RSS <= 300 MB throughout',
          verdict: verdict(Math.max(...rss) <= 300),
          figures: `max ${fmt(Math.max(...rss))} MB`,
        }
      : { target: 'Server RSS <= 300 MB throughout', verdict: 'not available', figures: 'no /proc' },
  );
  return targets;
}

/** Scenario 7: a new personal best shown with its rank within 60 s; reads flat from 10k to 1M under submissions. */
function liveRankTargets(rows: ScenarioRow[]): TargetLine[] {
  const fresh = find(rows, '7-fresh');
  const lines: TargetLine[] = [
    fresh?.seconds !== undefined
      ? {
          target: 'Scenario 7: a new personal best shows its rank within 60 s (1M board)',
          verdict: verdict(fresh.seconds <= 60),
          figures: fresh.note ?? '',
        }
      : { target: 'Scenario 7 (freshness)', verdict: 'not available', figures: '' },
  ];
  for (const kind of ['page', 'rank'] as const) {
    const a = find(rows, `7-${kind}-10k`)?.result;
    const b = find(rows, `7-${kind}-1M`)?.result;
    const target = `Scenario 7 (${kind} under submissions): 1M board within 1.3x of the 10k board (requests/s and p99)`;
    if (!a || !b) {
      lines.push({ target, verdict: 'not available', figures: '' });
      continue;
    }
    const slower = a.requestsPerSecond / Math.max(b.requestsPerSecond, 1e-9);
    const p99 = b.p99 / Math.max(a.p99, 1e-9);
    lines.push({
      target,
      verdict: verdict(slower <= 1.3 && p99 <= 1.3),
      figures: `requests/s 10k ÷ 1M = ${slower.toFixed(2)}, p99 1M ÷ 10k = ${p99.toFixed(2)}`,
    });
  }
  return lines;
}

export function renderTargets(targets: TargetLine[]): string {
  return targets
    .map((t) => `- ${t.verdict.toUpperCase()}: ${t.target}${t.figures ? ` — ${t.figures}` : ''}`)
    .join('\n');
}
