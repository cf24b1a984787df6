import { Injectable } from '@nestjs/common';
import { storedResultColumns } from '../../results/domain/stored-result';
import {
  countReplays,
  QuarantineService,
  type Replayed,
  type ReplayCount,
} from '../../results/quarantine/quarantine.service';
import type { RefusedFilter } from '../../results/quarantine/refused-results.repository';
import type { ResultRow, Sourced } from './import-records';
import { ImportWriters } from './write/import-writers';

export interface ReinstateReport {
  counts: ReplayCount[];
  /** Reinstated: written (or found already written by an earlier run) and taken out of the quarantine. */
  reinstated: number;
  /** Passing today, but refused by the write path (the reason is in `rejected`). */
  rejected: { id: string; reason: string }[];
  /** What the write path's finish rebuilt (boards, activity, last result times). */
  steps: string[];
}

/**
 * Reinstates quarantined results that today's rules pass (docs/anti-cheat.md "Nothing refused is lost"): each is
 * written through the import's write path as a result of its account with its own time (when it was refused),
 * changing the account as a submission would (tests, typing time, XP, streak, personal bests and tag bests; held
 * where today's rules hold it), then taken out of the quarantine; the boards are rebuilt at the end. A result keeps
 * its quarantine id, so a rerun finds it written and writes nothing twice.
 */
@Injectable()
export class ReinstateRefusedService {
  constructor(
    private readonly quarantine: QuarantineService,
    private readonly writers: ImportWriters,
  ) {}

  async reinstate(filter: RefusedFilter, onPage?: (done: number) => void): Promise<ReinstateReport> {
    const all: Replayed[] = [];
    const passing: Replayed[] = [];
    await this.quarantine.replay(filter, async (page) => {
      all.push(...page);
      passing.push(...page.filter((r) => r.verdict.outcome !== 'refuse' && r.result !== undefined));
    });
    const report: ReinstateReport = { counts: countReplays(all), reinstated: 0, rejected: [], steps: [] };
    if (passing.length === 0) return report;
    const writer = this.writers.open({ deriveFromResults: true });
    try {
      for (let i = 0; i < passing.length; i += BATCH) {
        const batch = passing.slice(i, i + BATCH);
        const outcome = await writer.write('results', batch.map(rowOf));
        const refused = new Set(outcome.rejected.map((r) => r.source.id));
        report.rejected.push(...outcome.rejected.map((r) => ({ id: r.source.id, reason: r.reason })));
        const done = batch.map((r) => r.refused.id).filter((id) => !refused.has(id));
        report.reinstated += await this.quarantine.remove(done);
        onPage?.(Math.min(i + BATCH, passing.length));
      }
      report.steps = (await writer.finish()).steps;
    } finally {
      await writer.close();
    }
    return report;
  }
}

const BATCH = 500;

function rowOf(replayed: Replayed): Sourced<ResultRow> {
  const { refused, verdict } = replayed;
  const result = replayed.result!;
  // Stored at the time it was refused, in whole seconds as a submission is; XP, is_pb and the tags the account owns
  // are worked out by the write path, as for any result it derives an account from.
  const timestamp = Math.floor(refused.refusedAt / 1000) * 1000;
  const row: ResultRow = {
    ...storedResultColumns(result, {
      id: refused.id,
      uid: refused.uid,
      timestamp,
      name: null,
      tags: result.tags,
      isPb: false,
      xp: 0,
    }),
    ...(verdict.outcome === 'hold' ? { held: { reasons: verdict.holds, heldAt: timestamp } } : {}),
  };
  return { source: { collection: 'refused_results', id: refused.id }, row };
}
