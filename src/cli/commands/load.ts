import { UsageError } from '../../errors.ts';
import { parseRateLimit } from '../../contract/rate-limit.ts';
import { CONNECTIONS, DEFAULT_DURATION_SECONDS, MAX_AMOUNT, MAX_DURATION_SECONDS, resolveLoadOptions } from '../../load/load-options.ts';
import { defaultProfile, loadProfile } from '../../profile/profile.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { endpointCommand } from './load/endpoint-command.ts';
import { exportArtillery, exportWorkload } from './load/export-artillery.ts';
import { fromArtillery, workloadFromArtillery } from './load/from-artillery.ts';
import { resolveWorkload } from './load/resolve-workload.ts';
import { workloadCommand } from './load/workload-command.ts';

/** `clockcheck load`'s options and help; `loadCommand` dispatches what they ask for. */
export const LOAD_COMMAND = defineCommand({
  name: 'load',
  description: `Sends load to one endpoint with autocannon and writes reports/<run-id>/{load.json,load.html}: latency
percentiles, throughput, the status histogram, the requests left unanswered, errors and timeouts.
With --workload FILE|default it loads the whole API instead: weighted scenarios, each a flow of
documented operations (open or closed arrival), with results, --ensure thresholds and charts per
operation, a sample of the answers judged by the spec's rules, and every record written read back
after the load (a write answered 2xx and not found, or read back different, is a lost write).
The token comes from CLOCKCHECK_TOKEN (or the profile's token_env), never from the command line.
A target that is not loopback (127.0.0.0/8, ::1, localhost) needs --yes.
Without --target, an embedded reference server is started, its limit set by --server-rate-limit,
with any --fault switched on.
By default the run fails on any 5xx, any request left unanswered (timed out, lost with its connection,
or held until the run stopped), any transport error, and more calls served than the limit allows;
--ensure adds thresholds, and a threshold on non2xx, unanswered, timeouts or errors takes the place of
the default for what it bounds.
To scale out on Artillery: --export artillery FILE writes the run as an Artillery 2.x script (same
endpoint, target, TLS trust, shape, and --ensure and the default checks as its ensure checks; the token
read from the environment when Artillery runs) and sends nothing; --from-artillery REPORT.json reads the
report of \`artillery run --output\` (or run-fargate, run-lambda) and writes load.json and load.html with the
verdict drawn from what Artillery measured (the rate-limit reading, per-second throughput and calls held
to the end need each call's time, which Artillery does not keep: not judged).
Exit codes: 0 every check and threshold met (or the script written); 1 otherwise; 2 the run could not be
made, an option (--ensure among them) is malformed, or the Artillery report is not one.`,
  options: {
    target: { kind: 'string', placeholder: 'https://host[:port]', defaultHelp: "the profile's target, else an embedded reference server", help: "the server to load: the spec's {base_url}; /api/public is added" },
    endpoint: { kind: 'string', placeholder: 'METHOD:/path', defaultHelp: 'GET:/breaks', help: 'the one endpoint, under /api/public, with any query string; GET only (a load run sends no body and changes nothing)' },
    connections: { kind: 'string', placeholder: 'N', defaultHelp: String(CONNECTIONS.default), help: `connections, ${CONNECTIONS.min} to ${CONNECTIONS.max}` },
    duration: { kind: 'string', placeholder: 'DURATION', defaultHelp: `${DEFAULT_DURATION_SECONDS}s`, help: `how long to send, up to ${MAX_DURATION_SECONDS}s (a bare number is seconds); not with --amount` },
    amount: { kind: 'string', placeholder: 'N', help: `stop after N responses, up to ${MAX_AMOUNT}; not with --duration` },
    rate: { kind: 'string', placeholder: 'R', defaultHelp: 'as fast as the target answers', help: 'requests per second over all connections' },
    'rate-limit': {
      kind: 'parsed',
      placeholder: 'LIMIT/WINDOW|off',
      parse: parseRateLimit,
      defaultHelp: "the profile's rate_limit with --profile, the embedded server's own without --target, else not judged",
      help: "the target's limit to judge against: more calls served (2xx) than a conforming sliding window allows in the run's length fails the run",
    },
    ensure: {
      kind: 'list',
      placeholder: 'THRESHOLDS',
      help:
        "what the run must meet, as in k6 thresholds, e.g. 'p99<=500ms,errors<=1%': p50 p90 p95 p99 max mean (ms or s, of the served calls), " +
        'errors unanswered timeouts non2xx limited (a count, or a % of the requests sent; non2xx leaves out 429), rps (responses/s); with < <= > >=',
    },
    yes: { kind: 'boolean', help: 'load a target that is not loopback' },
    profile: { kind: 'string', placeholder: 'FILE', help: 'the target profile: target, token_env, tls, rate_limit, api_prefix' },
    ca: { kind: 'string', placeholder: 'FILE', help: "the CA certificate (PEM) that signed the target's certificate" },
    insecure: { kind: 'boolean', help: 'skip certificate verification' },
    'allow-http': { kind: 'boolean', help: 'load a plain-HTTP development server' },
    'report-dir': { kind: 'string', placeholder: 'DIR', default: 'reports', help: 'where <run-id>/ goes' },
    'server-rate-limit': { kind: 'parsed', placeholder: 'LIMIT/WINDOW|off', default: 'off', parse: parseRateLimit, help: "the embedded server's limit (without --target)" },
    fault: { kind: 'repeatable', placeholder: 'NAME', help: 'switch on a fault of the embedded server (without --target; `clockcheck serve --list-faults` lists them)' },
    quiet: { kind: 'boolean', help: 'no progress line on stderr' },
    workload: {
      kind: 'string',
      placeholder: 'FILE|default',
      help: "load the whole API as its users do: weighted scenarios, each a flow of documented operations with captured IDs and think times (a workload YAML file, or `default`: an admin integration's day); results per operation; --ensure 'POST /timesheets: p99<=800ms' bounds one operation",
    },
    'read-only': { kind: 'boolean', help: 'with --workload: keep only the scenarios that read (writes are permanent on this API)' },
    seed: { kind: 'integer', placeholder: 'N', min: 0, max: 2 ** 31 - 1, defaultHelp: 'random', help: 'with --workload: the seed of the scenario choice and the generated bodies' },
    sample: {
      kind: 'parsed',
      placeholder: '1/N|all|none',
      parse: parseSample,
      defaultHelp: '1/20',
      help: 'with --workload: which answers are judged by the rules `run` judges an answer by alone: one in N of each operation, and every answer that is not 2xx',
    },
    export: {
      kind: 'choice',
      values: ['artillery'],
      help: 'write the run as an Artillery 2.x script to FILE (- for stdout) instead of running it: `--export artillery FILE`; sends nothing, needs no token, needs --target',
    },
    'from-artillery': {
      kind: 'string',
      placeholder: 'REPORT.json',
      help: "render the report of `artillery run --output REPORT.json` as load.json and load.html, judged as load judges (give the options the script was exported with)",
    },
  },
  positionals: [{ name: 'file', help: 'with --export artillery: the script to write (- for stdout)' }],
});

