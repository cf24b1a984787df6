import type { DataRecordType } from '../../export/export-format';
import type { ImportRecords, RecordKind } from '../import-records';
import { accept, refuse, type Mapped } from '../original/mapped';
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
  mapPreset,
  mapQuoteSubmission,
  mapReport,
  mapResult,
  mapResultReview,
  type LeftOut,
  type RecordTarget,
} from './account-records';

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
  name: DataRecordType | 'unknown',
  kind: K,
  batchSize: number,
  map: (doc: Record<string, unknown>) => Mapped<ImportRecords[K][]>,
): SourceCollection {
  return { name, kind, batchSize, map } as SourceCollection;
}

/**
 * The account export's record types in import order, each to its kind of the shared write path: the account's
 * bundle first (users before what refers to them), then the records that refer to the account, results last. ApeKeys
 * and approved quotes are read and counted, never written (LEFT_OUT says why); types this instance does not know are
 * refused into the rejects file.
 */
export function accountCollections(
  target: AccountTarget & RecordTarget,
  bundled: readonly string[],
  unknownTypes: readonly string[],
  leftOut: LeftOutCounts,
): AccountCollection[] {
  const skip = (name: DataRecordType, reason: string) =>
    collection(name, 'apeKeys', 1000, () => {
      leftOut.for(name)(reason);
      return accept([]);
    });
  const list: AccountCollection[] = [
    {
      collection: {
        ...collection('account', 'users', 1, (doc) => {
          const mapped = mapAccountBundle(doc.data as AccountDocument, target);
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
        mapConnection(data(d), target, leftOut.for('connection')),
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
        mapReport(data(d), target, leftOut.for('report')),
      ),
      types: ['report'],
    },
    { collection: skip('approvedQuote', LEFT_OUT.approvedQuote), types: ['approvedQuote'] },
    { collection: skip('refusedResult', LEFT_OUT.refusedResult), types: ['refusedResult'] },
    {
      collection: collection('resultReview', 'resultReviews', 1000, (d) => mapResultReview(data(d), target)),
      types: ['resultReview'],
    },
    {
      collection: collection('result', 'results', 5000, (d) => mapResult(data(d), target)),
      types: ['result'],
    },
  ];
  if (unknownTypes.length > 0)
    list.push({
      collection: collection('unknown', 'results', 1000, (d) =>
        refuse(`record type ${String(d.type)} is not known to this instance (written by a newer one?)`),
      ),
      types: unknownTypes,
    });
  return list;
}
