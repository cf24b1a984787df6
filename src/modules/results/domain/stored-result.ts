import type { CompletedResultDto } from '../dto/completed-result.dto';
import { keyStats, type KeyStats } from './key-stats';

/** What a result stores beyond what its body says: where it was saved, for whom, and what it counted for. */
export interface StoredFacts {
  id: string;
  uid: string;
  /** Server time, whole seconds. */
  timestamp: number;
  /** The account's name at the time (null: the account's current name, where a writer fills it in). */
  name: string | null;
  /** The tags it is stored with (the account's own). */
  tags: string[];
  isPb: boolean;
  xp: number;
}

/** The key timing summaries a result keeps (the raw arrays are not stored). */
export function keyTimingStats(result: Pick<CompletedResultDto, 'keySpacing' | 'keyDuration'>): {
  spacing: KeyStats | null;
  duration: KeyStats | null;
} {
  return { spacing: keyStats(result.keySpacing), duration: keyStats(result.keyDuration) };
}

/**
 * The stored row of a submitted result, every column (snake case, JSON columns as values): `POST /results` writes it,
 * and so does the reinstatement of a quarantined result through the import's write path.
 */
export function storedResultColumns(
  result: CompletedResultDto,
  facts: StoredFacts,
  keys: { spacing: KeyStats | null; duration: KeyStats | null } = keyTimingStats(result),
) {
  return {
    id: facts.id,
    uid: facts.uid,
    timestamp: facts.timestamp,
    name: facts.name,
    wpm: result.wpm,
    raw_wpm: result.rawWpm,
    acc: result.acc,
    consistency: result.consistency,
    key_consistency: result.keyConsistency ?? null,
    char_stats: result.charStats ?? null,
    mode: result.mode,
    mode2: result.mode2,
    quote_length: result.quoteLength ?? null,
    language: result.language,
    difficulty: result.difficulty,
    punctuation: result.punctuation,
    numbers: result.numbers,
    lazy_mode: result.lazyMode,
    blind_mode: result.blindMode,
    bailed_out: result.bailedOut,
    funbox: result.funbox,
    tags: facts.tags,
    test_duration: result.testDuration,
    afk_duration: result.afkDuration,
    incomplete_test_seconds: result.incompleteTestSeconds,
    restart_count: result.restartCount,
    is_pb: facts.isPb,
    chart_data: result.chartData ?? null,
    key_spacing_stats: keys.spacing,
    key_duration_stats: keys.duration,
    // Board facts: the daily and weekly XP boards are rebuilt from these after a Redis outage.
    xp: facts.xp,
    stop_on_letter: result.stopOnLetter,
  };
}