/** `--sample`: `1/20` → 20, `all` → 1, `none` → 0. */
function parseSample(text: string): number {
  if (text === 'all') return 1;
  if (text === 'none') return 0;
  const match = /^1\/(\d{1,6})$/.exec(text.trim());
  if (!match || Number(match[1]) < 1) throw new UsageError(`--sample "${text}" is not 1/N, all or none (e.g. 1/20: one answer in 20 of each operation, and every answer that is not 2xx)`);
  return Number(match[1]);
}

/**
 * `clockcheck load`: reads the command line, then hands it to one of its five paths: a one-endpoint
 * load or a workload (`--workload`), each run, exported as an Artillery script (`--export artillery`)
 * or read back from Artillery's report (`--from-artillery`).
 * @returns the exit code: 0 every check and threshold met (or the script written), 1 otherwise.
 * @throws UsageError (exit 2) for options that do not go together or are malformed, and the errors of each path.
 */
export async function loadCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(LOAD_COMMAND, argv);
  if (!input) return 0;
  const values = input.options;
  if (values.export !== undefined && values['from-artillery'] !== undefined) throw new UsageError('load: --export writes a script and --from-artillery reads a report: give one');
  if (input.args.file !== undefined && values.export === undefined) throw new UsageError(`load: "${input.args.file}": a FILE is for --export artillery FILE; load takes no other argument`);
  const options = resolveLoadOptions({
    ...(values.workload === undefined ? { ensure: values.ensure } : {}),
    endpoint: values.endpoint,
    connections: values.connections,
    duration: values.duration,
    amount: values.amount,
    rate: values.rate,
  });
  const profile = values.profile ? await loadProfile(values.profile) : defaultProfile();
  if (values.workload !== undefined) {
    const workload = await resolveWorkload(values);
    if (values.export !== undefined) return exportWorkload(values, profile, workload, input.args.file);
    if (values['from-artillery'] !== undefined) return workloadFromArtillery(values, profile, workload);
    return workloadCommand(values, profile, workload);
  }
  for (const flag of ['read-only', 'seed', 'sample'] as const) {
    if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`load: --${flag} goes with --workload (a one-endpoint run sends GET only, nothing generated, and judges no answer)`);
  }
  if (values.export !== undefined) return exportArtillery(values, input.args.file, options, profile);
  if (values['from-artillery'] !== undefined) return fromArtillery(values, options, profile);
  return endpointCommand(values, options, profile);
}
