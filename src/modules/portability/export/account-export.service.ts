import { Readable } from 'node:stream';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { AppError, MESSAGES } from '../../../common/app-error';
import { Clock } from '../../../common/clock';
import { hasPremium } from '../../../common/premium';
import { APP_ENV, type AppEnv } from '../../../config/env';
import { ServerConfigurationService } from '../../../common/server-configuration/server-configuration.service';
import { AllTimeLeaderboardService } from '../../leaderboards/all-time-leaderboard.service';
import { newFileDigest, type InstanceKey } from '../signing/account-file-signature';
import { AccountFileSigningService } from '../signing/account-file-signing.service';
import { exportLines, type ExportProgress, type PreparedExport } from './export-lines';
import { ExportRepository, type ExportSnapshot } from './export.repository';

export const TOO_MANY_EXPORTS = 'Too many exports are running, please try again in a minute';

/** A client that reads nothing for this long has gone away without closing: its snapshot is released. */
const EXPORT_STALL_MS = 60_000;
const WATCH_INTERVAL_MS = 5_000;

export interface ExportOptions {
  /** Count the results first (a progress bar's total). */
  countResults?: boolean;
  /** Called after each chunk is handed on, with the records so far. */
  onProgress?: (progress: ExportProgress) => void;
}

export interface AccountExport {
  uid: string;
  name: string;
  /** When the snapshot was taken (the header's `exportedAt`). */
  exportedAt: number;
  /** Results in the snapshot, when counted. */
  results?: number;
  /** The NDJSON bytes; destroying it ends the snapshot. */
  stream: Readable;
  /** Records written so far (complete once the stream ended). */
  progress: ExportProgress;
}

interface Running {
  stream: Readable;
  /** Settles once the stream closed and its snapshot's connection is back in the pool. */
  released: Promise<void>;
  /** When the stream last waited for its reader to ask for more (performance.now()); null while producing. */
  waitingSince: number | null;
}

/** Ends a running export with a reason; its reader may have no error listener of its own (yet). */
function end(stream: Readable, reason: Error): void {
  if (stream.listenerCount('error') === 0) stream.once('error', () => undefined);
  stream.destroy(reason);
}

/**
 * Streams one account's export (export-format.ts) from a consistent snapshot, signed by this instance's key (its
 * last line). The account row and the key are read before the stream is handed out, so an unknown user or a database
 * outage is an ordinary error answer (404, 503); after the first byte a failure can only abort the stream, and the
 * missing `end` trailer marks the file incomplete.
 *
 * Each running export holds one pooled connection for as long as its reader takes, so a process runs at most a
 * quarter of its pool at once (503 beyond), and an export whose reader stopped reading is ended after
 * `EXPORT_STALL_MS`. Shutdown ends the running ones (their downloads fail rather than hold the drain).
 */
