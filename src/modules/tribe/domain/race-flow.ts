import { timedSeconds } from './room-config';
import { rankRace } from './race-results';
import { ACCEPTS_RESULTS, membersOf, type Member, type RaceResult, type Room, type RoomState } from './room';
import type { Transition } from './transition';

/**
 * The race: `RACE_INIT` → `RACE_COUNTDOWN` → `RACE_ONGOING` → `RACE_ONE_FINISHED` → (`RACE_AWAITING_RESULTS`) →
 * `SHOWING_RESULTS` → `READY_TO_CONTINUE`, driven by the room's one timer. What the client does with each message
 * decides what is sent: it sets `RACE_INIT` itself on `room_init_race` and `RACE_ONGOING` on `room_race_started`,
 * so those two are never sent again as a state change (it would run that step twice).
 */

const SECOND = 1000;

function setState(t: Transition, state: RoomState, announce = true): void {
  t.room.state = state;
  t.changed = true;
  if (announce) t.toRoom('room_state_changed', { state });
}

/** Members racing in the current race: typing now, or finished. */
export function racers(room: Room): Member[] {
  return membersOf(room).filter((m) => m.isTyping || m.isFinished);
}

/** Everyone who is expected to get ready between races: not the leader, not away. */
export function everyoneReady(room: Room): boolean {
  return membersOf(room)
    .filter((m) => !m.isLeader && !m.isAfk)
    .every((m) => m.isReady);
}

/** The next tick of a one-second countdown, without bunching up ticks a late timer missed. */
function nextSecond(t: Transition): number {
  return Math.max((t.room.timer?.at ?? t.ctx.now) + SECOND, t.ctx.now);
}

/**
 * `room_init_race`. The client decides on its own page whether it races from its own copy of the room (`isTyping`)
 * the moment `room_init_race` arrives, so the racers (ready or leader, and not away, the rule it applies itself at
 * the countdown) are sent first in `room_users_update`.
 */
export function initRace(t: Transition, seed: number): void {
  const update: Record<string, { isTyping: boolean; isReady: boolean; isAfk: boolean }> = {};
  for (const member of Object.values(t.room.members)) {
    member.isTyping = (member.isReady || member.isLeader) && !member.isAfk;
    member.isFinished = false;
    member.result = null;
    update[member.id] = { isTyping: member.isTyping, isReady: member.isReady, isAfk: member.isAfk };
  }
  t.room.seed = seed;
  t.room.state = 'RACE_INIT';
  t.room.timer = { kind: 'init', at: t.ctx.now + t.ctx.timings.initMs, remaining: 0 };
  t.changed = true;
  t.toRoom('room_users_update', update);
  t.toRoom('room_init_race', { seed });
  t.effects.push({ kind: 'race-prepared' });
}

function startCountdown(t: Transition): void {
  const seconds = t.ctx.timings.countdownSeconds;
  setState(t, 'RACE_COUNTDOWN');
  t.toRoom('room_countdown', { time: seconds });
  t.room.timer = { kind: 'countdown', at: nextSecond(t), remaining: seconds - 1 };
}

function raceLimitMs(t: Transition): number {
  const seconds = timedSeconds(t.room.config);
  const { maxRaceMs, raceMarginMs } = t.ctx.timings;
  return seconds === null ? maxRaceMs : Math.min(seconds * SECOND + raceMarginMs, maxRaceMs);
}

function startRace(t: Transition): void {
  for (const member of Object.values(t.room.members)) member.isReady = false;
  setState(t, 'RACE_ONGOING', false);
  t.toRoom('room_race_started');
  t.room.timer = { kind: 'race', at: t.ctx.now + raceLimitMs(t), remaining: 0 };
}

function forceFinish(t: Transition, reason: string): void {
  t.toRoom('room_race_force_finish', { reason });
  setState(t, 'RACE_AWAITING_RESULTS');
  t.room.timer = { kind: 'results', at: t.ctx.now + t.ctx.timings.awaitResultsMs, remaining: 0 };
}

function endReadyTimer(t: Transition): void {
  t.toRoom('room_readyTimer_over');
  setState(t, 'READY_TO_CONTINUE');
  t.room.timer = null;
}

