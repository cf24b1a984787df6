import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import {
  DATA_RECORD_TYPES,
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  type EndData,
  type ExportHeader,
} from '../../export/export-format';
import { checkSignature, isSignatureLine, type SignatureCheck } from '../../signing/account-file-signature';
import type { DocumentStream } from './document-stream';
import { SignedBytes } from './signed-bytes';

/**
 * Our own account export (export-format.ts), plain NDJSON or gzip-compressed (told apart by gzip's magic bytes, not
 * the name: a browser may save the compressed download as `.ndjson`, or decompress it). Read as a stream, a line at a
 * time, so memory stays flat whatever the number of results.
 *
 * `scanAccountExport` reads the whole file once before anything is written: the header names the format and a
 * version this instance reads, and the `end` line is there and counts exactly the records before it. A file cut off
 * by a failed download has no `end` line, so it is refused before a single row lands (an account never arrives half).
 * The scan also checks the signature line after the `end` line against the bytes before it (SignedBytes).
 * Then each record type is read by its own pass (`readRecords`); the small types sit at the head of the file, so
 * their passes stop after a few lines, and the results' pass is the one that reads it all.
 */
export class AccountExportError extends Error {}

const GZIP_MAGIC = [0x1f, 0x8b] as const;
/** The writer puts `type` first (`{"type":"result","data":...}`): most lines are told apart without parsing. */
const TYPE_PREFIX = /^\{"type":"([A-Za-z]+)"/;
const KNOWN = new Map<string, number>(DATA_RECORD_TYPES.map((type, i) => [type, i]));

async function isGzipped(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await file.read(head, 0, 2, 0);
    return bytesRead === 2 && head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  } finally {
    await file.close();
  }
}

interface Lines {
  lines: AsyncIterable<string>;
  /** Bytes read from the file (compressed bytes for a gzip file): the ETA's measure. */
  bytesRead(): number;
  close(): void;
}

function openLines(path: string, gzip: boolean, signed?: SignedBytes): Lines {
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 });
  const unzipped = gzip ? file.pipe(createGunzip()) : file;
  if (gzip) file.on('error', (e) => unzipped.destroy(e));
  const source = signed ? unzipped.pipe(signed) : unzipped;
  if (signed) unzipped.on('error', (e: Error) => signed.destroy(e));
  const reader = createInterface({ input: source, crlfDelay: Infinity });
  return {
    lines: reader,
    bytesRead: () => file.bytesRead,
    close: () => {
      reader.close();
      source.destroy();
      unzipped.destroy();
      file.destroy();
    },
  };
}

/** A line's record type without parsing it (null when the line does not start like one of the writer's). */
function typeOf(line: string): string | null {
  return TYPE_PREFIX.exec(line)?.[1] ?? null;
}

function parse(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

const isRecord = (value: unknown): value is { type: string; data: unknown } =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { type?: unknown }).type === 'string' &&
  'data' in value;

/** What the scan found: the header, the account record, how many records of each type, and whom they name. */
export interface ExportScan {
  header: ExportHeader;
  /** The `account` record's data (checked by the importer). */
  account: unknown;
  counts: Map<string, number>;
  /** Uids that connections and reports of users name besides the account's. */
  otherUsers: Set<string>;
  /** Record types this instance does not know (a later version 1 writer's): reported, not imported. */
  unknownTypes: string[];
  gzip: boolean;
  /** The file's size. */
  bytes: number;
  /** What its last line says: signed (and by whom), unsigned, or a signature that does not match the bytes. */
  signature: SignatureCheck;
}

function headerOf(line: string | undefined): ExportHeader {
  const value = line === undefined ? undefined : parse(line);
  const header = value as Partial<ExportHeader> | undefined;
  if (typeof header !== 'object' || header === null || header.format !== EXPORT_FORMAT)
    throw new AccountExportError(
      `not an account export: the first line is not the header of the format ${EXPORT_FORMAT}`,
    );
  if (!Number.isSafeInteger(header.version) || (header.version as number) < 1)
    throw new AccountExportError('the header has no format version');
  if ((header.version as number) > EXPORT_FORMAT_VERSION)
    throw new AccountExportError(
      `the file is format version ${header.version}; this instance reads version ${EXPORT_FORMAT_VERSION} ` +
        '(update this instance first)',
    );
  if (typeof header.uid !== 'string' || typeof header.exportedAt !== 'number')
    throw new AccountExportError('the header has no uid or exportedAt');
  return header as ExportHeader;
}

