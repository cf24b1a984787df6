import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AccountLifecycle } from '../../../common/account-lifecycle';
import { Clock } from '../../../common/clock';
import { newId } from '../../../common/ids';
import { ServerConfigurationService } from '../../../common/server-configuration/server-configuration.service';
import { APP_ENV, type AppEnv } from '../../../config/env';
import { judgeKeyTiming, judgeResult, type Refusal, type Verdict } from '../domain/judge';
import { normaliseResult } from '../domain/normalise';
import type { CompletedResultDto } from '../dto/completed-result.dto';
import { SubmitResultPipe } from '../dto/submit-result.pipe';
import {
  RefusedResultsRepository,
  type RefusedFilter,
  type RefusedResult,
} from './refused-results.repository';

const DAY_MS = 86_400_000;
const REPLAY_PAGE = 500;

/** What replaying one refused result against today's rules says. */
export interface Replayed {
  refused: RefusedResult;
  /** The body parsed as the route parses it (absent when it no longer parses: it stays refused). */
  result?: CompletedResultDto;
  verdict: Verdict;
}

/** Per check that refused them: how many are there, and what today's rules make of them. */
export interface ReplayCount {
  check: string;
  refused: number;
  wouldAccept: number;
  wouldHold: number;
  stillRefused: number;
}

/** Counts per original check, in check order. */
export function countReplays(replays: Replayed[]): ReplayCount[] {
  const byCheck = new Map<string, ReplayCount>();
  for (const { refused, verdict } of replays) {
    let count = byCheck.get(refused.check);
    if (!count) {
      count = { check: refused.check, refused: 0, wouldAccept: 0, wouldHold: 0, stillRefused: 0 };
      byCheck.set(refused.check, count);
    }
    count.refused++;
    if (verdict.outcome === 'accept') count.wouldAccept++;
    else if (verdict.outcome === 'hold') count.wouldHold++;
    else count.stillRefused++;
  }
  return [...byCheck.values()].sort((a, b) => a.check.localeCompare(b.check));
}
const PURGE_INTERVAL_NAME = 'refused-results-purge';
const PURGE_EVERY_MS = 3_600_000;

/** The anti-cheat's refusals (the checks with thresholds an operator can be wrong about); the others are rules. */
export function isQuarantined(refusal: Refusal): refusal is Refusal & { status: 463 | 464 | 465 } {
  return refusal.status === 463 || refusal.status === 464 || refusal.status === 465;
}

/**
 * Nothing refused is lost: a result the anti-cheat refuses is kept (refused-results.repository.ts) for
 * `results.quarantine.retentionDays`, within its per-account and total bounds, never on a board, so a threshold
 * that refused genuine results can be fixed and the results replayed and reinstated (CLI `results refused`,
 * `results replay`). An hourly job (with JOBS_ENABLED) drops what has expired.
 */
