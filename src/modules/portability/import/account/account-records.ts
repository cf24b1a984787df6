import type {
  ConfigData,
  ConnectionData,
  PresetData,
  QuoteSubmissionData,
  ReportData,
  ResultData,
  ResultReviewData,
} from '../../export/export-format';
import type {
  ConfigRow,
  ConnectionRow,
  NewQuoteRow,
  PresetRow,
  ReportRow,
  ResultReviewRow,
  ResultRow,
} from '../import-records';
import { resultProblem } from '../live-rules';
import { accept, refuse, type Mapped } from '../mapped';
import { shapeProblem, strings, type Shape } from './fields';

/**
 * The account export's records other than the account's bundle, each to the write path's row (pure functions). The
 * account's uid is the header's in the file (`sourceUid`) and `uid` here (the same unless the operator gave `--uid`).
 */
export interface RecordTarget {
  uid: string;
  sourceUid: string;
  /** Other users named by the file (connections, reports of users) that are on this instance. */
  present: ReadonlySet<string>;
}

/** Records left out on purpose (not refused): the summary counts them by reason. */
export type LeftOut = (reason: string) => void;

export const LEFT_OUT = {
  absentUser: 'the other user is not on this instance',
  apeKey: 'an export holds no key secret: the user makes new keys here',
  approvedQuote: "public content of the source instance's quote list, not the account's",
  refusedResult:
    'the quarantine of the instance that refused it: replayed there (results replay), never carried over',
  decision: 'a rejected or blocked request is a decision about a request never made here',
  request: 'a connection from an untrusted file becomes a pending request from the account',
  folded:
    "taken into its result's judgment here: a hold or rejection at the source holds the result, an approval counts for nothing",
} as const;

export function mapConfig(data: unknown, target: RecordTarget): Mapped<ConfigRow[]> {
  const problem = shapeProblem(data, { config: 'object', updatedAt: 'integer' });
  if (problem !== null) return refuse(problem);
  const c = data as ConfigData;
  return accept([{ uid: target.uid, config: c.config as ConfigRow['config'], updated_at: c.updatedAt }]);
}

export function mapPreset(data: unknown, target: RecordTarget): Mapped<PresetRow[]> {
  const problem = shapeProblem(data, {
    id: 'string',
    name: 'string',
    config: 'object',
    settingGroups: 'array?',
    createdAt: 'integer',
  });
  if (problem !== null) return refuse(problem);
  const p = data as PresetData;
  if (p.settingGroups !== null && !strings(p.settingGroups))
    return refuse('settingGroups is not a list of names');
  return accept([
    {
      id: p.id,
      uid: target.uid,
      name: p.name,
      config: p.config as PresetRow['config'],
      setting_groups: p.settingGroups,
      created_at: p.createdAt,
    },
  ]);
}

const STATUSES = new Set(['pending', 'accepted', 'rejected', 'blocked']);

/** A connection of the account; one whose other user is not here is left out (it cannot exist without them). */
export function mapConnection(
  data: unknown,
  target: RecordTarget,
  leftOut: LeftOut,
): Mapped<ConnectionRow[]> {
  const problem = shapeProblem(data, {
    id: 'string',
    initiatorUid: 'string',
    receiverUid: 'string',
    status: 'string',
    createdAt: 'integer',
    lastModified: 'integer',
  });
  if (problem !== null) return refuse(problem);
  const c = data as ConnectionData;
  if (!STATUSES.has(c.status)) return refuse(`unknown status ${c.status}`);
  const mine = c.initiatorUid === target.sourceUid;
  if (!mine && c.receiverUid !== target.sourceUid) return refuse('not a connection of the exported account');
  const other = mine ? c.receiverUid : c.initiatorUid;
  if (other === target.sourceUid) return refuse('a connection of the account with itself');
  if (!target.present.has(other)) {
    leftOut(LEFT_OUT.absentUser);
    return accept([]);
  }
  return accept([
    {
      id: c.id,
      initiator_uid: mine ? target.uid : other,
      receiver_uid: mine ? other : target.uid,
      status: c.status as ConnectionRow['status'],
      created_at: c.createdAt,
      last_modified: c.lastModified,
    },
  ]);
}

/**
 * The untrusted path's connection (issue 29): a friendship the file claims is not taken, it is asked for. An accepted
 * or pending connection with a user who is here becomes a pending request from the account, which the other user
 * accepts or not; a rejected or blocked one (a decision about a request never made here) is left out.
 */
export function mapConnectionRequest(
  data: unknown,
  target: RecordTarget,
  leftOut: LeftOut,
): Mapped<ConnectionRow[]> {
  const mapped = mapConnection(data, target, leftOut);
  if (!mapped.ok || mapped.value.length === 0) return mapped;
  const [row] = mapped.value as [ConnectionRow];
  const other = row.initiator_uid === target.uid ? row.receiver_uid : row.initiator_uid;
  if (row.status === 'rejected' || row.status === 'blocked') {
    leftOut(LEFT_OUT.decision);
    return accept([], [{ path: 'status', action: 'left out', reason: LEFT_OUT.decision, value: row.status }]);
  }
  const request: ConnectionRow = {
    ...row,
    initiator_uid: target.uid,
    receiver_uid: other,
    status: 'pending',
  };
  const changed =
    row.status === 'pending' && row.initiator_uid === target.uid
      ? []
      : [{ path: 'status', action: 'changed' as const, reason: LEFT_OUT.request, value: row.status }];
  return accept([request], changed);
}

