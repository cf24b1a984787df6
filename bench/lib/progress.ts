/** A progress bar on stderr with rows per second; plain lines every 10 % when stderr is not a terminal. */
export class Progress {
  private readonly startedAt = Date.now();
  private done = 0;
  private lastDecile = -1;
  /** Rows inserted by this process (rows counted at start by a resumed run are not part of the rate). */
  private rowsThisRun = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    initial = 0,
  ) {
    this.done = initial;
    this.render();
  }

  advance(units: number, rows: number): void {
    this.done += units;
    this.rowsThisRun += rows;
    this.render();
  }

  finish(): { seconds: number; rows: number } {
    const seconds = (Date.now() - this.startedAt) / 1000;
    if (process.stderr.isTTY) process.stderr.write('\n');
    return { seconds, rows: this.rowsThisRun };
  }

  private render(): void {
    const fraction = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const seconds = Math.max(0.001, (Date.now() - this.startedAt) / 1000);
    const rate = Math.round(this.rowsThisRun / seconds);
    const width = 30;
    const filled = Math.round(fraction * width);
    const line =
      `${this.label.padEnd(22)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ` +
      `${(fraction * 100).toFixed(0).padStart(3)}%  ${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')}` +
      `  ${rate.toLocaleString('en-US')} rows/s`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${line}`);
    } else {
      const decile = Math.floor(fraction * 10);
      if (decile !== this.lastDecile) {
        this.lastDecile = decile;
        process.stderr.write(`${line}\n`);
      }
    }
  }
}
