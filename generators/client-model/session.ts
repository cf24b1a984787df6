import { Random } from '../human-typing';
import type { ClientConfig } from './client';
import type { EventLog } from './event-log';
import { LANGUAGES } from './languages';
import { clientRefusal, completedEvent, sentResult, type ClientResult, type IncompleteTest } from './result';
import { abandonedTest, TestRun, type RunTiming } from './runner';
import { drawSpec, type SessionSpec } from './spec';
import { NOSPACE_FUNBOXES, quoteWords, testWords } from './text';
import { Typist } from './typist';

/**
 * One typing session of the model, reproducible from its seed: a test drawn (spec.ts), restarted tests before it,
 * the test typed out against the client (runner.ts), its event log, the result the client computes from it, whether
 * the client sends it (its own checks in `finish`), and the body it sends.
 */
export interface Session {
  seed: number;
  spec: SessionSpec;
  log: EventLog | null;
  /** The result as the client computed it (arrays kept), when the test ended. */
  result: ClientResult | null;
  /** Why the client does not send it (too short, afk, failed, accuracy...), or null. */
  unsent: string | null;
  /** The body the client sends (tests over 122 s with "toolong" arrays), when it sends one. */
  body: ClientResult | null;
}

/** The client config of a spec: its words (enough for the fastest typist in a timed test), limits, modes. */
export function clientConfig(rng: Random, spec: SessionSpec): ClientConfig {
  const model = LANGUAGES[spec.languageModel]!;
  const text = {
    language: model,
    punctuation: spec.punctuation,
    numbers: spec.numbers,
    lazyMode: spec.lazyMode,
    funbox: spec.funbox,
  };
  const { mode, custom } = spec;
  const timeLimit = mode === 'time' ? spec.length : custom?.limit === 'time' ? custom.value : 0;
  const untimedSeconds = (spec.endAtMs ?? 0) / 1000;
  const seconds = timeLimit > 0 ? timeLimit : untimedSeconds;
  const enough = Math.ceil((seconds * spec.profile.wpm * 5 * 1.3) / 60 / 3) + 30;
  let words: string[];
  let allWordsGenerated = true;
  if (mode === 'zen') {
    words = [];
    allWordsGenerated = false;
  } else if (mode === 'quote') words = quoteWords(rng, model, spec.quote!.group);
  else if (mode === 'words' && spec.length > 0) words = testWords(rng, text, spec.length);
  else if (mode === 'custom' && custom!.limit === 'word') words = customWords(rng, spec, custom!.value);
  else if (mode === 'custom' && custom!.limit === 'section')
    words = customWords(rng, spec, custom!.value * rng.int(1, 4));
  else {
    allWordsGenerated = false;
    words = mode === 'custom' ? customWords(rng, spec, enough) : testWords(rng, text, enough);
  }
  return {
    mode,
    mode2:
      mode === 'quote'
        ? String(spec.quote!.id)
        : mode === 'time' || mode === 'words'
          ? String(spec.length)
          : mode,
    timeLimit,
    customLimit: custom ? { mode: custom.limit, value: custom.value } : undefined,
    words,
    allWordsGenerated,
    language: spec.language,
    nospace: spec.funbox.some((f) => NOSPACE_FUNBOXES.has(f)),
    stopOnError: spec.stopOnError,
    difficulty: spec.difficulty,
    canBailOut:
      (mode === 'time' && (spec.length === 0 || spec.length >= 900)) ||
      (mode === 'words' && (spec.length === 0 || spec.length >= 1000)),
  };
}

/** A custom text's words: its text (`textLen` words) repeated, shuffled or drawn at random up to the limit. */
function customWords(rng: Random, spec: SessionSpec, count: number): string[] {
  const model = LANGUAGES[spec.languageModel]!;
  const text = testWords(
    rng,
    {
      language: model,
      punctuation: spec.punctuation,
      numbers: spec.numbers,
      lazyMode: spec.lazyMode,
      funbox: spec.funbox,
    },
    spec.custom!.textLen,
  );
  const out: string[] = [];
  while (out.length < count) {
    if (spec.custom!.textMode === 'random') out.push(text[rng.int(0, text.length - 1)]!);
    else {
      const round = spec.custom!.textMode === 'shuffle' ? [...text].sort(() => rng.next() - 0.5) : text;
      out.push(...round.slice(0, count - out.length));
    }
  }
  return out;
}