@Injectable()
export class QuarantineService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(QuarantineService.name);

  constructor(
    private readonly repository: RefusedResultsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly scheduler: SchedulerRegistry,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  onModuleInit(): void {
    // An account reset clears its results; the ones refused go with them (deletion cascades from the user row).
    this.lifecycle.onReset('refusedResults', (uid, trx) => this.repository.removeForAccount(uid, trx));
  }

  onApplicationBootstrap(): void {
    if (!this.env.jobsEnabled) return;
    const timer = setInterval(() => void this.purgeExpired(), PURGE_EVERY_MS);
    timer.unref();
    this.scheduler.addInterval(PURGE_INTERVAL_NAME, timer);
  }

  onModuleDestroy(): void {
    if (this.scheduler.doesExist('interval', PURGE_INTERVAL_NAME))
      this.scheduler.deleteInterval(PURGE_INTERVAL_NAME);
  }

  /**
   * Keeps a refused result. A failure here (the database unreachable) is logged, never turned into an error: the
   * refusal is answered all the same.
   */
  async keep(
    uid: string,
    refusal: Refusal & { status: 463 | 464 | 465 },
    body: Record<string, unknown>,
    clientVersion: string | undefined,
  ): Promise<void> {
    try {
      const { quarantine } = (await this.configuration.get()).results;
      if (!quarantine.enabled) return;
      const now = this.clock.now();
      await this.repository.add(
        {
          id: newId(),
          uid,
          refusedAt: now,
          status: refusal.status,
          check: refusal.check,
          figures: refusal.figures,
          body,
          clientVersion: clientVersion ?? null,
        },
        {
          maxPerUser: quarantine.maxPerUser,
          maxTotal: quarantine.maxTotal,
          expiresBefore: now - quarantine.retentionDays * DAY_MS,
        },
      );
    } catch (e) {
      this.logger.error(
        { uid, check: refusal.check, err: (e as Error).message },
        'refused result not quarantined',
      );
    }
  }

  list(filter: RefusedFilter, limit: number, after?: RefusedResult): Promise<RefusedResult[]> {
    return this.repository.list(filter, limit, after);
  }

  forAccount(uid: string): Promise<RefusedResult[]> {
    return this.repository.forAccount(uid);
  }

  remove(ids: string[]): Promise<number> {
    return this.repository.remove(ids);
  }

  /**
   * Judges refused results again with today's configuration, as the route would: the body parsed by the route's pipe,
   * normalised, judged with the account's facts now (the operator's private rules are not run here). Pages through
   * the quarantine and hands each page to `each`, oldest first; a result whose account is gone is skipped.
   */
  async replay(filter: RefusedFilter, each: (page: Replayed[]) => Promise<void>): Promise<void> {
    const { results } = await this.configuration.get();
    const pipe = new SubmitResultPipe();
    let after: RefusedResult | undefined;
    for (;;) {
      const page = await this.repository.list(filter, REPLAY_PAGE, after);
      if (page.length === 0) return;
      after = page[page.length - 1];
      const accounts = await this.repository.accountFacts(page.map((refused) => refused.uid));
      const replayed: Replayed[] = [];
      for (const refused of page) {
        const account = accounts.get(refused.uid);
        if (!account) continue;
        replayed.push(this.judgeAgain(refused, account.lbOptOut, pipe, results));
      }
      await each(replayed);
    }
  }

  private judgeAgain(
    refused: RefusedResult,
    lbOptOut: boolean,
    pipe: SubmitResultPipe,
    config: Parameters<typeof judgeResult>[2],
  ): Replayed {
    let parsed: CompletedResultDto;
    try {
      parsed = pipe.transform({ result: refused.body }).result;
    } catch {
      const refusal: Refusal = { ...refusedAgain(refused), check: 'schema', figures: {} };
      return { refused, verdict: { outcome: 'refuse', refusal } };
    }
    const result = normaliseResult(parsed);
    const received = { body: refused.body, uid: refused.uid };
    const verdict = judgeResult(result, { optedOut: lbOptOut, received }, config);
    if (verdict.outcome === 'refuse') return { refused, result, verdict };
    const keys = judgeKeyTiming(result, lbOptOut, config);
    if (keys.outcome === 'refuse') return { refused, result, verdict: keys };
    const holds = [
      ...(verdict.outcome === 'hold' ? verdict.holds : []),
      ...(keys.outcome === 'hold' ? keys.holds : []),
    ];
    return { refused, result, verdict: holds.length > 0 ? { outcome: 'hold', holds } : verdict };
  }

  async purgeExpired(): Promise<number> {
    try {
      const { retentionDays } = (await this.configuration.get()).results.quarantine;
      const removed = await this.repository.purgeExpired(this.clock.now() - retentionDays * DAY_MS);
      if (removed > 0) this.logger.log({ removed }, 'expired refused results removed');
      return removed;
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'expired refused results not removed');
      return 0;
    }
  }
}

function refusedAgain(refused: RefusedResult): Pick<Refusal, 'status' | 'message'> {
  return { status: refused.status, message: 'no longer a valid result body' };
}