@Injectable()
export class AccountExportService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(AccountExportService.name);
  /** How long a reader may take nothing before its export is ended (tests shorten it). */
  stallMs = EXPORT_STALL_MS;
  private readonly running = new Set<Running>();
  private readonly limit: number;
  private reserved = 0;
  private watchdog: NodeJS.Timeout | null = null;

  constructor(
    private readonly repository: ExportRepository,
    private readonly allTime: AllTimeLeaderboardService,
    private readonly configuration: ServerConfigurationService,
    private readonly signing: AccountFileSigningService,
    private readonly clock: Clock,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.limit = Math.max(1, Math.floor(env.databasePoolMax / 4));
  }

  /** Operators name accounts by uid or by name (CLI). */
  async resolveAccount(uidOrName: string): Promise<string> {
    const uid = await this.repository.resolveUid(uidOrName);
    if (uid === undefined) throw new AppError(404, `${MESSAGES.userNotFound}: ${uidOrName}`);
    return uid;
  }

  async open(uid: string, options: ExportOptions = {}): Promise<AccountExport> {
    if (this.reserved >= this.limit) throw new AppError(503, TOO_MANY_EXPORTS);
    this.reserved += 1;
    let snapshot: ExportSnapshot | undefined;
    try {
      snapshot = await this.repository.openSnapshot();
      const [prepared, key] = await Promise.all([
        this.prepare(snapshot, uid, options),
        this.signing.instanceKey(),
      ]);
      return this.start(snapshot, prepared, key, options);
    } catch (e) {
      this.reserved -= 1;
      await snapshot?.close().catch(() => undefined);
      throw e;
    }
  }

  /** What must hold before the first byte: the account exists, the derived facts and the optional count. */
  private async prepare(
    snapshot: ExportSnapshot,
    uid: string,
    options: ExportOptions,
  ): Promise<PreparedExport> {
    const user = await snapshot.user(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    const [permissions, config, allTimeLbs, results] = await Promise.all([
      snapshot.permissions(uid),
      this.configuration.get(),
      this.allTime.profileRanks(uid),
      options.countResults ? snapshot.countResults(uid) : Promise.resolve(undefined),
    ]);
    const exportedAt = this.clock.now();
    return {
      uid,
      user,
      permissions,
      exportedAt,
      results,
      derived: {
        isPremium: config.users.premium.enabled && hasPremium(user.premium_expires_at, exportedAt),
        allTimeLbs,
      },
    };
  }

  private start(
    snapshot: ExportSnapshot,
    prepared: PreparedExport,
    key: InstanceKey,
    options: ExportOptions,
  ): AccountExport {
    const progress: ExportProgress = { records: 0, results: 0 };
    // Waiting for its first read from the start: a stream nobody reads is ended too.
    const entry = { waitingSince: performance.now() } as Running;
    let markReleased: () => void = () => undefined;
    entry.released = new Promise<void>((resolve) => (markReleased = resolve));
    let done = false;
    /** Frees the slot once the connection is back; whichever end comes first (once). */
    const release = () => {
      if (done) return;
      done = true;
      this.running.delete(entry);
      this.reserved -= 1;
      if (this.running.size === 0) this.unwatch();
      markReleased();
    };
    const lines = exportLines(snapshot, prepared, progress);
    const logger = this.logger;
    const uid = prepared.uid;
    async function* produce(): AsyncGenerator<string> {
      const digest = newFileDigest();
      try {
        for await (const chunk of lines) {
          digest.update(chunk);
          entry.waitingSince = performance.now();
          yield chunk;
          entry.waitingSince = null;
          options.onProgress?.(progress);
        }
        // The last line: the signature over every byte before it (docs/account-files.md).
        yield key.signatureLine(digest.digest());
        logger.log({ uid, records: progress.records, results: progress.results }, 'account exported');
      } catch (e) {
        logger.error({ uid, records: progress.records, err: (e as Error).message }, 'account export failed');
        throw e;
      } finally {
        await lines.return(undefined);
        // Before the stream ends: a client that starts its next export as soon as this one finished finds the slot.
        await snapshot.close();
        release();
      }
    }
    // Byte mode with a small buffer: the next page is read only when the reader has taken the previous one.
    const stream = Readable.from(produce(), { objectMode: false, highWaterMark: 64 * 1024 });
    entry.stream = stream;
    this.running.add(entry);
    this.watch();
    // A generator that never started runs no `finally` when the stream is destroyed (a HEAD request, a reader that
    // never read): the snapshot is closed here too.
    stream.once('close', () => void snapshot.close().then(release));
    return {
      uid,
      name: prepared.user.name,
      exportedAt: prepared.exportedAt,
      results: prepared.results,
      stream,
      progress,
    };
  }

  private watch(): void {
    if (this.watchdog) return;
    this.watchdog = setInterval(
      () => {
        const now = performance.now();
        for (const entry of this.running) {
          if (entry.waitingSince !== null && now - entry.waitingSince > this.stallMs) {
            end(entry.stream, new Error(`the reader took nothing for ${this.stallMs / 1000} s`));
          }
        }
      },
      Math.min(WATCH_INTERVAL_MS, this.stallMs / 2),
    );
    this.watchdog.unref();
  }

  private unwatch(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
  }

  /** Exports running now (each holds a connection until its stream closed and its snapshot ended). */
  get runningCount(): number {
    return this.running.size;
  }

  /** Running exports end (their snapshots close) before the pools do. */
  async beforeApplicationShutdown(): Promise<void> {
    const entries = [...this.running];
    for (const entry of entries) end(entry.stream, new Error('the server is shutting down'));
    await Promise.all(entries.map((entry) => entry.released));
    this.unwatch();
  }
}
