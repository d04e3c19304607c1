import { ClockcheckError, InternalError } from '../errors.ts';
import { EXIT_CODE_OF_ERROR, type ExitCode } from './exit-codes.ts';
import { toolVersion } from '../version.ts';

type Command = (argv: string[]) => Promise<number>;

/**
 * Each command is loaded when it is run, not all at start: a process holds only its own command's
 * modules (the reference server's certificate code, autocannon, fast-check are megabytes of compiled
 * code each), so `clockcheck run` against a target starts faster and stays smaller.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  init: async () => (await import('./commands/init.ts')).initCommand,
  rules: async () => (await import('./commands/rules.ts')).rulesCommand,
  fuzz: async () => (await import('./commands/fuzz.ts')).fuzzCommand,
  run: async () => (await import('./commands/run.ts')).runCommand,
  serve: async () => (await import('./commands/serve.ts')).serveCommand,
  selftest: async () => (await import('./commands/selftest.ts')).selftestCommand,
  load: async () => (await import('./commands/load.ts')).loadCommand,
  diff: async () => (await import('./commands/diff.ts')).diffCommand,
  openapi: async () => (await import('./commands/openapi.ts')).openapiCommand,
  sink: async () => (await import('./commands/sink.ts')).sinkCommand,
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
  sink        receive a target's webhook notifications: print each, check its signature and payload, log JSONL
  openapi     print the API as OpenAPI 3.1, derived from the spec model (for Schemathesis, Prism, Postman)
  diff        compare two reports: new failures, fixed, still failing, coverage; exit 1 on a regression (a CI gate)

Run \`clockcheck <command> --help\` for a command's options; \`clockcheck --version\` for the version.`;

/** Runs the CLI; returns the exit code (0 ok, 1 a check failed, 2 the run could not be made). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(HELP);
    return 0;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    console.log(toolVersion());
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!load) {
    console.error(`clockcheck: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  try {
    return await (await load())(rest);
  } catch (error) {
    return reportError(error);
  }
}

/**
 * The one place an error becomes an exit code (EXIT_CODE_OF_ERROR): one line on stderr that says
 * what to fix, never a stack (clockcheck's own bug says so, and CLOCKCHECK_DEBUG=1 adds the stack).
 */
export function reportError(error: unknown): ExitCode {
  const known = asClockcheckError(error);
  if (known.code === 'CLOCKCHECK_INTERNAL') {
    console.error(`clockcheck: internal error (a bug in clockcheck, please report it with the command you ran): ${oneLine(known.message)}`);
    if (process.env.CLOCKCHECK_DEBUG) console.error((known.cause as Error | undefined)?.stack ?? known.stack);
    else console.error('clockcheck: run again with CLOCKCHECK_DEBUG=1 for the stack');
  } else {
    console.error(`clockcheck: ${oneLine(known.message)}`);
  }
  return EXIT_CODE_OF_ERROR[known.code];
}

/** An error as a ClockcheckError: system errors a user can cause get their code, anything else is a bug. */
function asClockcheckError(error: unknown): ClockcheckError {
  if (error instanceof ClockcheckError) return error;
  const system = error as NodeJS.ErrnoException & { address?: string; port?: number };
  switch (system?.code) {
    case 'ENOENT':
    case 'EACCES':
    case 'EISDIR':
    case 'ENOTDIR':
      return new ClockcheckError('CLOCKCHECK_INPUT_FILE', `cannot read ${system.path}: ${system.code === 'ENOENT' ? 'no such file' : system.code === 'EISDIR' ? 'a directory, not a file' : system.code === 'ENOTDIR' ? 'a part of the path is not a directory' : 'permission denied'}`, { cause: error });
    case 'EADDRINUSE':
    case 'EADDRNOTAVAIL':
      // A server or sink that cannot listen where it was told.
      return new ClockcheckError('CLOCKCHECK_LISTEN', `cannot listen on ${system.address}:${system.port}: ${system.code === 'EADDRINUSE' ? 'the port is in use (choose another with --port, or 0 for a free one)' : 'no such address on this machine'}`, { cause: error });
    default:
      return new InternalError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** A message on one line, so nothing the target or a library wrote spreads over the terminal. */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').trim();
}
