import type { DataRecordType } from '../../export/export-format';
import type { ImportRecords, RecordKind } from '../import-records';
import { accept, refuse, type Mapped } from '../mapped';
import type { SourceCollection } from '../source-collection';
import {
  accountFieldsLeftBehind,
  mapAccountBundle,
  type AccountDocument,
  type AccountTarget,
} from './account-bundle';
import {
  LEFT_OUT,
  mapConfig,
  mapConnection,
  mapConnectionRequest,
  mapPreset,
  mapQuoteSubmission,
  mapReport,
  mapResult,
  mapResultReview,
  type LeftOut,
  type RecordTarget,
} from './account-records';
import type { FileReview, UntrustedResults } from './untrusted-results';

/** One collection of the account import: the record types its pass reads, and how its documents map. */
export interface AccountCollection {
  collection: SourceCollection;
  /** Record types read by its pass; `fold`: gathered into one document (the account's bundle). */
  types: readonly string[];
  fold?: boolean;
}

/** Records left out on purpose, by collection and reason (the summary lists them). */
export class LeftOutCounts {
  readonly counts = new Map<string, number>();

  for(collection: string): LeftOut {
    return (reason) => {
      const key = `${collection}: ${reason}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    };
  }

  lines(): string[] {
    return [...this.counts].map(([key, n]) => {
      const [collection, reason] = key.split(/: (.*)/s) as [string, string];
      return `${collection}: ${n} not imported: ${reason}`;
    });
  }
}

const data = (doc: Record<string, unknown>) => doc.data;

function collection<K extends RecordKind>(
  name: DataRecordType,
  kind: K,
  batchSize: number,
  map: (doc: Record<string, unknown>) => Mapped<ImportRecords[K][]>,
): SourceCollection {
  return { name, kind, batchSize, map } as SourceCollection;
}

/** Record types read and counted, never written: each record is left out (`reason`) or refused. */
function notWritten(
  name: string,
  map: (doc: Record<string, unknown>) => Mapped<never[]>,
): SourceCollection<'none'> {
  return { name, kind: 'none', batchSize: 1000, map };
}

/** How the file is taken: as it is (signed by a trusted key), or judged (`--untrusted`; issue 29). */
export type ImportPolicy =
  { trusted: true } | { trusted: false; results: UntrustedResults; reviews: ReadonlyMap<string, FileReview> };

/**
 * The account export's record types in import order, each to its kind of the shared write path: the account's
 * bundle first (users before what refers to them), then the records that refer to the account, then the results,
 * and last the review records, which must name a result of the account that is here. ApeKeys and approved quotes are
 * read and counted, never written (LEFT_OUT says why); types this instance does not know are refused into the rejects
 * file. On the untrusted path, connections become requests, results are judged (UntrustedResults), and the review
 * records are folded into their results' judgment instead of being written; what is left out is also listed in the
 * rejects file.
 */
export function accountCollections(
  target: AccountTarget & RecordTarget,
  bundled: readonly string[],
  unknownTypes: readonly string[],
  leftOut: LeftOutCounts,
  policy: ImportPolicy,
): AccountCollection[] {
  const skip = (name: DataRecordType, reason: string) =>
    notWritten(name, () => {
      leftOut.for(name)(reason);
      return policy.trusted ? accept([]) : accept([], [{ path: '*', action: 'left out', reason }]);
    });
  const list: AccountCollection[] = [
    {
      collection: {
        ...collection('account', 'users', 1, (doc) => {
          const mapped = mapAccountBundle(doc.data as AccountDocument, target, policy.trusted);
          return mapped.ok ? { ...mapped, value: [mapped.value] } : mapped;
        }),
        fieldsLeftBehind: (doc) => accountFieldsLeftBehind(doc.data as AccountDocument),
      },
      types: bundled,
      fold: true,
    },
    {
      collection: collection('config', 'configs', 1000, (d) => mapConfig(data(d), target)),
      types: ['config'],
    },
    {
      collection: collection('preset', 'presets', 1000, (d) => mapPreset(data(d), target)),
      types: ['preset'],
    },
    {
      collection: collection('connection', 'connections', 1000, (d) =>
        listedLeftOut(
          policy.trusted
            ? mapConnection(data(d), target, leftOut.for('connection'))
            : mapConnectionRequest(data(d), target, leftOut.for('connection')),
          policy.trusted,
          LEFT_OUT.absentUser,
        ),
      ),
      types: ['connection'],
    },
    { collection: skip('apeKey', LEFT_OUT.apeKey), types: ['apeKey'] },
    {
      collection: collection('quoteSubmission', 'newQuotes', 1000, (d) =>
        mapQuoteSubmission(data(d), target),
      ),
      types: ['quoteSubmission'],
    },
    {
      collection: collection('report', 'reports', 1000, (d) =>
        listedLeftOut(mapReport(data(d), target, leftOut.for('report')), policy.trusted, LEFT_OUT.absentUser),
      ),
      types: ['report'],
    },
    { collection: skip('approvedQuote', LEFT_OUT.approvedQuote), types: ['approvedQuote'] },
    { collection: skip('refusedResult', LEFT_OUT.refusedResult), types: ['refusedResult'] },
    {
      collection: policy.trusted
        ? collection('result', 'results', 5000, (d) => mapResult(data(d), target))
        : collection('result', 'results', 5000, (d) => policy.results.map(data(d))),
      types: ['result'],
    },
    {
      collection: policy.trusted
        ? collection('resultReview', 'resultReviews', 1000, (d) => mapResultReview(data(d), target))
        : notWritten('resultReview', (d) => foldedReview(data(d), policy.reviews, leftOut)),
      types: ['resultReview'],
    },
  ];
  if (unknownTypes.length > 0)
    list.push({
      collection: notWritten('unknown', (d) =>
        refuse(`record type ${String(d.type)} is not known to this instance (written by a newer one?)`),
      ),
      types: unknownTypes,
    });
  return list;
}

/** On the untrusted path, a record left out (accepted as nothing) is also listed in the rejects file. */
function listedLeftOut<T>(mapped: Mapped<T[]>, trusted: boolean, reason: string): Mapped<T[]> {
  if (trusted || !mapped.ok || mapped.value.length > 0 || mapped.adjustments.length > 0) return mapped;
  return accept([], [{ path: '*', action: 'left out', reason }]);
}

/** An untrusted file's review record: it counted in its result's judgment, or names no result of the file. */
function foldedReview(
  data: unknown,
  reviews: ReadonlyMap<string, FileReview>,
  leftOut: LeftOutCounts,
): Mapped<never[]> {
  const resultId = (data as { resultId?: unknown } | null)?.resultId;
  const review = typeof resultId === 'string' ? reviews.get(resultId) : undefined;
  const reason =
    review?.seen === true
      ? LEFT_OUT.folded
      : "it names no result of this file (a review is taken only for the account's own results)";
  leftOut.for('resultReview')(reason);
  return accept([], [{ path: '*', action: 'left out', reason }]);
}