function timing(rng: Random, spec: SessionSpec): RunTiming {
  return {
    rng,
    profile: spec.profile,
    firstKeyMs: Math.round((5000 + rng.next() * 900_000) * 10) / 10,
    dateOffsetMs: 1_795_000_000_000 + Math.floor(rng.next() * 1e9),
    emulated: spec.emulatedLayout,
    releaseWindowMs: rng.next() < 0.1 ? rng.next() * 20 : 125 + rng.next() * 60,
  };
}

function typist(rng: Random, spec: SessionSpec, config: ClientConfig): Typist {
  const model = LANGUAGES[spec.languageModel]!;
  return new Typist(
    spec.profile,
    {
      typing: model.typing,
      alphabet: model.letters,
      readings: model.readings,
      nospace: config.nospace,
      stopOnError: spec.stopOnError,
      mustFix: spec.stopOnError === 'word' || spec.difficulty === 'expert',
      blind: spec.blindMode,
      zenWords:
        spec.mode === 'zen'
          ? model.words.map((_, i) => model.words[(i * 7919) % model.words.length]!)
          : undefined,
      endAtMs: spec.endAtMs,
    },
    rng,
  );
}

/** Plays the session of a seed (its spec drawn from the seed, with `fixed` fields as given). */
export function playSession(seed: number, fixed: Partial<SessionSpec> = {}): Session {
  const rng = new Random(seed);
  const spec = drawSpec(rng, fixed);
  const incompleteTests: IncompleteTest[] = [];
  for (let i = 0; i < spec.restarts; i++) {
    const config = clientConfig(rng, spec);
    const abandoned = abandonedTest(
      new TestRun(config, typist(rng, spec, config), timing(rng, spec)),
      300 + rng.next() * 9000,
      100 + rng.next() * 1500,
    );
    if (abandoned) incompleteTests.push(abandoned);
  }
  const config = clientConfig(rng, spec);
  const run = new TestRun(config, typist(rng, spec, config), timing(rng, spec));
  const { client, log, endDateMs } = run.run();
  if (!log)
    return { seed, spec, log: null, result: null, unsent: client.failed ?? 'never ended', body: null };
  const result = completedEvent(log, {
    language: spec.language,
    punctuation: spec.punctuation,
    numbers: spec.numbers,
    lazyMode: spec.lazyMode,
    blindMode: spec.blindMode,
    stopOnLetter: spec.stopOnError === 'letter',
    difficulty: spec.difficulty,
    funbox: spec.funbox,
    tags: spec.tags,
    quote: spec.quote,
    customText: spec.custom && {
      textLen: spec.custom.textLen,
      mode: spec.custom.textMode,
      pipeDelimiter: spec.custom.limit === 'section',
      limit: { mode: spec.custom.limit, value: spec.custom.value },
    },
    incompleteTests,
    timestamp: endDateMs + 200 + rng.int(0, 50),
  });
  const unsent = clientRefusal(log, result, { failed: client.failed !== null, lbOptOut: false });
  return { seed, spec, log, result, unsent, body: unsent === null ? sentResult(result) : null };
}

/**
 * Genuine bodies: sessions from `firstSeed` on, keeping those the client sends, until `count`. Returns the bodies
 * with their seeds and how many sessions the client kept to itself, per reason.
 */
export function* genuineSessions(
  firstSeed: number,
  count: number,
  fixed: Partial<SessionSpec> = {},
): Generator<Session> {
  let sent = 0;
  for (let seed = firstSeed; sent < count; seed++) {
    const session = playSession(seed >>> 0, fixed);
    if (session.body) sent++;
    yield session;
  }
}
