import { ClockcheckError } from '../errors.ts';
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
    if (error instanceof ClockcheckError) {
      console.error(`clockcheck: ${error.message}`);
      return 2;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR') {
      console.error(`clockcheck: cannot read ${(error as NodeJS.ErrnoException).path}: ${code}`);
      return 2;
    }
    if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL') {
      // A server or sink that cannot listen where it was told: one line, not a stack.
      const { address, port } = error as NodeJS.ErrnoException & { address?: string; port?: number };
      console.error(`clockcheck: cannot listen on ${address}:${port}: ${code === 'EADDRINUSE' ? 'the port is in use (choose another with --port, or 0 for a free one)' : 'no such address on this machine'}`);
      return 2;
    }
    throw error;
  }
}
