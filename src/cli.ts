import { runCli } from './cli/run-cli';

/** `npm run cli -- <command>`: operator commands (see README "Operator CLI"; `npm run cli -- --help`). */
runCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) }).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
