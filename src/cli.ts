import { runCli } from './cli/run-cli';
import { TERMINAL_IO } from './infra/runtime/terminal-io';

/** `npm run cli -- <command>`: operator commands (see docs/operations.md "Operator CLI"; `npm run cli -- --help`). */
runCli(process.argv.slice(2), TERMINAL_IO).then(
  (code) => process.exit(code),
  (e: unknown) => {
    TERMINAL_IO.err(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
