import { Global, Injectable, Logger, Module } from '@nestjs/common';
import type { Executor } from '../infra/database/transaction';

type InTransaction = (uid: string, trx: Executor) => Promise<void>;
type AfterCommit = (uid: string) => Promise<void>;

/**
 * Lets each feature take part in account-wide changes without the users feature depending on it (no cycles):
 * - `reset` handlers run inside the reset transaction and remove the feature's rows of that user;
 * - `delete` handlers run inside the deletion transaction, before the user row goes, for the rows that mention the
 *   user without belonging to them (no cascade reaches those: other users' reports about them, public content they
 *   are named in, job records listing them);
 * - `after*` handlers run after the change committed (Redis boards, caches); they must be idempotent and their
 *   failures are logged, not thrown, since the change already happened.
 * User-owned tables need no delete handler: they cascade from `users`.
 * `unban` is the one change that lets a user back in: features that dropped the user's derived rows at the ban
 * rebuild them from the user's own data.
 */
@Injectable()
export class AccountLifecycle {
  private readonly resetHandlers = new Map<string, InTransaction>();
  private readonly deleteHandlers = new Map<string, InTransaction>();
  private readonly after = {
    reset: new Map<string, AfterCommit>(),
    delete: new Map<string, AfterCommit>(),
    ban: new Map<string, AfterCommit>(),
    unban: new Map<string, AfterCommit>(),
    optOut: new Map<string, AfterCommit>(),
  };
  private readonly logger = new Logger(AccountLifecycle.name);

  onReset(feature: string, handler: InTransaction): void {
    this.resetHandlers.set(feature, handler);
  }

  onDelete(feature: string, handler: InTransaction): void {
    this.deleteHandlers.set(feature, handler);
  }

  afterReset(feature: string, handler: AfterCommit): void {
    this.after.reset.set(feature, handler);
  }

  afterDelete(feature: string, handler: AfterCommit): void {
    this.after.delete.set(feature, handler);
  }

  afterBan(feature: string, handler: AfterCommit): void {
    this.after.ban.set(feature, handler);
  }

  afterUnban(feature: string, handler: AfterCommit): void {
    this.after.unban.set(feature, handler);
  }

  afterLeaderboardOptOut(feature: string, handler: AfterCommit): void {
    this.after.optOut.set(feature, handler);
  }

  async runReset(uid: string, trx: Executor): Promise<void> {
    for (const handler of this.resetHandlers.values()) await handler(uid, trx);
  }

  async runDelete(uid: string, trx: Executor): Promise<void> {
    for (const handler of this.deleteHandlers.values()) await handler(uid, trx);
  }

  async notify(event: 'reset' | 'delete' | 'ban' | 'unban' | 'optOut', uid: string): Promise<void> {
    for (const [feature, handler] of this.after[event]) {
      await handler(uid).catch((e: Error) =>
        this.logger.error({ uid, feature, event, err: e.message }, 'lifecycle handler failed'),
      );
    }
  }
}

@Global()
@Module({ providers: [AccountLifecycle], exports: [AccountLifecycle] })
export class AccountLifecycleModule {}
