import { ClockcheckError } from '../errors.ts';
import { fuzzCommand } from './commands/fuzz.ts';
import { initCommand } from './commands/init.ts';
import { loadCommand } from './commands/load.ts';
import { rulesCommand } from './commands/rules.ts';
import { runCommand } from './commands/run.ts';
import { selftestCommand } from './commands/selftest.ts';
import { serveCommand } from './commands/serve.ts';

const COMMANDS: Readonly<Record<string, (argv: string[]) => Promise<number>>> = {
  init: initCommand,
  rules: rulesCommand,
  fuzz: fuzzCommand,
  run: runCommand,
  serve: serveCommand,
  selftest: selftestCommand,
  load: loadCommand,
};

const HELP = `clockcheck: conformance harness for the time-tracking public REST API

Commands:
  init        write a target profile from the target's own answers (read-only; --probe-writes for three writes)
  run         certify a target (default: the embedded reference server) and write reports
  rules       print the rule catalog (IDs, spec sections, basis, faults that break each rule)
  serve       run the embedded HTTPS reference server (optionally with an injected fault)
  selftest    certify the reference server clean and once per fault; print the detection matrix
  fuzz        print generated request bodies (valid, or breaking one rule) as JSON or curl commands
  load        send load to one endpoint (autocannon); latency percentiles, status histogram, JSON and HTML reports

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
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      console.error(`clockcheck: cannot read ${(error as NodeJS.ErrnoException).path}: ${code}`);
      return 2;
    }
    throw error;
  }
}
