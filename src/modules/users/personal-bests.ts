import type { Int } from '../../common/int';

export const MODES = ['time', 'words', 'quote', 'zen', 'custom'] as const;
export type Mode = (typeof MODES)[number];

export interface PersonalBest {
  acc: number;
  consistency: number;
  difficulty: string;
  lazyMode: boolean;
  language: string;
  punctuation: boolean;
  numbers: boolean;
  raw: number;
  wpm: number;
  timestamp: Int;
}

/** Spec "User": keys `time`, `words`, `quote`, `zen`, `custom`, each mapping a mode2 to its records. */
export type PersonalBests = Record<Mode, Record<string, PersonalBest[]>>;

export interface PersonalBestRow {
  mode: string;
  mode2: string;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazy_mode: boolean;
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: Int;
}

/** The columns of a `PersonalBestRow`, in the order the tables `personal_bests` and `tag_personal_bests` list them. */
export const PERSONAL_BEST_COLUMNS = [
  'mode',
  'mode2',
  'language',
  'difficulty',
  'punctuation',
  'numbers',
  'lazy_mode',
  'wpm',
  'acc',
  'raw',
  'consistency',
  'timestamp',
] as const satisfies readonly (keyof PersonalBestRow)[];

export function emptyPersonalBests(): PersonalBests {
  return { time: {}, words: {}, quote: {}, zen: {}, custom: {} };
}

export function groupPersonalBests(rows: PersonalBestRow[]): PersonalBests {
  const bests = emptyPersonalBests();
  for (const row of rows) {
    if (!(MODES as readonly string[]).includes(row.mode)) continue;
    const byMode2 = bests[row.mode as Mode];
    (byMode2[row.mode2] ??= []).push({
      acc: row.acc,
      consistency: row.consistency,
      difficulty: row.difficulty,
      lazyMode: row.lazy_mode,
      language: row.language,
      punctuation: row.punctuation,
      numbers: row.numbers,
      raw: row.raw,
      wpm: row.wpm,
      timestamp: row.timestamp,
    });
  }
  return bests;
}

const PROFILE_MODE2 = { time: ['15', '30', '60', '120'], words: ['10', '25', '50', '100'] } as const;

/** Spec "User": profiles expose only time 15, 30, 60, 120 and words 10, 25, 50, 100. */
export function profilePersonalBests(bests: PersonalBests): Pick<PersonalBests, 'time' | 'words'> {
  const pick = (mode: 'time' | 'words') =>
    Object.fromEntries(
      PROFILE_MODE2[mode].filter((m2) => bests[mode][m2] !== undefined).map((m2) => [m2, bests[mode][m2]]),
    ) as Record<string, PersonalBest[]>;
  return { time: pick('time'), words: pick('words') };
}
