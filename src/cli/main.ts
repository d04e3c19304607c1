import { ClockcheckError, InternalError, UsageError } from '../errors.ts';
import { didYouMean } from '../did-you-mean.ts';
import type { CommandSpec } from '../input/option-table.ts';
import { EXIT_CODE_MEANINGS, EXIT_CODE_OF_ERROR, type ExitCode } from './exit-codes.ts';
import { toolVersion } from '../version.ts';
import { terminalSafe } from '../report/terminal-text.ts';

/** A command's module: its option table (for --help) and the command itself. */
export interface CommandModule {
  readonly spec: CommandSpec;
  readonly run: (argv: string[]) => Promise<number>;
}

/** One line of `clockcheck --help`, and how to load the command. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<CommandModule>;
}

/**
 * Every command, in the order `clockcheck --help` lists them. Each is loaded when it is run, not all
 * at start: a process holds only its own command's modules (the reference server's certificate code,
 * autocannon, fast-check are megabytes of compiled code each), so `clockcheck run` against a target
 * starts faster and stays smaller.
 */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', summary: "write a target profile from the target's own answers (read-only; --probe-writes for three writes)", load: () => import('./commands/init.ts').then((m) => ({ spec: m.INIT_COMMAND, run: m.initCommand })) },
  { name: 'run', summary: 'certify a target (default: the embedded reference server) and write reports', load: () => import('./commands/run.ts').then((m) => ({ spec: m.RUN_COMMAND, run: m.runCommand })) },
  { name: 'rules', summary: 'print the rule catalog (IDs, spec sections, basis, faults that break each rule)', load: () => import('./commands/rules.ts').then((m) => ({ spec: m.RULES_COMMAND, run: m.rulesCommand })) },
  { name: 'serve', summary: 'run the embedded HTTPS reference server (optionally with an injected fault)', load: () => import('./commands/serve.ts').then((m) => ({ spec: m.SERVE_COMMAND, run: m.serveCommand })) },
  { name: 'selftest', summary: 'certify the reference server clean and once per fault; print the detection matrix', load: () => import('./commands/selftest.ts').then((m) => ({ spec: m.SELFTEST_COMMAND, run: m.selftestCommand })) },
  { name: 'fuzz', summary: 'print generated request bodies (valid, or breaking one rule) as JSON or curl commands', load: () => import('./commands/fuzz.ts').then((m) => ({ spec: m.FUZZ_COMMAND, run: m.fuzzCommand })) },
  { name: 'load', summary: 'send load to one endpoint (autocannon); latency percentiles, status histogram, JSON and HTML reports', load: () => import('./commands/load.ts').then((m) => ({ spec: m.LOAD_COMMAND, run: m.loadCommand })) },
  { name: 'sink', summary: "receive a target's webhook notifications: print each, check its signature and payload, log JSONL", load: () => import('./commands/sink.ts').then((m) => ({ spec: m.SINK_COMMAND, run: m.sinkCommand })) },
  { name: 'openapi', summary: 'print the API as OpenAPI 3.1, derived from the spec model (for Schemathesis, Prism, Postman)', load: () => import('./commands/openapi.ts').then((m) => ({ spec: m.OPENAPI_COMMAND, run: m.openapiCommand })) },
  { name: 'grade', summary: 'judge recorded traffic (a HAR file) against the spec without sending a request; the run\'s reports and rule IDs', load: () => import('./commands/grade.ts').then((m) => ({ spec: m.GRADE_COMMAND, run: m.gradeCommand })) },
  { name: 'diff', summary: 'compare two reports: new failures, fixed, still failing, coverage; exit 1 on a regression (a CI gate)', load: () => import('./commands/diff.ts').then((m) => ({ spec: m.DIFF_COMMAND, run: m.diffCommand })) },
];

/** `clockcheck --help`: the commands and the exit codes, from their tables. */
export function topLevelHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const codes = Object.entries(EXIT_CODE_MEANINGS);
  const codeWidth = Math.max(...codes.map(([code]) => code.length));
  return [
    'clockcheck: conformance harness for the time-tracking public REST API',
    '',
    'Usage: clockcheck <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Exit codes:',
    ...codes.map(([code, meaning]) => `  ${code.padEnd(codeWidth)}  ${meaning}`),
    '',
    'Run `clockcheck <command> --help` for a command\'s options; `clockcheck --version` for the version.',
  ].join('\n');
}

/** Runs the CLI; returns the exit code (0 ok, 1 a check failed, 2 the run could not be made). */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || (command === 'help' && rest.length === 0)) {
    console.log(topLevelHelp());
    return 0;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    console.log(toolVersion());
    return 0;
  }
  // `clockcheck help run` is `clockcheck run --help`.
  const [name, args] = command === 'help' ? [rest[0] as string, ['--help']] : [command, rest];
  try {
    const entry = COMMANDS.find((c) => c.name === name);
    if (!entry) return reportError(unknownCommand(name));
    return await (await entry.load()).run(args);
  } catch (error) {
    return reportError(error);
  }
}

/** One line: the command not known, the likely one, and where the list is; never the whole help. */
function unknownCommand(name: string): UsageError {
  const hint = didYouMean(name, COMMANDS.map((c) => c.name));
  return new UsageError(`unknown command "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; \`clockcheck --help\` lists the commands`);
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

/** A message as one line the terminal does not act on (a target's text may hold escape sequences). */
function oneLine(message: string): string {
  return terminalSafe(message);
}
