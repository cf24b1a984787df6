import { Injectable } from '@nestjs/common';
import type { CompletedResultDto } from './dto/completed-result.dto';
import type { KeyStats } from './domain/key-stats';

export interface AntiCheatContext {
  uid: string;
  /** `X-Client-Version` (or `Client-Version`) header, if sent. */
  clientVersion?: string;
}

/**
 * Where an operator plugs private result validation in, on top of the open checks (domain/anti-cheat,
 * docs/security.md "Result anti-cheat"), which run first. Both answer true to accept: `validateResult` judges the
 * whole result (false → 463), `validateKeys` the key timings of fast timed tests (false → 465); when the key check
 * runs is set by `results.botCheck` in the server configuration.
 */
export interface AntiCheat {
  validateResult(result: Readonly<CompletedResultDto>, context: AntiCheatContext): boolean | Promise<boolean>;
  validateKeys(
    result: Readonly<CompletedResultDto>,
    keys: { spacing: KeyStats; duration: KeyStats },
    context: AntiCheatContext,
  ): boolean | Promise<boolean>;
}

/** No private rules: only the open checks judge results. */
export const ACCEPT_ALL: AntiCheat = {
  validateResult: () => true,
  validateKeys: () => true,
};

/** Holds the active anti-cheat; a private module calls `use` at start-up (tests plug strict ones in the same way). */
@Injectable()
export class AntiCheatRegistry {
  private active: AntiCheat = ACCEPT_ALL;

  use(antiCheat: AntiCheat): void {
    this.active = antiCheat;
  }

  get current(): AntiCheat {
    return this.active;
  }
}
