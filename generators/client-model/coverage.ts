import type { EventLog } from './event-log';
import { inputOfEvent } from './stats';
import type { Session } from './session';

/**
 * What a session holds, read back from its log and body: which behaviours the generated corpus covers (the test
 * asserts each shows up; the corpus script prints how often).
 */
export const BEHAVIOURS = [
  'wrong letter left in',
  'letters past the word end',
  'space pressed early',
  'corrected with backspace',
  'word cleared with ctrl+backspace',
  'went back into a committed word',
  'several characters in one insert',
  'input method composition',
  'stopped insert (stop on letter)',
  'key without a code (phone)',
  'dead key before a letter',
  'time away (afk seconds)',
  'abandoned (bailed out)',
  'restarted tests before it',
  'over 122 s ("toolong")',
  'punctuation',
  'numbers',
  'funbox',
  'non-Latin alphabet',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

function wordOutcomes(log: EventLog): Set<Behaviour> {
  const found = new Set<Behaviour>();
  const finalInput = new Map<number, string>();
  const committed = new Set<number>();
  let lastInsertMs = NaN;
  let keysSinceInput = 0;
  let composing = false;
  for (const e of log.events) {
    if (e.type === 'keydown') {
      if (e.data.code.startsWith('NoCode')) found.add('key without a code (phone)');
      // Two keys before one character (outside a composition): a dead key and its letter.
      if (++keysSinceInput === 2 && !composing && e.testMs > 0) found.add('dead key before a letter');
    }
    if (e.type === 'composition') {
      found.add('input method composition');
      composing = e.data.event !== 'end';
    }
    if (e.type !== 'input') continue;
    keysSinceInput = 0;
    const d = e.data;
    finalInput.set(d.wordIndex, inputOfEvent(d));
    if (d.inputType === 'insertText') {
      if (d.inputStopped) found.add('stopped insert (stop on letter)');
      if (e.testMs === lastInsertMs && !d.isCompositionEnding) found.add('several characters in one insert');
      lastInsertMs = e.testMs;
      if (
        d.commitsWord &&
        d.data === ' ' &&
        d.charIndex < (log.context.targetWords[d.wordIndex]?.length ?? 0) - 1
      ) {
        found.add('space pressed early');
      }
      if (d.commitsWord) committed.add(d.wordIndex);
    } else {
      if (committed.has(d.wordIndex)) found.add('went back into a committed word');
      found.add(
        d.inputType === 'deleteWordBackward'
          ? 'word cleared with ctrl+backspace'
          : 'corrected with backspace',
      );
    }
  }
  for (const [index, input] of finalInput) {
    const target = log.context.targetWords[index];
    if (target === undefined || input === target) continue;
    const typed = input.endsWith(' ') ? input.slice(0, -1) : input;
    const wanted = target.endsWith(' ') ? target.slice(0, -1) : target;
    if (typed.length > wanted.length) found.add('letters past the word end');
    else if (typed.length === wanted.length && typed !== wanted) found.add('wrong letter left in');
  }
  return found;
}

export function behavioursOf(session: Session): Set<Behaviour> {
  const found = session.log ? wordOutcomes(session.log) : new Set<Behaviour>();
  const body = session.body ?? session.result;
  if (!body) return found;
  if (body.afkDuration > 0) found.add('time away (afk seconds)');
  if (body.bailedOut) found.add('abandoned (bailed out)');
  if (body.restartCount > 0) found.add('restarted tests before it');
  if (body.keySpacing === 'toolong') found.add('over 122 s ("toolong")');
  if (body.punctuation) found.add('punctuation');
  if (body.numbers) found.add('numbers');
  if (body.funbox.length > 0) found.add('funbox');
  if (!['english', 'german', 'french', 'spanish', 'portuguese'].includes(session.spec.languageModel)) {
    found.add('non-Latin alphabet');
  }
  return found;
}

/** How many sessions show each behaviour. */
export function countBehaviours(sessions: Iterable<Session>): Record<Behaviour, number> {
  const counts = Object.fromEntries(BEHAVIOURS.map((b) => [b, 0])) as Record<Behaviour, number>;
  for (const s of sessions) for (const b of behavioursOf(s)) counts[b]++;
  return counts;
}
