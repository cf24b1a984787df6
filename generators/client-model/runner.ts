import type { Random } from '../human-typing';
import { ClientTest, type ClientClock, type ClientConfig } from './client';
import type { EventLog } from './event-log';
import type { IncompleteTest } from './result';
import type { Action, Typist, TypistProfile } from './typist';

/**
 * Plays a typist against the client in time: each action's keys are pressed after a drawn interval (lognormal around
 * the typist's speed, slower at word starts and after a slip, with hesitations and the odd pause of several seconds),
 * held for a drawn time (released before the same key is pressed again), and the text lands a moment after its last
 * key (at once when the client emulates the layout). The timer's ticks and the releases run in between, in time
 * order. After the end, releases within the client's result animation are still recorded.
 */

export interface RunTiming {
  rng: Random;
  profile: TypistProfile;
  /** `performance.now()` at the first key press, ms. */
  firstKeyMs: number;
  /** `Date.now()` minus `performance.now()`. */
  dateOffsetMs: number;
  /** The client inserts characters itself on the key press (layout emulation, some funboxes). */
  emulated: boolean;
  /** How long after the end releases are still recorded (the client's result animation), ms. */
  releaseWindowMs: number;
}

export interface RunOutcome {
  client: ClientTest;
  /** The cleaned-up log, once the test ended (null when it never did). */
  log: EventLog | null;
  endDateMs: number;
}

const MAX_ACTIONS = 30_000;
// Held here: in jest's vm context every global lookup (`Math.max`, `Infinity`) is slow.
const { round, min, max, floor, ceil, log } = Math;
const NEVER = Number.POSITIVE_INFINITY;
const tenth = (n: number) => round(n * 10) / 10;

export function clientClock(rng: Random, dateOffsetMs: number): ClientClock {
  return {
    dateAt: (ms) => floor(ms + dateOffsetMs),
    finishDelay: () => tenth(0.1 + rng.next() * 2.4),
    tickDrift: () => tenth(rng.next() < 0.9 ? rng.next() * 16.7 : 16.7 + rng.next() * 20),
  };
}

function keysOfAction(action: Exclude<Action, { kind: 'stop' }>): string[] {
  if (action.kind === 'shiftEnter') return ['Enter'];
  if (action.kind === 'compose') return action.commitKey ? [...action.keys, action.commitKey] : action.keys;
  return action.keys;
}

export class TestRun {
  readonly client: ClientTest;
  private readonly pendingUps: { at: number; code: string; downAt: number }[] = [];
  private t: number;
  private pressedOnce = false;

  constructor(
    config: ClientConfig,
    private readonly typist: Typist,
    private readonly timing: RunTiming,
  ) {
    this.client = new ClientTest(config, clientClock(timing.rng, timing.dateOffsetMs));
    this.t = timing.firstKeyMs;
  }

  /** Runs until the test ends (or the typist stops); `abandonAfterMs` stops typing that long after the start. */
  run(abandonAfterMs?: number): RunOutcome {
    const { client } = this;
    for (let n = 0; n < MAX_ACTIONS && !client.finished; n++) {
      const elapsed = client.startMs === undefined ? 0 : this.t - client.startMs;
      if (abandonAfterMs !== undefined && client.started && elapsed >= abandonAfterMs) break;
      const action = this.typist.next(client, elapsed);
      if (action.kind === 'stop') break;
      this.perform(action);
    }
    if (abandonAfterMs !== undefined) return { client, log: null, endDateMs: 0 };
    // A timed test ends on its own when the typist stops.
    if (!client.finished && client.config.timeLimit > 0) this.advance(NEVER);
    if (client.endMs === undefined || client.failed !== null) return { client, log: null, endDateMs: 0 };
    this.advance(client.endMs + this.timing.releaseWindowMs);
    const endDateMs = floor(client.endMs + this.timing.dateOffsetMs);
    return { client, log: client.eventLog(), endDateMs };
  }

