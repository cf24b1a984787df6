import { Injectable } from '@nestjs/common';
import { AppError } from '../../../../common/app-error';
import { Clock } from '../../../../common/clock';
import { ServerConfigurationService } from '../../../../common/server-configuration/server-configuration.service';
import { userNameProblem } from '../../../users/user-name';
import type { AccountData } from '../../export/export-format';
import { AccountFileSigningService, type FileTrust } from '../../signing/account-file-signing.service';
import { runImport, type CollectionInput, type ImportSummary, type ProgressSink } from '../import-pipeline';
import {
  readAccountDocument,
  readRecords,
  scanAccountExport,
  type ExportScan,
} from '../readers/account-export';
import type { RejectsSink } from '../rejects-file';
import { ImportWriters } from '../write/import-writers';
import { accountProblem, BUNDLED_TYPES } from './account-bundle';
import { accountCollections, LeftOutCounts, type ImportPolicy } from './account-collections';
import { AccountImportRepository } from './account-import.repository';
import { UntrustedResults, type FileReview } from './untrusted-results';

export { AccountExportError } from '../readers/account-export';

/** Where the account lands, and what is known before anything is written. */
export interface AccountPlan {
  path: string;
  scan: ExportScan;
  uid: string;
  sourceUid: string;
  name: string;
  /** The account is here already from an earlier run of this import: the run completes it (or finds it whole). */
  resuming: boolean;
  /** Other users the file names (connections, reports) that are on this instance. */
  present: Set<string>;
  /** What the file's signature earns here. */
  trust: FileTrust;
  /** The path taken: as it is (a trusted signature, and no --untrusted), or judged (docs/account-files.md). */
  trusted: boolean;
}

export interface AccountImportSummary extends ImportSummary {
  /** Lines for the summary: what was left out on purpose, and the check of the account afterwards. */
  notes: string[];
}

/** A refusal before anything is written (exit code 1, the message says what to do). */
const refuse = (message: string) => new AppError(409, message);

/**
 * `import account <file>` (issues 22 and 29): our own account export into this instance, through the write path the
 * original's dump goes through (ImportWriters: the same batches, idempotency and derived-state step). A file signed
 * by this instance or a trusted one, unchanged, imports as it is; any other file only with `--untrusted`, and then
 * its results are judged as live submissions and the account's state is computed from them (nothing else of the file
 * is granted).
 * The account keeps its uid; a uid, name or address held here by another account refuses the import before anything
 * is written (`--uid`, `--name` choose others). An account that is here from an earlier run of the same file (same
 * uid, same creation time) is completed, not refused: a run that was stopped finishes on the next, and a rerun
 * imports nothing new.
 */
