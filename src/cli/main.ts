import { ClockcheckError } from '../errors.ts';
import { rulesCommand } from './commands/rules.ts';
import { selfcheckCommand } from './commands/selfcheck.ts';
import { serveCommand } from './commands/serve.ts';

const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  rules: rulesCommand,
  serve: serveCommand,
  selfcheck: selfcheckCommand,
};

const HELP = `clockcheck: conformance harness for the time-tracking public REST API

Commands:
  rules       print the rule catalog (IDs, spec sections, basis, faults that break each rule)
  serve       run the embedded HTTPS reference server (optionally with an injected fault)
  selfcheck   start the reference server and smoke-check every operation once

Run \`clockcheck <command> --help\` for a command's options.`;

/** Runs the CLI; returns the exit code (0 ok, 1 a check failed, 2 the run could not be made). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return 0;
  }
  const run = COMMANDS[command];
  if (!run) {
    console.error(`clockcheck: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await run(rest);
  } catch (error) {
    if (error instanceof ClockcheckError) {
      console.error(`clockcheck: ${error.message}`);
      return 2;
    }
    throw error;
  }
}
