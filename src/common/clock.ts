/** Time source, injected so tests can move across days and weeks without sleeping. */
export abstract class Clock {
  abstract now(): number;
}

export class SystemClock extends Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock tests set and advance by hand. */
export class ManualClock extends Clock {
  constructor(private current: number = Date.now()) {
    super();
  }
  now(): number {
    return this.current;
  }
  set(ms: number): void {
    this.current = ms;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
