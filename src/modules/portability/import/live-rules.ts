import { PickType } from '@nestjs/swagger';
import { validateStrict } from '../../../common/validation/strict-validation';
import { formatValidationErrors } from '../../../common/validation/validation.pipe';
import { isFunboxName } from '../../results/domain/funboxes';
import { CompletedResultDto } from '../../results/dto/completed-result.dto';
import type { PersonalBestRow } from '../../users/personal-bests';
import type { ResultRow } from './import-records';

/**
 * One set of rules for every imported value (issue 29): modes, mode2, languages, funboxes, difficulties, tags and the
 * figures of a result or a personal best are checked by the very validators of `POST /results` (its DTO's fields and
 * their decorators, picked with PickType and run by the same strict validator), so an importer accepts what the live
 * route accepts. The dump importer and the account importer both call these.
 */

/** The stored fields of a result, under the rules `POST /results` applies to them. */
class StoredResultValues extends PickType(CompletedResultDto, [
  'wpm',
  'rawWpm',
  'acc',
  'mode',
  'mode2',
  'language',
  'timestamp',
  'testDuration',
  'consistency',
  'afkDuration',
  'incompleteTestSeconds',
  'restartCount',
  'punctuation',
  'numbers',
  'funbox',
  'charStats',
  'quoteLength',
  'keyConsistency',
  'chartData',
  'tags',
  'bailedOut',
  'blindMode',
  'lazyMode',
  'stopOnLetter',
  'difficulty',
] as const) {}

/** A personal best's bucket and figures, under the rules of the result it comes from. */
class PersonalBestValues extends PickType(CompletedResultDto, [
  'wpm',
  'rawWpm',
  'acc',
  'consistency',
  'mode',
  'mode2',
  'language',
  'difficulty',
  'punctuation',
  'numbers',
  'lazyMode',
] as const) {}

/**
 * Funboxes the original's clients once offered and its list no longer has (renamed or removed; its funbox list's
 * history). Results of those versions name them: they are kept on such results as the labels they are. No live rule
 * knows them, so such a result sets no personal best here, and the untrusted import path (which judges results as
 * live submissions) refuses it.
 */
export const RETIRED_FUNBOXES: ReadonlySet<string> = new Set([
  'IP',
  'github',
  'no_space',
  'pig_latin',
  'skew',
  't9',
  'upsidedown',
]);

/** A funbox name a result may carry: one the live route knows, or a retired one of the original. */
export function isImportableFunbox(name: unknown): name is string {
  return isFunboxName(name) || (typeof name === 'string' && RETIRED_FUNBOXES.has(name));
}

function problems(instance: object): string | null {
  const errors = validateStrict(instance);
  return errors.length === 0 ? null : formatValidationErrors(errors).join('; ');
}

const orUndefined = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** Why a result's values break the live route's rules (its messages), or null. */
export function resultProblem(row: ResultRow): string | null {
  const values = Object.assign(new StoredResultValues(), {
    wpm: row.wpm,
    rawWpm: row.raw_wpm,
    acc: row.acc,
    mode: row.mode,
    mode2: row.mode2,
    language: row.language,
    timestamp: row.timestamp,
    testDuration: row.test_duration,
    consistency: row.consistency,
    afkDuration: row.afk_duration,
    incompleteTestSeconds: row.incomplete_test_seconds,
    restartCount: row.restart_count,
    punctuation: row.punctuation,
    numbers: row.numbers,
    // Retired names are labels no rule knows (RETIRED_FUNBOXES); the others meet the live list.
    funbox: row.funbox.filter((name) => !RETIRED_FUNBOXES.has(name)),
    charStats: orUndefined(row.char_stats),
    quoteLength: orUndefined(row.quote_length),
    keyConsistency: orUndefined(row.key_consistency),
    chartData: orUndefined(row.chart_data),
    tags: row.tags,
    bailedOut: row.bailed_out,
    blindMode: row.blind_mode,
    lazyMode: row.lazy_mode,
    stopOnLetter: row.stop_on_letter,
    difficulty: row.difficulty,
  });
  return problems(values);
}

/** Why a personal best's bucket or figures break the rules of the result it stands for, or null. */
export function personalBestProblem(pb: PersonalBestRow): string | null {
  return problems(
    Object.assign(new PersonalBestValues(), {
      wpm: pb.wpm,
      rawWpm: pb.raw,
      acc: pb.acc,
      consistency: pb.consistency,
      mode: pb.mode,
      mode2: pb.mode2,
      language: pb.language,
      difficulty: pb.difficulty,
      punctuation: pb.punctuation,
      numbers: pb.numbers,
      lazyMode: pb.lazy_mode,
    }),
  );
}