  private gap(action: Exclude<Action, { kind: 'stop' }>): number {
    const { rng, profile } = this.timing;
    if (!this.pressedOnce) return 0;
    if (action.gapMs !== undefined) return action.gapMs;
    const mean = 12000 / profile.wpm;
    let gap = rng.lognormal(mean, profile.intervalCv) * (action.slow ?? 1);
    if (rng.next() < profile.hesitation) gap += -log(1 - rng.next()) * 500;
    if (rng.next() < profile.afkPerMinute / (profile.wpm * 5)) gap += 2000 + rng.next() * 10000;
    return max(8 + rng.next() * 4, gap);
  }

  private perform(action: Exclude<Action, { kind: 'stop' }>): void {
    const { client } = this;
    const { rng } = this.timing;
    const keys = keysOfAction(action);
    let lastKeyAt = this.t;
    for (let k = 0; k < keys.length; k++) {
      // Within an action: the keys of a composition at the typist's pace, a dead key's letter a moment later.
      const gap =
        k === 0
          ? this.gap(action)
          : action.kind === 'compose'
            ? this.gap({ kind: 'shiftEnter' })
            : 40 + rng.next() * 110;
      this.t = tenth(this.t + gap);
      this.advance(this.t);
      if (client.finished) return;
      this.press(keys[k]!);
      lastKeyAt = this.t;
      this.pressedOnce = true;
      if (action.kind === 'compose' && k < action.keys.length) {
        const at = this.t + this.lag();
        if (k === 0) client.compositionStart(at);
        client.compositionUpdate(
          at,
          action.text.slice(0, ceil(((k + 1) * action.text.length) / action.keys.length)),
        );
      }
    }
    if (action.kind === 'shiftEnter') return client.shiftEnter(lastKeyAt);
    const at = tenth(lastKeyAt + (this.timing.emulated && action.kind === 'text' ? 0 : this.lag()));
    this.advance(at);
    if (client.finished) return;
    if (action.kind === 'text') client.type(at, action.data);
    else if (action.kind === 'delete') client.deleteBackward(at, action.word ? 'word' : 'char');
    else client.compositionEnd(at, action.text);
  }

  get now(): number {
    return this.t;
  }

  /** From a key press to the input event it causes, ms (the browser's event dispatch). */
  private lag(): number {
    const { rng } = this.timing;
    return min(4, tenth(0.1 + rng.lognormal(0.9, 0.7)));
  }

  private press(code: string): void {
    const { rng, profile } = this.timing;
    const held = this.pendingUps.findIndex((u) => u.code === code);
    if (held >= 0) {
      // A key is released before it is pressed again.
      const up = this.pendingUps.splice(held, 1)[0]!;
      this.client.keyUp(tenth(max(up.downAt + 5, this.t - 2 - rng.next() * 20)), code);
    }
    this.client.keyDown(this.t, code);
    const hold = code.startsWith('NoCode')
      ? rng.lognormal(75, 0.3)
      : rng.lognormal(profile.holdMeanMs, profile.holdCv);
    this.pendingUps.push({ at: tenth(this.t + max(15, hold)), code, downAt: this.t });
  }

  /** Runs the timer's ticks and the key releases due up to `until`, in time order. */
  private advance(until: number): void {
    for (;;) {
      const tick = this.client.nextTickMs();
      let up = -1;
      for (let i = 0; i < this.pendingUps.length; i++) {
        if (up < 0 || this.pendingUps[i]!.at < this.pendingUps[up]!.at) up = i;
      }
      const upAt = up >= 0 ? this.pendingUps[up]!.at : NEVER;
      const next = min(tick ?? NEVER, upAt);
      if (next > until || next === NEVER) return;
      if (tick !== undefined && tick <= upAt) this.client.tick();
      else {
        const release = this.pendingUps.splice(up, 1)[0]!;
        this.client.keyUp(release.at, release.code);
      }
    }
  }
}

/** The accuracy and typing seconds of a test abandoned by a restart (an `incompleteTests` entry). */
export function abandonedTest(run: TestRun, afterMs: number, restartDelayMs: number): IncompleteTest | null {
  const { client } = run.run(afterMs);
  if (!client.started || client.finished) return null;
  return client.abandon(tenth(run.now + restartDelayMs));
}