/** The other users a connection or a report names (the account itself excepted). */
function namedUsers(type: string, data: unknown, uid: string, into: Set<string>): void {
  const d = data as Record<string, unknown> | null;
  if (typeof d !== 'object' || d === null) return;
  const names =
    type === 'connection' ? [d.initiatorUid, d.receiverUid] : d.type === 'user' ? [d.contentId] : [];
  for (const name of names) if (typeof name === 'string' && name !== uid) into.add(name);
}

/**
 * Reads the whole file once (see the file comment) and refuses it, with the reason, when it is not a complete
 * account export this instance reads. Nothing is written.
 */
export async function scanAccountExport(path: string): Promise<ExportScan> {
  const gzip = await isGzipped(path);
  const bytes = (await stat(path)).size;
  const signed = new SignedBytes();
  const source = openLines(path, gzip, signed);
  const counts = new Map<string, number>();
  const otherUsers = new Set<string>();
  let header: ExportHeader | undefined;
  let account: unknown;
  let end: EndData | undefined;
  let signatureLine = false;
  let lastOrder = -1;
  let n = 0;
  try {
    for await (const line of source.lines) {
      n++;
      if (n === 1) {
        header = headerOf(line);
        continue;
      }
      if (end !== undefined) {
        if (line.trim() === '') continue;
        // One signature line may follow the end line (docs/account-files.md); it is checked after the scan.
        if (!signatureLine && isSignatureLine(line)) {
          signatureLine = true;
          continue;
        }
        throw new AccountExportError(`line ${n} follows the end line: the file is damaged`);
      }
      let type = typeOf(line);
      let value: unknown;
      if (
        type === null ||
        type === 'end' ||
        type === 'account' ||
        type === 'connection' ||
        type === 'report'
      ) {
        value = parse(line);
        if (!isRecord(value)) throw new AccountExportError(`line ${n} is not a record: the file is damaged`);
        type = value.type;
      }
      if (type === 'end') {
        end = (value as { data: EndData }).data;
        continue;
      }
      counts.set(type, (counts.get(type) ?? 0) + 1);
      // Records are grouped by type in the format's order (each type's pass stops after its group): one out of its
      // group would be missed, so such a file is refused.
      const order = KNOWN.get(type);
      if (order !== undefined) {
        if (order < lastOrder)
          throw new AccountExportError(
            `line ${n} (a ${type} record) is out of the format's order, after ${DATA_RECORD_TYPES[lastOrder]} records: ` +
              'the file is damaged',
          );
        lastOrder = order;
      }
      const data = (value as { data?: unknown } | undefined)?.data;
      if (type === 'account') account ??= data;
      else if (type === 'connection' || type === 'report') namedUsers(type, data, header!.uid, otherUsers);
    }
  } catch (e) {
    if (e instanceof AccountExportError) throw e;
    const code = (e as { code?: string }).code;
    throw new AccountExportError(
      code?.startsWith('Z_') || /unexpected end|incorrect header check/i.test((e as Error).message)
        ? `the compressed file is cut off or damaged (${(e as Error).message})`
        : `cannot read ${path}: ${(e as Error).message}`,
    );
  } finally {
    source.close();
  }
  if (header === undefined) throw new AccountExportError('the file is empty: not an account export');
  if (end === undefined)
    throw new AccountExportError(
      'the file ends without its end line: the export was cut off (a failed download?); export it again',
    );
  checkCounts(end, counts);
  if (account === undefined) throw new AccountExportError('the file holds no account record');
  const accountUid = (account as { uid?: unknown } | null)?.uid;
  if (accountUid !== header.uid)
    throw new AccountExportError(`the account record's uid is not the header's (${header.uid})`);
  const { digest, lastLine } = signed.result();
  return {
    header,
    account,
    counts,
    otherUsers,
    unknownTypes: [...counts.keys()].filter((type) => !KNOWN.has(type)),
    gzip,
    bytes,
    signature:
      signatureLine && !isSignatureLine(lastLine)
        ? {
            state: 'invalid',
            reason: 'bytes follow the signature line (the file changed since it was signed)',
          }
        : checkSignature(lastLine, digest),
  };
}

