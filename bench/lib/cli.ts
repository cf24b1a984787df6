/**
 * The arguments of a bench command: parsed, or the usage printed — to stdout for `--help` (then null: nothing to
 * run), to stderr with the parse error (exit code 2).
 */
export function argumentsOrUsage<T extends { help: boolean }>(
  parse: (argv: string[]) => T,
  usage: string,
): T | null {
  let args: T;
  try {
    args = parse(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(usage);
    return null;
  }
  return args;
}
