import type { RaceResult } from './room';

export interface FinalPosition {
  id: string;
  newPoints: number;
  newPointsTotal: number;
}

/** `room_final_positions` (the client's `FinalPositions`): position ("1", "2", ...) to the racers placed there. */
export type FinalPositions = Record<string, FinalPosition[]>;

/** The best of each figure among the placed racers (ties share a crown). */
export interface MiniCrowns {
  raw: string[];
  wpm: string[];
  acc: string[];
  consistency: string[];
}

export interface Racer {
  id: string;
  points: number;
  result: RaceResult | null;
}

/** A result places its racer unless the test was invalid or failed (the client fades those out). */
export function places(result: RaceResult | null): result is RaceResult {
  if (!result) return false;
  return result.resolve.valid !== false && result.resolve.failed !== true;
}

function compare(a: RaceResult, b: RaceResult): number {
  return b.wpm - a.wpm || b.acc - a.acc;
}

/**
 * Places and points of a finished race. Placed racers are ordered by speed, then accuracy; equal figures share a
 * place (1, 1, 3). A racer earns a point for every racer it beat: each placed racer behind it, and every racer
 * without a placing result (missing, invalid, failed), who earn nothing.
 */
export function rankRace(racers: Racer[]): {
  positions: FinalPositions;
  miniCrowns: MiniCrowns;
  newPoints: Map<string, number>;
} {
  const placed = racers
    .filter((r): r is Racer & { result: RaceResult } => places(r.result))
    .sort((a, b) => compare(a.result, b.result));
  const unplaced = racers.length - placed.length;
  const positions: FinalPositions = {};
  const newPoints = new Map<string, number>();
  for (const racer of placed) {
    const ahead = placed.findIndex((other) => compare(other.result, racer.result) === 0);
    const position = ahead + 1;
    const behind = placed.filter((other) => compare(racer.result, other.result) < 0).length;
    const earned = behind + unplaced;
    newPoints.set(racer.id, earned);
    (positions[String(position)] ??= []).push({
      id: racer.id,
      newPoints: earned,
      newPointsTotal: racer.points + earned,
    });
  }
  for (const racer of racers) if (!newPoints.has(racer.id)) newPoints.set(racer.id, 0);
  return { positions, miniCrowns: crowns(placed), newPoints };
}

function crowns(placed: (Racer & { result: RaceResult })[]): MiniCrowns {
  const best = (figure: 'raw' | 'wpm' | 'acc' | 'consistency'): string[] => {
    if (placed.length === 0) return [];
    const top = Math.max(...placed.map((r) => r.result[figure]));
    return placed.filter((r) => r.result[figure] === top).map((r) => r.id);
  };
  return { raw: best('raw'), wpm: best('wpm'), acc: best('acc'), consistency: best('consistency') };
}