/** The end line's counts against the records read: any difference means a damaged or edited file. */
function checkCounts(end: EndData, counts: Map<string, number>): void {
  const declared =
    typeof end === 'object' && end !== null ? (end.counts as Record<string, unknown>) : undefined;
  if (typeof declared !== 'object' || declared === null)
    throw new AccountExportError('the end line holds no counts: the file is damaged');
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const wrong = [...new Set([...Object.keys(declared), ...counts.keys()])]
    .filter((type) => (declared[type] ?? 0) !== (counts.get(type) ?? 0))
    .map(
      (type) =>
        `${counts.get(type) ?? 0} ${type} records where the end line counts ${String(declared[type] ?? 0)}`,
    );
  if (end.records !== total) wrong.push(`${total} records where the end line counts ${String(end.records)}`);
  if (wrong.length > 0)
    throw new AccountExportError(`the file does not match its end line (${wrong.join('; ')}): it is damaged`);
}

/** The source id of a record in reports: its own id where it has one, else its line. */
function recordKey(type: string, data: unknown, line: number): string {
  const d = data as Record<string, unknown> | null;
  const id = typeof d === 'object' && d !== null ? (d.id ?? d.resultId ?? d.uid) : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : `${type} at line ${line}`;
}

/**
 * The records of `types`, as documents `{ _id, type, data }`, in file order. The pass stops at the first record of a
 * type that comes after all of them (types are grouped in the order of DATA_RECORD_TYPES), or at the end line.
 * A line that does not parse is reported (a reject), not fatal: the scan has already proved the file complete.
 */
export function readRecords(path: string, gzip: boolean, types: ReadonlySet<string>): DocumentStream {
  const source = openLines(path, gzip);
  const known = [...types].map((type) => KNOWN.get(type));
  const last = known.includes(undefined) ? Infinity : Math.max(...(known as number[]));
  async function* documents(): DocumentStream['documents'] {
    let n = 0;
    try {
      for await (const line of source.lines) {
        n++;
        if (n === 1 || line === '') continue;
        let type = typeOf(line);
        let value: unknown;
        if (type === null) {
          value = parse(line);
          if (!isRecord(value)) {
            yield { error: `line ${n}: not a record` };
            continue;
          }
          type = value.type;
        }
        if (type === 'end' || (KNOWN.get(type) ?? -1) > last) break;
        if (!types.has(type)) continue;
        value ??= parse(line);
        if (!isRecord(value)) {
          yield { error: `line ${n}: not a record` };
          continue;
        }
        yield { doc: { _id: recordKey(type, value.data, n), type, data: value.data } };
      }
    } finally {
      source.close();
    }
  }
  return { documents: documents(), bytesRead: source.bytesRead };
}

/**
 * The records of `types` folded into one document `{ _id, type: 'account', data: { <type>: [data, ...] } }`: the
 * account and the records that land with it in one transaction (write path's user batch).
 */
export function readAccountDocument(
  path: string,
  gzip: boolean,
  uid: string,
  types: ReadonlySet<string>,
): DocumentStream {
  const records = readRecords(path, gzip, types);
  async function* documents(): DocumentStream['documents'] {
    const data: Record<string, unknown[]> = {};
    for await (const entry of records.documents) {
      if ('error' in entry) {
        yield entry;
        continue;
      }
      const type = entry.doc.type as string;
      (data[type] ??= []).push(entry.doc.data);
    }
    yield { doc: { _id: uid, type: 'account', data } };
  }
  return { documents: documents(), bytesRead: records.bytesRead };
}
