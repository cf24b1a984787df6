import {
  DATA_RECORD_TYPES,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  type AccountData,
  type DataRecordType,
  type EndData,
  type ExportHeader,
  type ExportRecords,
} from './export-format';
import {
  accountData,
  accountPersonalBestData,
  apeKeyData,
  approvedQuoteData,
  connectionData,
  customThemeData,
  inboxMailData,
  presetData,
  quoteRatingData,
  quoteSubmissionData,
  reportData,
  resultFilterPresetData,
  refusedResultData,
  resultReviewData,
  tagData,
  testActivityData,
} from './export-records';
import type { ExportSnapshot, UserRow } from './export.repository';
import { resultLine } from './result-line';

/**
 * Results per cursor page: about 2 MB of NDJSON, one chunk handed to the reader at a time (with the next page being
 * read meanwhile, a few pages at most are in memory). Smaller pages leave PostgreSQL idle between fetches: 500 gave about
 * 50,000 records/s where 2,000 gives 60,000 or more on the 2-core bench machine.
 */
const RESULTS_PAGE = 2_000;
/** Cursor pages requested before they are needed (memory: these plus the one being sent). */
const PAGES_AHEAD = 2;

export interface PreparedExport {
  uid: string;
  user: UserRow;
  permissions: { permission: string; granted_at: number }[];
  exportedAt: number;
  results?: number;
  derived: AccountData['derived'];
}

export interface ExportProgress {
  /** Records after the header (the trailer excluded). */
  records: number;
  results: number;
}

/** One NDJSON line of a record. */
function line<K extends keyof ExportRecords>(type: K, data: ExportRecords[K]): string {
  return `${JSON.stringify({ type, data })}\n`;
}

/**
 * The export's lines in file order (export-format.ts), as chunks of whole lines: the header and the account first
 * (from rows read before the first byte), then each record type, results a cursor page per chunk, then the trailer.
 * Counts every record it writes into `progress` and the trailer.
 */
export async function* exportLines(
  snapshot: ExportSnapshot,
  prepared: PreparedExport,
  progress: ExportProgress,
): AsyncGenerator<string, void, undefined> {
  const { uid, user } = prepared;
  const counts = Object.fromEntries(DATA_RECORD_TYPES.map((t) => [t, 0])) as Record<DataRecordType, number>;
  const lines = <K extends DataRecordType>(type: K, items: ExportRecords[K][]): string => {
    counts[type] += items.length;
    progress.records += items.length;
    let out = '';
    for (const item of items) out += line(type, item);
    return out;
  };

  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_FORMAT_VERSION,
    exportedAt: prepared.exportedAt,
    uid,
  };
  yield (
    `${JSON.stringify(header)}\n` +
    lines('account', [accountData(user, prepared.permissions, prepared.derived)]) +
    lines('favoriteQuotes', [user.favorite_quotes as ExportRecords['favoriteQuotes']]) +
    lines('leaderboardMemory', [user.lb_memory as ExportRecords['leaderboardMemory']])
  );

  const [personalBests, tags, tagPbs, presets, config, themes, filterPresets] = await Promise.all([
    snapshot.personalBests(uid),
    snapshot.tags(uid),
    snapshot.tagPersonalBests(uid),
    snapshot.presets(uid),
    snapshot.config(uid),
    snapshot.customThemes(uid),
    snapshot.resultFilterPresets(uid),
  ]);
  yield (
    lines('personalBest', personalBests.map(accountPersonalBestData)) +
    lines('tag', tagData(tags, tagPbs)) +
    lines('preset', presets.map(presetData)) +
    lines('config', config ? [{ config: config.config, updatedAt: config.updated_at }] : []) +
    lines('customTheme', themes.map(customThemeData)) +
    lines('resultFilterPreset', filterPresets.map(resultFilterPresetData))
  );

  const [inbox, connections, apeKeys] = await Promise.all([
    snapshot.inbox(uid),
    snapshot.connections(uid),
    snapshot.apeKeys(uid),
  ]);
  yield (
    lines('inboxMail', inbox.map(inboxMailData)) +
    lines('connection', connections.map(connectionData)) +
    lines('apeKey', apeKeys.map(apeKeyData))
  );

  const [activity, ratings, submissions, reports, approved, reviews, refused] = await Promise.all([
    snapshot.testActivity(uid),
    snapshot.quoteRatings(uid),
    snapshot.quoteSubmissions(uid),
    snapshot.reports(uid),
    snapshot.approvedQuotes(uid),
    snapshot.resultReviews(uid),
    snapshot.refusedResults(uid),
  ]);
  yield (
    lines('testActivity', activity.map(testActivityData)) +
    lines('quoteRating', ratings.map(quoteRatingData)) +
    lines('quoteSubmission', submissions.map(quoteSubmissionData)) +
    lines('report', reports.map(reportData)) +
    lines(
      'approvedQuote',
      approved.map((row) => approvedQuoteData(uid, row)),
    ) +
    lines('resultReview', reviews.map(resultReviewData)) +
    lines('refusedResult', refused.map(refusedResultData))
  );

  await snapshot.openResults(uid);
  // Pages ahead: PostgreSQL reads and formats the next pages (its FETCHes queue on the connection) while this one is
  // written here and sent, instead of each side waiting for the other. Each is marked handled at once: when the
  // reader goes away, a pending fetch may fail with nobody awaiting it (the snapshot's rollback waits behind it).
  const ahead: Promise<string[]>[] = [];
  let exhausted = false;
  const refill = () => {
    while (!exhausted && ahead.length < PAGES_AHEAD) {
      const pending = snapshot.fetchResults(RESULTS_PAGE);
      pending.catch(() => undefined);
      ahead.push(pending);
    }
  };
  refill();
  for (let next = ahead.shift(); next !== undefined; next = ahead.shift()) {
    const page = await next;
    if (page.length < RESULTS_PAGE) exhausted = true;
    refill();
    if (page.length === 0) continue;
    let chunk = '';
    for (const data of page) chunk += resultLine(data);
    counts.result += page.length;
    progress.records += page.length;
    progress.results += page.length;
    yield chunk;
  }

  const end: EndData = { records: progress.records, counts };
  yield line('end', end);
}
