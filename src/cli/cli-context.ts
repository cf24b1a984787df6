import type { TerminalIo } from '../infra/runtime/terminal-io';
import type { INestApplicationContext, Type } from '@nestjs/common';
import type { Command } from 'commander';

export interface CliIo extends TerminalIo {
  /** Where progress bars go (default: stderr, drawn only on a terminal). */
  progress?: NodeJS.WritableStream;
  /** Where a command's bulk output goes when it writes to standard output (default: stdout). */
  data?: NodeJS.WritableStream;
}

/** What a command's action gets: where to write, and a way to run against the stores with only the modules it needs. */
export interface CliContext {
  io: CliIo;
  /**
   * Resolves the target (DATABASE_URL, or the dev stores with --dev), prints it, boots an application context of
   * the base modules plus `modules`, runs `work` and prints its line (none when it returns undefined: a command
   * whose standard output is data prints its summary on stderr). Errors become exit code 1.
   */
  run(modules: Type[], work: (app: INestApplicationContext) => Promise<string | undefined>): Promise<void>;
}

/** One command group (`permissions`, `users`, ...): a file under commands/, one line in run-cli.ts. */
export type CommandGroup = (program: Command, cli: CliContext) => void;

/** A usage mistake found before anything boots; exit code 2, like every argument error. */
export class UsageError extends Error {}
