import { isValidUid } from '../../../../common/auth/uid';
import { isLanguage } from '../../../../common/languages';
import { stripMarkup } from '../../../users/sanitize';
import type {
  ApeKeyRow,
  ConnectionRow,
  NewQuoteRow,
  PermissionRow,
  PsaRow,
  QuoteRatingRow,
  ReportRow,
} from '../import-records';
import type { BlocklistEntry } from '../../../users/blocklist';
import { accept, Notes, refuse, type Mapped } from '../mapped';
import { entityId } from './user-parts';
import { bool, idText, int, millis, num, objectIdTime, text } from './values';

const uidOf = (value: unknown) => {
  const uid = text(value);
  return uid !== undefined && isValidUid(uid) ? uid : undefined;
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `connections { _id, key, initiatorUid, receiverUid, lastModified, status }` (names are joined here, not stored). */
export function mapConnection(doc: Record<string, unknown>): Mapped<ConnectionRow> {
  const id = entityId(doc._id);
  const initiator = uidOf(doc.initiatorUid);
  const receiver = uidOf(doc.receiverUid);
  if (id === undefined || initiator === undefined || receiver === undefined)
    return refuse('no usable _id or uids');
  if (initiator === receiver) return refuse('a connection of a user with themselves');
  const status = doc.status;
  if (status !== 'pending' && status !== 'accepted' && status !== 'blocked' && status !== 'rejected')
    return refuse(`unknown status ${String(status)}`);
  const lastModified = millis(doc.lastModified) ?? objectIdTime(doc._id) ?? 0;
  return accept({
    id,
    initiator_uid: initiator,
    receiver_uid: receiver,
    status,
    created_at: objectIdTime(doc._id) ?? lastModified,
    last_modified: lastModified,
  });
}

const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const KEY_NAME = /^(?!\.)[0-9a-zA-Z_.-]{1,20}$/;

/**
 * `ape-keys { _id, uid, name, enabled, hash, createdOn, modifiedOn, lastUsedOn, useCount }`. The original hashes the
 * secret itself with bcrypt: stored with that scheme, so `ApeKey <base64url(id.secret)>` keeps working unchanged.
 */
export function mapApeKey(doc: Record<string, unknown>): Mapped<ApeKeyRow> {
  const id = entityId(doc._id);
  const uid = uidOf(doc.uid);
  if (id === undefined || uid === undefined) return refuse('no usable _id or uid');
  const hash = text(doc.hash);
  if (hash === undefined || !BCRYPT.test(hash)) return refuse('hash is not a bcrypt hash');
  const notes = new Notes();
  let name = text(doc.name) ?? '';
  if (!KEY_NAME.test(name)) {
    const cleaned =
      name
        .replace(/[^0-9a-zA-Z_.-]+/g, '_')
        .replace(/^\.+/, '')
        .slice(0, 20) || 'key';
    notes.changed('name', `renamed to ${cleaned} (our key name rule)`, name);
    name = cleaned;
  }
  const createdOn = millis(doc.createdOn) ?? objectIdTime(doc._id) ?? 0;
  const lastUsed = num(doc.lastUsedOn);
  return accept(
    {
      id,
      uid,
      name,
      enabled: bool(doc.enabled) ?? false,
      hash,
      hash_scheme: 'bcrypt',
      created_on: createdOn,
      modified_on: millis(doc.modifiedOn) ?? createdOn,
      last_used_on: lastUsed === undefined || lastUsed < 0 ? -1 : Math.round(lastUsed),
    },
    notes.list,
  );
}

const HASH = /^[0-9a-f]{64}$/;

/** `blocklist { usernameHash | emailHash | discordIdHash, timestamp }` (SHA-256 hex of the lower-cased value). */
export function mapBlocklist(
  doc: Record<string, unknown>,
): Mapped<(BlocklistEntry & { created_at: number })[]> {
  const created = millis(doc.timestamp) ?? objectIdTime(doc._id) ?? 0;
  const entries: (BlocklistEntry & { created_at: number })[] = [];
  for (const [field, kind] of [
    ['usernameHash', 'name'],
    ['emailHash', 'email'],
    ['discordIdHash', 'chatId'],
  ] as const) {
    const hash = text(doc[field])?.toLowerCase();
    if (hash === undefined) continue;
    if (!HASH.test(hash)) return refuse(`${field} is not a SHA-256 hex digest`);
    entries.push({ kind, hash, created_at: created });
  }
  return entries.length === 0 ? refuse('no hash') : accept(entries);
}

/** `new-quotes { _id, text, source, language, submittedBy, timestamp, approved }`: the pending submissions. */
export function mapNewQuote(doc: Record<string, unknown>): Mapped<NewQuoteRow> {
  const id = entityId(doc._id);
  const uid = uidOf(doc.submittedBy);
  if (id === undefined || uid === undefined) return refuse('no usable _id or submitter');
  if (doc.approved === true) return refuse('approved: approved quotes live in the client’s quote lists');
  const quote = text(doc.text);
  const source = text(doc.source);
  const language = text(doc.language)?.toLowerCase();
  if (!quote || !source) return refuse('no text or source');
  if (language === undefined || !isLanguage(language))
    return refuse(`unknown language ${String(doc.language)}`);
  return accept({
    id,
    uid,
    text: quote,
    source,
    language,
    submitted_at: millis(doc.timestamp) ?? objectIdTime(doc._id) ?? 0,
  });
}

/** `quote-rating { _id, quoteId, language, ratings, totalRating, average }` (the average is derived here). */
export function mapQuoteRating(doc: Record<string, unknown>): Mapped<QuoteRatingRow> {
  const id = idText(doc._id);
  const quoteId = int(doc.quoteId, 0);
  const language = text(doc.language);
  const ratings = int(doc.ratings);
  const total = int(doc.totalRating);
  if (id === undefined || quoteId === undefined || quoteId > 2_147_483_647)
    return refuse('no usable _id or quoteId');
  if (language === undefined || !isLanguage(language))
    return refuse(`unknown language ${String(doc.language)}`);
  if (ratings === undefined || total === undefined || total > ratings * 5)
    return refuse('inconsistent rating counts');
  return accept({ id, language, quote_id: quoteId, ratings, total_rating: total });
}

/** `reports { _id, id, type, timestamp, uid, contentId, reason, comment }` (quote and user reports). */
export function mapReport(doc: Record<string, unknown>): Mapped<ReportRow> {
  const uid = uidOf(doc.uid);
  const reportId = text(doc.id);
  if (uid === undefined || reportId === undefined || !UUID.test(reportId))
    return refuse('no reporter or report id');
  const contentId = text(doc.contentId);
  const reason = text(doc.reason);
  if (contentId === undefined || reason === undefined) return refuse('no contentId or reason');
  const notes = new Notes();
  let comment = stripMarkup(text(doc.comment) ?? '').replace(/[/<>]/g, '');
  if (comment.length > 250) comment = comment.slice(0, 250);
  if (comment !== (text(doc.comment) ?? '')) notes.changed('comment', 'cut to our comment rule', doc.comment);
  let quoteId: number | null = null;
  let quoteLanguage: string | null = null;
  if (doc.type === 'quote') {
    const match = /^(.+)-(\d{1,9})$/.exec(contentId);
    if (!match || !isLanguage(match[1])) return refuse(`contentId ${contentId} is not <language>-<quoteId>`);
    quoteLanguage = match[1] as string;
    quoteId = Number(match[2]);
  } else if (doc.type !== 'user') return refuse(`unknown type ${String(doc.type)}`);
  return accept(
    {
      id: reportId.toLowerCase(),
      uid,
      type: doc.type,
      content_id: contentId,
      quote_id: quoteId,
      quote_language: quoteLanguage,
      reason,
      comment,
      created_at: millis(doc.timestamp) ?? objectIdTime(doc._id) ?? 0,
    },
    notes.list,
  );
}

/** `psa { _id, message, date?, level?, sticky? }`. */
export function mapPsa(doc: Record<string, unknown>): Mapped<PsaRow> {
  const id = entityId(doc._id);
  const message = text(doc.message);
  if (id === undefined || !message) return refuse('no usable _id or message');
  return accept({
    id,
    message,
    date: millis(doc.date) ?? null,
    level: int(doc.level, Number.MIN_SAFE_INTEGER) ?? null,
    sticky: bool(doc.sticky) ?? null,
    created_at: objectIdTime(doc._id) ?? 0,
  });
}

/** `admin-uids { uid }`: the admin permission here. */
export function mapAdminUid(doc: Record<string, unknown>): Mapped<PermissionRow> {
  const uid = uidOf(doc.uid);
  return uid === undefined
    ? refuse('no valid uid')
    : accept({ uid, permission: 'admin', granted_at: objectIdTime(doc._id) ?? 0 });
}
