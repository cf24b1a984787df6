import type {
  CompositionEventData,
  EventLog,
  EventLogContext,
  InputEventData,
  KeyEventData,
  LoggedEvent,
  LoggedEventType,
  TimerEventData,
} from './event-log';
import { mean, roundTo2 } from './stats';

/**
 * How the original client records a test (its frontend/src/ts/test/events/data.ts), re-derived:
 * - times are `performance.now()` rounded to hundredths; only the keys of the main block, the numpad, space, Enter,
 *   Tab and keys without a code are tracked (not Backspace, Shift, arrows...); a key without a code gets its own
 *   `NoCode<n>` name until released;
 * - pressing a key still held first records its release; once the result is being computed no press is recorded;
 * - at the end every key still held gets a release estimated from the average hold (of the keys pressed once);
 * - then only the last press before the timer started is kept, no release before it, and nothing typed after the end;
 * - the events are merged in time order (releases, presses, inputs, timer at the same ms), timed from the start.
 */

const TRACKED = new Set([
  ...'0123456789'.split('').map((d) => `Digit${d}`),
  ...'0123456789'.split('').map((d) => `Numpad${d}`),
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('').map((l) => `Key${l}`),
  'NumpadMultiply',
  'NumpadSubtract',
  'NumpadAdd',
  'NumpadDecimal',
  'NumpadEqual',
  'NumpadDivide',
  'Backquote',
  'Minus',
  'Equal',
  'BracketLeft',
  'BracketRight',
  'Backslash',
  'Semicolon',
  'Quote',
  'IntlBackslash',
  'Comma',
  'Period',
  'Slash',
  'Space',
  'Enter',
  'Tab',
  'NoCode',
]);

export function isTrackedKey(code: string): boolean {
  return TRACKED.has(code);
}

interface Timed<T> {
  type: LoggedEventType;
  ms: number;
  data: T;
}

const TIE_RANK: Record<LoggedEventType, number> = {
  keyup: 0,
  keydown: 1,
  input: 2,
  composition: 2,
  timer: 3,
};

export class EventRecorder {
  private keydowns: Timed<KeyEventData>[] = [];
  private keyups: Timed<KeyEventData>[] = [];
  private timers: Timed<TimerEventData>[] = [];
  private inputs: Timed<InputEventData>[] = [];
  private compositions: Timed<CompositionEventData>[] = [];
  private readonly pressed = new Map<string, number>();
  private noCodes = 0;
  /** The result is being computed: presses are no longer recorded. */
  calculating = false;

  keydown(now: number, code: string): void {
    const ms = roundTo2(now);
    if (!TRACKED.has(code)) return;
    if (this.pressed.has(code)) {
      this.pressed.delete(code);
      this.keyups.push({ type: 'keyup', ms, data: { code } });
    }
    if (this.calculating) return;
    const name = code === 'NoCode' ? `NoCode${this.noCodes++}` : code;
    this.pressed.set(name, ms);
    this.keydowns.push({ type: 'keydown', ms, data: { code: name } });
  }

  keyup(now: number, code: string, estimated = false): void {
    const ms = roundTo2(now);
    let name = code;
    if (!/^NoCode\d+$/.test(code)) {
      if (!TRACKED.has(code)) return;
      if (code === 'NoCode') {
        name = `NoCode${this.noCodes - 1}`;
        if (!this.pressed.has(name)) return;
        this.noCodes--;
      }
    }
    if (!this.pressed.has(name)) return;
    this.pressed.delete(name);
    this.keyups.push({
      type: 'keyup',
      ms,
      data: estimated ? { code: name, estimated: true } : { code: name },
    });
  }

  isHeld(code: string): boolean {
    return this.pressed.has(code);
  }

  input(now: number, data: InputEventData): void {
    this.inputs.push({ type: 'input', ms: roundTo2(now), data });
  }

  composition(now: number, data: CompositionEventData): void {
    this.compositions.push({ type: 'composition', ms: roundTo2(now), data });
  }

  timer(now: number, data: TimerEventData): void {
    this.timers.push({ type: 'timer', ms: roundTo2(now), data });
  }

  /** Releases every key still held, each after the average hold of the keys pressed once (80 ms without any). */
  releaseAll(): void {
    const lastPress = new Map<string, number>();
    for (const e of this.keydowns) lastPress.set(e.data.code, e.ms);
    const holds: number[] = [];
    for (const e of this.keyups) {
      const down = lastPress.get(e.data.code);
      if (down === undefined) continue;
      if (e.ms - down > 0) holds.push(e.ms - down);
      lastPress.delete(e.data.code);
    }
    const average = holds.length === 0 ? 80 : roundTo2(mean(holds));
    for (const [code, at] of [...this.pressed.entries()]) this.keyup(at + average, code, true);
  }

  /** Drops what the client drops once the test ended (see the class comment). */
  cleanUp(): void {
    const start = this.timers.find((e) => e.data.event === 'start');
    const end = this.timers.find((e) => e.data.event === 'end');
    if (start) {
      let lastBefore: Timed<KeyEventData> | undefined;
      for (const e of this.keydowns) {
        if (e.ms < start.ms) lastBefore = e;
        else break;
      }
      this.keydowns = this.keydowns.filter((e) => e.ms >= start.ms || e === lastBefore);
      this.keyups = this.keyups.filter((e) => e.ms >= start.ms);
    }
    if (end) {
      this.inputs = this.inputs.filter((e) => e.ms <= end.ms);
      const pressedAfter = new Set(this.keydowns.filter((e) => e.ms > end.ms).map((e) => e.data.code));
      this.keydowns = this.keydowns.filter((e) => e.ms <= end.ms);
      this.keyups = this.keyups.filter((e) => e.ms <= end.ms || !pressedAfter.has(e.data.code));
    }
  }

  log(context: EventLogContext): EventLog {
    const all: Timed<unknown>[] = [
      ...this.keydowns,
      ...this.keyups,
      ...this.timers,
      ...this.inputs,
      ...this.compositions,
    ];
    if (all.length === 0) return { events: [], context };
    const firsts = [this.keydowns, this.keyups, this.timers, this.inputs, this.compositions].flatMap(
      (list) => (list.length > 0 ? [list[0]!.ms] : []),
    );
    const start = this.timers.find((e) => e.data.event === 'start')?.ms ?? Math.min(...firsts);
    all.sort((a, b) => a.ms - b.ms || TIE_RANK[a.type] - TIE_RANK[b.type]);
    const events = all.map(
      (e) => ({ type: e.type, testMs: roundTo2(e.ms - start), data: e.data }) as LoggedEvent,
    );
    return { events, context };
  }
}
