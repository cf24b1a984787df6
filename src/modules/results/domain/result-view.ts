import type { Int } from '../../../common/int';
import type { KeyStats } from './key-stats';

/** A stored result row as the repository reads it (camelCase). */
export interface ResultRecord {
  id: string;
  uid: string;
  timestamp: number;
  wpm: number;
  rawWpm: number;
  acc: number;
  consistency: number;
  keyConsistency: number | null;
  charStats: number[] | null;
  mode: string;
  mode2: string;
  quoteLength: number | null;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  blindMode: boolean;
  bailedOut: boolean;
  funbox: string[];
  tags: string[];
  testDuration: number;
  afkDuration: number;
  incompleteTestSeconds: number;
  restartCount: number;
  isPb: boolean;
  /** Only on single-result reads. */
  name?: string;
  chartData?: unknown;
  keySpacingStats?: KeyStats | null;
  keyDurationStats?: KeyStats | null;
}

/**
 * A result as the API answers it (`GET /results`, `/results/last`, `/results/id/:resultId`). Optional fields are left
 * out at their default value; the single-result reads add the name, the chart and the key statistics.
 */
export interface ApiResult {
  _id: string;
  uid: string;
  wpm: number;
  rawWpm: number;
  acc: number;
  mode: string;
  mode2: string;
  timestamp: Int;
  testDuration: number;
  consistency: number;
  charStats?: Int[];
  keyConsistency?: number;
  quoteLength?: Int;
  language?: string;
  difficulty?: string;
  punctuation?: true;
  numbers?: true;
  lazyMode?: true;
  blindMode?: true;
  bailedOut?: true;
  isPb?: true;
  funbox?: string[];
  tags?: string[];
  afkDuration?: number;
  incompleteTestSeconds?: number;
  restartCount?: Int;
  name?: string;
  /** As stored: the three per-second lists, or the original platform's "toolong" for a long test. */
  chartData?: unknown;
  keySpacingStats?: KeyStats;
  keyDurationStats?: KeyStats;
}

/**
 * The result as the API returns it. Like the original platform, fields at their default value (false, 0, [],
 * "normal", "english", no quote length outside quote mode) are left out; its clients fill the defaults back in.
 */
export function toApiResult(r: ResultRecord): ApiResult {
  const out: ApiResult = {
    _id: r.id,
    uid: r.uid,
    wpm: r.wpm,
    rawWpm: r.rawWpm,
    acc: r.acc,
    mode: r.mode,
    mode2: r.mode2,
    timestamp: r.timestamp,
    testDuration: r.testDuration,
    consistency: r.consistency,
  };
  if (r.charStats !== null) out.charStats = r.charStats;
  if (r.keyConsistency !== null) out.keyConsistency = r.keyConsistency;
  if (r.mode === 'quote' && r.quoteLength !== null) out.quoteLength = r.quoteLength;
  if (r.language !== 'english') out.language = r.language;
  if (r.difficulty !== 'normal') out.difficulty = r.difficulty;
  if (r.punctuation) out.punctuation = true;
  if (r.numbers) out.numbers = true;
  if (r.lazyMode) out.lazyMode = true;
  if (r.blindMode) out.blindMode = true;
  if (r.bailedOut) out.bailedOut = true;
  if (r.isPb) out.isPb = true;
  if (r.funbox.length > 0) out.funbox = r.funbox;
  if (r.tags.length > 0) out.tags = r.tags;
  if (r.afkDuration !== 0) out.afkDuration = r.afkDuration;
  if (r.incompleteTestSeconds !== 0) out.incompleteTestSeconds = r.incompleteTestSeconds;
  if (r.restartCount !== 0) out.restartCount = r.restartCount;
  if (r.name !== undefined) out.name = r.name;
  if (r.chartData !== undefined && r.chartData !== null) out.chartData = r.chartData;
  if (r.keySpacingStats) out.keySpacingStats = r.keySpacingStats;
  if (r.keyDurationStats) out.keyDurationStats = r.keyDurationStats;
  return out;
}