@Injectable()
export class AccountImportService {
  constructor(
    private readonly repository: AccountImportRepository,
    private readonly writers: ImportWriters,
    private readonly signing: AccountFileSigningService,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  /**
   * Reads the file through (AccountExportError when it is not a complete export), decides its path by its signature
   * (an untrusted file without `untrusted` is refused) and checks who holds what here.
   */
  async plan(
    path: string,
    overrides: { uid?: string; name?: string; untrusted?: boolean } = {},
  ): Promise<AccountPlan> {
    const scan = await scanAccountExport(path);
    const trust = await this.signing.trustOf(scan.signature);
    if (!trust.trusted && overrides.untrusted !== true)
      throw refuse(
        `the file is not trusted here: ${trust.reason}. Nothing was imported. Import it with --untrusted (its results ` +
          'are judged as live submissions, and nothing else of the file is granted), or trust its instance first ' +
          '(npm run cli -- instances trust <publicKey> --instance <instanceId>)',
      );
    const problem = accountProblem(scan.account);
    if (problem !== null) throw refuse(`the account record cannot be imported: ${problem}`);
    const account = scan.account as AccountData;
    const uid = overrides.uid ?? scan.header.uid;
    const name = overrides.name ?? account.name;
    const nameProblem = userNameProblem(name);
    if (nameProblem !== null)
      throw refuse(`the name ${name} is not valid here (${nameProblem}): choose one with --name`);

    const here = await this.repository.byUid(uid);
    const resuming = here !== undefined && here.added_at === account.addedAt;
    if (here !== undefined && !resuming)
      throw refuse(
        `the uid ${uid} is taken here by another account (${here.name}): nothing was imported; ` +
          'import under another uid with --uid <newUid> (the user then signs in with an identity of that uid)',
      );
    if (!resuming) {
      const nameHolder = await this.repository.byName(name);
      if (nameHolder !== undefined)
        throw refuse(
          `the name ${name} is taken here (account ${nameHolder.uid}): nothing was imported; choose another with --name <newName>`,
        );
      const addressHolder = account.email === '' ? undefined : await this.repository.byEmail(account.email);
      if (addressHolder !== undefined)
        throw refuse(
          `the email address of ${name} is used here by account ${addressHolder.uid} (${addressHolder.name}): ` +
            'nothing was imported; one address is one account (change or delete the other one first)',
        );
    }
    scan.otherUsers.delete(uid);
    const present = await this.repository.present([...scan.otherUsers]);
    const trusted = trust.trusted && overrides.untrusted !== true;
    return { path, scan, uid, sourceUid: scan.header.uid, name, resuming, present, trust, trusted };
  }

  /** The summary's line of the path taken. */
  static pathLine(plan: AccountPlan): string {
    if (plan.trusted && plan.trust.trusted) return `import path: trusted (signed by ${plan.trust.signer})`;
    const why = plan.trust.trusted ? `--untrusted given (signed by ${plan.trust.signer})` : plan.trust.reason;
    return (
      `import path: untrusted (${why}): results judged as live submissions; XP, stats, streak and personal bests ` +
      'computed from them; no premium, badge, flag, chat link or mail reward taken from the file'
    );
  }

  /** Imports a planned file with the database writer, or reads it through with the dry-run writer. */
  async run(
    plan: AccountPlan,
    options: { dryRun: boolean; progress: ProgressSink; rejects: RejectsSink },
  ): Promise<AccountImportSummary> {
    const leftOut = new LeftOutCounts();
    const { scan } = plan;
    const bundled = BUNDLED_TYPES.filter((type) => type === 'account' || scan.counts.has(type));
    const target = { uid: plan.uid, sourceUid: plan.sourceUid, name: plan.name, present: plan.present };
    let policy: ImportPolicy = { trusted: true };
    if (!plan.trusted) {
      const reviews = await this.fileReviews(plan);
      const results = new UntrustedResults({
        target,
        optedOut: (scan.account as AccountData).lbOptOut,
        config: (await this.configuration.get()).results,
        now: this.clock.now(),
        reviews,
      });
      policy = { trusted: false, results, reviews };
    }
    const collections = accountCollections(target, bundled, scan.unknownTypes, leftOut, policy);
    const inputs: CollectionInput[] = collections
      .filter((c) => c.fold === true || c.types.some((type) => scan.counts.has(type)))
      .map((c) => ({
        collection: c.collection,
        bytes: scan.bytes,
        open: () =>
          c.fold
            ? readAccountDocument(plan.path, scan.gzip, plan.uid, new Set(c.types))
            : readRecords(plan.path, scan.gzip, new Set(c.types)),
      }));
    const writer = this.writers.open({ dryRun: options.dryRun, deriveFromResults: !plan.trusted });
    let summary: ImportSummary;
    try {
      summary = await runImport(inputs, writer, options.progress, options.rejects);
    } finally {
      await writer.close();
    }
    const notes = [AccountImportService.pathLine(plan), ...leftOut.lines()];
    if (!policy.trusted) notes.push(...judged(policy.results));
    notes.push(...(await this.check(plan, summary, options.dryRun)));
    return { ...summary, notes };
  }

  /** The untrusted file's review records, by the result they name (read before the results are judged). */
  private async fileReviews(plan: AccountPlan): Promise<Map<string, FileReview>> {
    const reviews = new Map<string, FileReview>();
    if (!plan.scan.counts.has('resultReview')) return reviews;
    const records = readRecords(plan.path, plan.scan.gzip, new Set(['resultReview']));
    for await (const entry of records.documents) {
      if ('error' in entry) continue;
      const data = entry.doc.data as { resultId?: unknown; status?: unknown } | null;
      if (typeof data?.resultId === 'string' && typeof data.status === 'string')
        reviews.set(data.resultId, { status: data.status, seen: false });
    }
    return reviews;
  }

  /** After the run: is the whole account here? (A stopped run is completed by running the same command again.) */
  private async check(plan: AccountPlan, summary: ImportSummary, dryRun: boolean): Promise<string[]> {
    const expected = plan.scan.counts.get('result') ?? 0;
    const rejected = summary.collections.find((c) => c.name === 'result')?.rejected ?? 0;
    if (dryRun) return [`dry run: ${plan.uid} (${plan.name}) would have ${expected - rejected} results here`];
    const account = await this.repository.byUid(plan.uid);
    if (account === undefined) return [`the account ${plan.uid} was not imported (see the rejects)`];
    const results = await this.repository.countResults(plan.uid);
    const whole = results >= expected - rejected;
    return [
      `account ${plan.uid} (${account.name}): ${results} of the file's ${expected} results here` +
        (whole ? '' : ': incomplete, run the same command again to complete it'),
    ];
  }
}

/** The untrusted path's judgment of the results, for the summary. */
function judged(results: UntrustedResults): string[] {
  const list = (counts: Map<string, number>) =>
    [...counts].map(([check, n]) => `${check} ${n.toLocaleString('en-US')}`).join(', ');
  const lines: string[] = [];
  if (results.refused.size > 0)
    lines.push(`result: refused as the live route would (by check): ${list(results.refused)}`);
  if (results.held.size > 0) lines.push(`result: held for review (by reason): ${list(results.held)}`);
  lines.push(
    "result: XP and personal-best marks computed here for every imported result (the file's values are not used)",
  );
  return lines;
}