export function mapQuoteSubmission(data: unknown, target: RecordTarget): Mapped<NewQuoteRow[]> {
  const problem = shapeProblem(data, {
    id: 'string',
    text: 'string',
    source: 'string',
    language: 'string',
    submittedAt: 'integer',
  });
  if (problem !== null) return refuse(problem);
  const q = data as QuoteSubmissionData;
  return accept([
    {
      id: q.id,
      uid: target.uid,
      text: q.text,
      source: q.source,
      language: q.language,
      submitted_at: q.submittedAt,
    },
  ]);
}

/** A report the account filed; one about a user who is not here is left out, like a connection to them. */
export function mapReport(data: unknown, target: RecordTarget, leftOut: LeftOut): Mapped<ReportRow[]> {
  const problem = shapeProblem(data, {
    id: 'string',
    type: 'string',
    contentId: 'string',
    quoteId: 'integer?',
    quoteLanguage: 'string?',
    reason: 'string',
    comment: 'string',
    createdAt: 'integer',
  });
  if (problem !== null) return refuse(problem);
  const r = data as ReportData;
  if (r.type !== 'quote' && r.type !== 'user') return refuse(`unknown report type ${r.type}`);
  if (r.type === 'user' && !target.present.has(r.contentId)) {
    leftOut(LEFT_OUT.absentUser);
    return accept([]);
  }
  return accept([
    {
      id: r.id,
      uid: target.uid,
      type: r.type,
      content_id: r.contentId,
      quote_id: r.quoteId,
      quote_language: r.quoteLanguage,
      reason: r.reason,
      comment: r.comment,
      created_at: r.createdAt,
    },
  ]);
}

const REVIEW_STATUSES = new Set(['held', 'approved', 'rejected']);

/** A review of one of the account's results; the deciding moderator is not in the file (another user). */
export function mapResultReview(data: unknown, target: RecordTarget): Mapped<ResultReviewRow[]> {
  const problem = shapeProblem(data, {
    resultId: 'string',
    status: 'string',
    reasons: 'array',
    keyTiming: 'object?',
    result: 'object',
    heldAt: 'integer',
    decidedAt: 'integer?',
    decisionReason: 'string?',
  });
  if (problem !== null) return refuse(problem);
  const r = data as ResultReviewData;
  if (!REVIEW_STATUSES.has(r.status)) return refuse(`unknown status ${r.status}`);
  return accept([
    {
      result_id: r.resultId,
      uid: target.uid,
      status: r.status,
      reasons: r.reasons,
      key_timing: r.keyTiming,
      result: r.result,
      held_at: r.heldAt,
      decided_by: null,
      decided_at: r.decidedAt,
      decision_reason: r.decisionReason,
    },
  ]);
}

const RESULT_SHAPE: Shape = {
  id: 'string',
  timestamp: 'integer',
  name: 'string',
  wpm: 'number',
  rawWpm: 'number',
  acc: 'number',
  consistency: 'number',
  keyConsistency: 'number?',
  charStats: 'array?',
  mode: 'string',
  mode2: 'string',
  quoteLength: 'integer?',
  language: 'string',
  difficulty: 'string',
  punctuation: 'boolean',
  numbers: 'boolean',
  lazyMode: 'boolean',
  blindMode: 'boolean',
  bailedOut: 'boolean',
  stopOnLetter: 'boolean',
  funbox: 'array',
  tags: 'array',
  testDuration: 'number',
  afkDuration: 'number',
  incompleteTestSeconds: 'number',
  restartCount: 'integer',
  isPb: 'boolean',
  xp: 'integer',
  chartData: 'json',
  keySpacingStats: 'json',
  keyDurationStats: 'json',
};
/** One result, every stored field as exported, under the account's uid here; its values meet the live rules. */
export function mapResult(data: unknown, target: RecordTarget): Mapped<ResultRow[]> {
  const row = resultRow(data, target);
  if (typeof row === 'string') return refuse(row);
  const problem = resultProblem(row);
  return problem === null ? accept([row]) : refuse(problem);
}

/** The row of a result record, or why the record has not the shape of one. */
export function resultRow(data: unknown, target: RecordTarget): ResultRow | string {
  const problem = shapeProblem(data, RESULT_SHAPE);
  if (problem !== null) return problem;
  const r = data as ResultData;
  if (!strings(r.funbox) || !strings(r.tags)) return 'funbox or tags is not a list of names';
  if (r.charStats !== null && !r.charStats.every((n) => Number.isSafeInteger(n)))
    return 'charStats is not a list of counts';
  return {
    id: r.id,
    uid: target.uid,
    timestamp: r.timestamp,
    name: r.name,
    wpm: r.wpm,
    raw_wpm: r.rawWpm,
    acc: r.acc,
    consistency: r.consistency,
    key_consistency: r.keyConsistency,
    char_stats: r.charStats,
    mode: r.mode,
    mode2: r.mode2,
    quote_length: r.quoteLength,
    language: r.language,
    difficulty: r.difficulty,
    punctuation: r.punctuation,
    numbers: r.numbers,
    lazy_mode: r.lazyMode,
    blind_mode: r.blindMode,
    bailed_out: r.bailedOut,
    funbox: r.funbox,
    tags: r.tags,
    test_duration: r.testDuration,
    afk_duration: r.afkDuration,
    incomplete_test_seconds: r.incompleteTestSeconds,
    restart_count: r.restartCount,
    is_pb: r.isPb,
    chart_data: r.chartData,
    key_spacing_stats: r.keySpacingStats,
    key_duration_stats: r.keyDurationStats,
    xp: r.xp,
    stop_on_letter: r.stopOnLetter,
  };
}
