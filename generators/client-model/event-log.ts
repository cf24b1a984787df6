/**
 * The original client's record of one typing test, in the shape it keeps it (its `frontend/src/ts/test/events/`):
 * every tracked key press and release, every change of the text input, the timer's start, steps and end, and the
 * composition (input method) events, each with its time in ms from the timer's start (`testMs`, hundredths). Every
 * figure of the result body is computed from this log alone (stats.ts), so the model builds the log first
 * (client.ts, recorder.ts) and derives the body from it as the client does.
 */

export type TestMode = 'time' | 'words' | 'quote' | 'zen' | 'custom';
export type CustomLimitMode = 'word' | 'time' | 'section';

export interface KeyEventData {
  /** The physical key (`KeyA`, `Space`, `Enter`...); `NoCode<n>` for a key without one (phone keyboards). */
  code: string;
  /** A release the client made up at the end of the test for a key still held. */
  estimated?: true;
}

export interface InsertEventData {
  inputType: 'insertText';
  data: string;
  correct: boolean;
  wordIndex: number;
  /** The length of the word's input before this character. */
  charIndex: number;
  /** The word's input after the event, as the text field held it. */
  inputValue: string;
  /** Not inserted (stop on letter): counted as a keypress and a mistake, but the input did not change. */
  inputStopped?: true;
  /** A separator (or nospace last letter) that moved on to the next word. */
  commitsWord?: true;
  /** Typed into the test's last word. */
  lastWord?: true;
  isCompositionEnding?: true;
  automatic?: true;
}

export interface DeleteEventData {
  inputType: 'deleteContentBackward' | 'deleteWordBackward';
  wordIndex: number;
  charIndex: number;
  inputValue: string;
  automatic?: true;
  clearedNextWord?: true;
}

export type InputEventData = InsertEventData | DeleteEventData;

export type CompositionEventData =
  { event: 'start'; wordIndex: number } | { event: 'update' | 'end'; data: string; wordIndex: number };

export type TimerEventData =
  { event: 'step'; timer: number; drift?: number } | { event: 'start' | 'end'; timer: number; date: number };

export type LoggedEvent =
  | { type: 'keydown'; testMs: number; data: KeyEventData }
  | { type: 'keyup'; testMs: number; data: KeyEventData }
  | { type: 'input'; testMs: number; data: InputEventData }
  | { type: 'composition'; testMs: number; data: CompositionEventData }
  | { type: 'timer'; testMs: number; data: TimerEventData };

export type LoggedEventType = LoggedEvent['type'];

export interface EventLogContext {
  /** Every word of the test with its trailing separator (none after the last word once all words exist). */
  targetWords: string[];
  mode: TestMode;
  mode2: string;
  customTextLimitMode?: CustomLimitMode;
  customTextLimitValue?: number;
  bailedOut: boolean;
  /** The words hold Hangul: characters are compared as their jamo. */
  koreanStatus: boolean;
}

export interface EventLog {
  events: LoggedEvent[];
  context: EventLogContext;
}

/** Whether an event belongs to a word (input and composition events). */
export function wordIndexOf(event: LoggedEvent): number | undefined {
  return event.type === 'input' || event.type === 'composition' ? event.data.wordIndex : undefined;
}
