/** Where an operator command writes its result lines and its errors (tests pass their own to capture them). */
export interface TerminalIo {
  out(line: string): void;
  err(line: string): void;
}

/** A command's own output on the operator's terminal: plain lines on stdout and stderr, not log records. */
export const TERMINAL_IO: TerminalIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};