/** Places, points and crowns; a racer whose result never came is shown without one. */
export function showResults(t: Transition): void {
  const inRace = racers(t.room);
  for (const member of inRace) {
    if (!member.result) t.toRoom('room_user_result', { userId: member.id });
    member.isTyping = false;
    member.isFinished = true;
  }
  const { positions, miniCrowns, newPoints } = rankRace(inRace);
  for (const member of inRace) member.points += newPoints.get(member.id) ?? 0;
  setState(t, 'SHOWING_RESULTS');
  t.toRoom('room_final_positions', { positions, miniCrowns });
  if (everyoneReady(t.room)) {
    endReadyTimer(t);
    return;
  }
  const seconds = t.ctx.timings.readySeconds;
  t.toRoom('room_readyTimer_countdown', { time: seconds });
  t.room.timer = { kind: 'ready', at: t.ctx.now + SECOND, remaining: seconds - 1 };
}

/** A racer's result: relayed at once; the first one starts the finish timer, the last one shows the results. */
export function acceptResult(t: Transition, member: Member, result: RaceResult): boolean {
  if (!ACCEPTS_RESULTS.includes(t.room.state) || !member.isTyping || member.isFinished) return false;
  member.result = result;
  member.isFinished = true;
  member.isTyping = false;
  t.changed = true;
  t.toRoom('room_user_result', { userId: member.id, result });
  const allDone = racers(t.room).every((m) => m.isFinished);
  if (t.room.state === 'RACE_ONGOING') {
    setState(t, 'RACE_ONE_FINISHED');
    if (!allDone) {
      const seconds = t.ctx.timings.finishSeconds;
      t.toRoom('room_finishTimer_countdown', { time: seconds });
      t.room.timer = { kind: 'finish', at: t.ctx.now + SECOND, remaining: seconds - 1 };
    }
  }
  if (allDone) showResults(t);
  return true;
}

/** After a member left: a race whose racers are all gone or all finished does not wait for anyone. */
export function afterDeparture(t: Transition): void {
  const state = t.room.state;
  if (state === 'SHOWING_RESULTS') {
    if (everyoneReady(t.room)) endReadyTimer(t);
    return;
  }
  if (state === 'LOBBY' || state === 'READY_TO_CONTINUE') return;
  const inRace = racers(t.room);
  if (inRace.length === 0) {
    t.room.timer = null;
    setState(t, 'LOBBY');
    return;
  }
  if (ACCEPTS_RESULTS.includes(state) && inRace.every((m) => m.isFinished)) showResults(t);
}

/** The leader takes the room back to the lobby after the results. */
export function backToLobby(t: Transition): void {
  for (const member of Object.values(t.room.members)) {
    member.isTyping = false;
    member.isFinished = false;
    member.result = null;
  }
  t.room.timer = null;
  setState(t, 'LOBBY');
}

/** The room's timer, when due. Each step moves the room on once; a step that is not due (yet) changes nothing. */
export function runTimer(t: Transition): void {
  const timer = t.room.timer;
  if (!timer || timer.at > t.ctx.now) return;
  t.changed = true;
  switch (timer.kind) {
    case 'init':
      startCountdown(t);
      return;
    case 'countdown':
      if (timer.remaining > 0) {
        t.toRoom('room_countdown', { time: timer.remaining });
        t.room.timer = { kind: 'countdown', at: nextSecond(t), remaining: timer.remaining - 1 };
      } else startRace(t);
      return;
    case 'race':
      forceFinish(t, 'race time limit');
      return;
    case 'finish':
      if (timer.remaining > 0) {
        t.toRoom('room_finishTimer_countdown', { time: timer.remaining });
        t.room.timer = { kind: 'finish', at: nextSecond(t), remaining: timer.remaining - 1 };
      } else forceFinish(t, 'out of time');
      return;
    case 'results':
      showResults(t);
      return;
    case 'ready':
      if (timer.remaining > 0) {
        t.toRoom('room_readyTimer_countdown', { time: timer.remaining });
        t.room.timer = { kind: 'ready', at: nextSecond(t), remaining: timer.remaining - 1 };
      } else endReadyTimer(t);
      return;
  }
}

export { endReadyTimer };
