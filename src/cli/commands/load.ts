import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../../errors.ts';
import { readJsonFile, type JsonFileRole } from '../../input/json-file.ts';
import { artilleryEndpoint } from '../../load/artillery-endpoint.ts';
import { artilleryScript } from '../../load/artillery-export.ts';
import { artilleryReportSchema } from '../../load/artillery-report.ts';
import { buildArtilleryLoadReport } from '../../load/from-artillery.ts';
import type { LoadOptions } from '../../load/load-options.ts';
import { readPemFile } from '../../tls/pem-file.ts';
import { isLoopbackHost } from '../../load/loopback.ts';
import { CONNECTIONS, DEFAULT_DURATION_SECONDS, describeLoad, MAX_AMOUNT, MAX_DURATION_SECONDS, resolveLoadOptions } from '../../load/load-options.ts';
import { loadRunId, runLoad } from '../../load/load-run.ts';
import { loadSummary } from '../../load/load-summary.ts';
import type { RateLimitWindow } from '../../load/load-verdict.ts';
import { writeLoadReports } from '../../load/write-load-reports.ts';
import { serverFaultByName } from '../../reference/faults.ts';
import { parseRateLimit, type RateLimitSetting } from '../../contract/rate-limit.ts';
import type { ReferenceServer } from '../../reference/server.ts';
import { startEmbeddedTarget } from '../../embedded/embedded-target.ts';
import { toolVersion } from '../../version.ts';
import { defaultProfile, loadProfile, type Profile } from '../../profile/profile.ts';
import { Redactor } from '../../client/redaction.ts';
import { defineCommand, type ResolvedOptions } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { resolveTargetAccess, type TargetAccess } from '../target-access.ts';
import { useColor } from '../color.ts';
import type { Workload } from '../../workload/workload-file.ts';
import type { WorkloadThreshold } from '../../workload/workload-ensure.ts';

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

/** How `--from-artillery` names its file in every error about it (exit 2, one line). */
const ARTILLERY_REPORT_ROLE: JsonFileRole = {
  reader: 'load --from-artillery',
  what: 'an Artillery JSON report',
  hint: 'give the file `artillery run --output FILE` wrote',
  code: 'CLOCKCHECK_REPORT',
  // What is kept is counters and summaries, never the serialized histograms: a few kilobytes a period.
  maxKeptBytes: 64 * 1024 * 1024,
};

function hostnameOf(target: string): string | null {
  try {
    return new URL(target).hostname;
  } catch {
    return null;
  }
}

/** Where the load goes: the --target as given (token from the environment), or a fresh embedded reference server. */
async function openTarget(
  target: string | undefined,
  profile: Profile,
  values: { readonly ca?: string | undefined; readonly insecure: boolean; readonly 'allow-http': boolean; readonly fault: string[] },
  serverRateLimit: RateLimitSetting | null,
): Promise<{ reach: Pick<TargetAccess, 'origin' | 'token' | 'caPem' | 'insecure'>; server: ReferenceServer | null }> {
  if (target) return { reach: await resolveTargetAccess(target, profile, { ca: values.ca, insecure: values.insecure, allowHttp: values['allow-http'] }), server: null };
  const server = await startEmbeddedTarget(values.fault, 'standard', serverRateLimit);
  return { reach: { origin: server.origin, token: server.token, caPem: server.tls.caPem, insecure: false }, server };
}

type LoadValues = ResolvedOptions<(typeof LOAD_COMMAND)['options']>;

/** The options of the embedded reference server, which neither --export nor --from-artillery starts. */
function refuseEmbeddedOptions(values: LoadValues, flag: string): void {
  if (values.fault.length > 0) throw new UsageError(`--fault applies to the embedded reference server, which ${flag} does not start; drop it`);
  if (values['server-rate-limit'] !== null) throw new UsageError(`--server-rate-limit applies to the embedded reference server, which ${flag} does not start; drop it`);
}

/** The limit load would judge against without an embedded server: the one given, else the profile's. */
function givenRateLimit(values: LoadValues, profile: Profile): RateLimitWindow | null {
  if (values['rate-limit'] !== undefined) return values['rate-limit'];
  return values.profile ? { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window } : null;
}

/** The TLS trust an Artillery script carries: the CA file's PEM (--ca, else the profile's), or insecure. */
async function scriptTls(values: LoadValues, profile: Profile): Promise<{ caPem: string | undefined; insecure: boolean }> {
  const caFile = values.ca ?? profile.tls.ca;
  return { caPem: caFile ? await readPemFile(caFile) : undefined, insecure: values.insecure || profile.tls.insecure };
}

/** `--target` as the origin a script calls, checked as for a run (HTTPS unless --allow-http, no path), without the token a run needs. */
function scriptOrigin(target: string, profile: Profile, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target "${target}" is not a URL; give the base URL, e.g. https://api.example.com`);
  }
  if (url.protocol === 'http:' && !allowHttp) throw new UsageError(`refusing ${url.origin}: the spec serves the API over HTTPS only (§1); use https:// (or --allow-http for a plain-HTTP development server)`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--target must be https://host[:port], got ${url.protocol}`);
  if (url.pathname !== '/' && url.pathname !== '') throw new UsageError(`--target is the base URL (scheme, host, port); ${profile.api_prefix} is added: drop "${url.pathname}"`);
  return url.origin;
}

/**
 * `--export artillery FILE`: the run as an Artillery script, written and not run. Neither the embedded
 * server nor the token is needed: the script reads the token from the environment when Artillery runs.
 */
async function exportArtillery(values: LoadValues, file: string | undefined, options: LoadOptions, profile: Profile): Promise<number> {
  if (file === undefined) throw new UsageError('load: --export artillery needs FILE, the script to write (- for stdout): --export artillery load.yml');
  refuseEmbeddedOptions(values, '--export');
  const target = values.target ?? profile.target;
  if (!target) throw new UsageError('load --export artillery needs --target (or a profile with target): the script runs later, where no embedded reference server is');
  const envToken = process.env[profile.token_env];
  if (envToken && new Redactor(envToken).text(options.endpoint.path) !== options.endpoint.path) {
    throw new UsageError(`load --export artillery: --endpoint holds the value of ${profile.token_env}, and the script would carry it; the token goes in Authorization only`);
  }
  const exported = artilleryScript({
    options,
    origin: scriptOrigin(target, profile, values['allow-http']),
    apiPrefix: profile.api_prefix,
    tokenEnv: profile.token_env,
    tls: await scriptTls(values, profile),
    rateLimit: givenRateLimit(values, profile),
    toolVersion: toolVersion(),
    file: file === '-' ? 'script.yml' : file,
  });
  if (file === '-') process.stdout.write(exported.yaml);
  else await writeFile(file, exported.yaml, 'utf8');
  const where = file === '-' ? 'stdout' : file;
  if (!values.quiet) process.stderr.write(`load: wrote ${where}: an Artillery 2.x script of ${describeLoad(options)}; run it with ${profile.token_env} set: artillery run --output report.json ${file === '-' ? 'SCRIPT' : file}\n`);
  for (const line of exported.unmapped) process.stderr.write(`load: no Artillery equivalent, not in the script: ${line}\n`);
  return 0;
}

/** `--from-artillery REPORT.json`: Artillery's report as load.json and load.html, judged as load judges; nothing is sent. */
async function fromArtillery(values: LoadValues, options: LoadOptions, profile: Profile): Promise<number> {
  refuseEmbeddedOptions(values, '--from-artillery');
  const file = values['from-artillery'] as string;
  const report = await readJsonFile(file, artilleryReportSchema, ARTILLERY_REPORT_ROLE);
  const given = values.endpoint === undefined ? undefined : options.endpoint;
  const endpoint = artilleryEndpoint(report.aggregate, given, profile.api_prefix, file);
  const target = values.target ?? profile.target;
  // As for a run: a token pasted into the endpoint (here, into a request's name) is redacted wherever it is shown.
  const envToken = process.env[profile.token_env];
  const redact = envToken ? (text: string) => new Redactor(envToken).text(text) : (text: string) => text;
  const runId = loadRunId(new Date(report.aggregate.firstMetricAt));
  const loadReport = buildArtilleryLoadReport(report, {
    runId,
    toolVersion: toolVersion(),
    origin: target ? scriptOrigin(target, profile, true) : 'unknown',
    apiPrefix: profile.api_prefix,
    options: { ...options, endpoint: { ...endpoint, path: redact(endpoint.path) } },
    rateLimit: givenRateLimit(values, profile),
  });
  const paths = await writeLoadReports(loadReport, resolve(values['report-dir'], runId));
  process.stdout.write(redact(loadSummary(loadReport, { color: useColor(process.stdout), paths })));
  return loadReport.exitCode;
}

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
  if (values.workload !== undefined) return workloadCommand(values, profile, input.args.file);
  for (const flag of ['read-only', 'seed', 'sample'] as const) {
    if (values[flag] !== undefined && values[flag] !== false) throw new UsageError(`load: --${flag} goes with --workload (a one-endpoint run sends GET only, nothing generated, and judges no answer)`);
  }
  if (values.export !== undefined) return exportArtillery(values, input.args.file, options, profile);
  if (values['from-artillery'] !== undefined) return fromArtillery(values, options, profile);
  return runLoadCommand(values, options, profile);
}

/** `load` itself: the run against --target or an embedded reference server, its reports and verdict. */
async function runLoadCommand(values: LoadValues, options: LoadOptions, profile: Profile): Promise<number> {
  const target = values.target ?? profile.target;
  if (target && values.fault.length > 0) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (target && values['server-rate-limit'] !== null) throw new UsageError('--server-rate-limit applies to the embedded reference server only; drop --target');
  for (const name of values.fault) serverFaultByName(name); // a name no fault has is a UsageError with a suggestion
  const hostname = target ? hostnameOf(target) : null;
  if (hostname !== null && !isLoopbackHost(hostname) && !values.yes) {
    const envToken = process.env[profile.token_env];
    const refusal = `refusing to load ${hostname} without --yes: it is not this machine, and this would send ${describeLoad(options)}; add --yes to confirm`;
    throw new UsageError(envToken ? new Redactor(envToken).text(refusal) : refusal);
  }
  const serverRateLimit = values['server-rate-limit'];
  const rateLimitOption = values['rate-limit'];
  const { reach, server } = await openTarget(target, profile, values, serverRateLimit);
  try {
    const { origin, token } = reach;
    const tls = { caPem: reach.caPem, insecure: reach.insecure };
    // The limit to judge against: the one given, else the embedded server's own, else the profile's.
    let rateLimit: RateLimitWindow | null = null;
    if (rateLimitOption !== undefined) rateLimit = rateLimitOption;
    else if (server) rateLimit = serverRateLimit;
    else if (values.profile) rateLimit = { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window };

    // The endpoint is the user's text: a token pasted into its query is redacted wherever it is shown.
    const redactor = new Redactor(token);
    const runId = loadRunId(new Date());
    if (!values.quiet) process.stderr.write(redactor.text(`load: ${origin}${profile.api_prefix}: ${describeLoad(options)}\n`));
    const report = await runLoad({
      origin,
      apiPrefix: profile.api_prefix,
      token,
      tls,
      options,
      rateLimit,
      embedded: server !== null,
      toolVersion: toolVersion(),
      runId,
    });
    const paths = await writeLoadReports(report, resolve(values['report-dir'], runId));
    process.stdout.write(redactor.text(loadSummary(report, { color: useColor(process.stdout), paths })));
    return report.exitCode;
  } finally {
    await server?.close();
  }
}

/**
 * `load --workload FILE|default`: the workload's flows against --target or an embedded reference
 * server, per-operation results and verdict. A workload that writes needs --yes on a target that is
 * not loopback, and says before it starts how many records it creates at most.
 */
async function workloadCommand(values: LoadValues, profile: Profile, file: string | undefined): Promise<number> {
  for (const [flag, given] of [['--endpoint', values.endpoint], ['--amount', values.amount]] as const) {
    if (given !== undefined) throw new UsageError(`load: ${flag} does not go with --workload (${flag === '--amount' ? 'a workload runs for a time: give --duration' : 'the workload names its operations'})`);
  }
  const { loadWorkload } = await import('../../workload/workload-file.ts');
  const { defaultWorkload } = await import('../../workload/default-workload.ts');
  const plan = await import('../../workload/workload-plan.ts');
  const { describeArrival } = await import('../../workload/arrival.ts');
  const { parseWorkloadEnsure } = await import('../../workload/workload-ensure.ts');
  let workload = values.workload === 'default' ? defaultWorkload() : await loadWorkload(values.workload as string);
  // The command line's shape over the workload's own arrival: validated as for a one-endpoint run.
  const shape = resolveLoadOptions({ connections: values.connections, duration: values.duration, rate: values.rate });
  workload = {
    ...workload,
    arrival: plan.arrivalWith(workload.arrival, {
      ...(values.rate !== undefined ? { rate: shape.rate! } : {}),
      ...(values.connections !== undefined ? { connections: shape.connections } : {}),
      ...(values.duration !== undefined && shape.stop.kind === 'duration' ? { durationMs: shape.stop.seconds * 1000 } : {}),
    }),
  };
  if (values['read-only']) workload = plan.readOnlyWorkload(workload);
  const ensure = parseWorkloadEnsure(values.ensure, plan.operationsOf(workload));
  const target = values.target ?? profile.target;
  if (values.export !== undefined && values['from-artillery'] !== undefined) throw new UsageError('load: --export writes a script and --from-artillery reads a report: give one');
  if (values.export !== undefined) return exportWorkload(values, profile, workload, ensure, file);
  if (values['from-artillery'] !== undefined) return workloadFromArtillery(values, profile, workload, ensure);
  if (target && values.fault.length > 0) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (target && values['server-rate-limit'] !== null) throw new UsageError('--server-rate-limit applies to the embedded reference server only; drop --target');
  for (const name of values.fault) serverFaultByName(name);
  const writes = plan.maxWrites(workload);
  const what = `workload ${workload.name}, ${describeArrival(workload.arrival)}${writes > 0 ? `, creating or editing at most ${writes} records (permanent: this API deletes no user, timesheet or break)` : ', reads only'}`;
  const hostname = target ? hostnameOf(target) : null;
  if (hostname !== null && !isLoopbackHost(hostname) && !values.yes) {
    throw new UsageError(`refusing to load ${hostname} without --yes: it is not this machine, and this would send the ${what}; add --yes to confirm${writes > 0 ? ' (or --read-only to send only reads)' : ''}`);
  }
  if (target) plan.requireFixtures(workload, profile);
  const { reach, server } = await openTarget(target, profile, values, values['server-rate-limit']);
  try {
    const { embeddedProfile } = await import('../../embedded/embedded-profile.ts');
    const runProfile = server ? embeddedProfile({ ...server, rateLimit: values['server-rate-limit'] }) : profile;
    let rateLimit: RateLimitWindow | null = null;
    if (values['rate-limit'] !== undefined) rateLimit = values['rate-limit'];
    else if (server) rateLimit = values['server-rate-limit'];
    else if (values.profile) rateLimit = { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window };
    const seed = values.seed ?? Math.floor(Math.random() * 2 ** 31);
    const runId = loadRunId(new Date());
    if (!values.quiet) process.stderr.write(`load: ${reach.origin}${profile.api_prefix}: ${what}; seed ${seed}\n`);
    const { runWorkloadLoad } = await import('../../workload/workload-run.ts');
    const report = await runWorkloadLoad({
      origin: reach.origin,
      apiPrefix: profile.api_prefix,
      token: reach.token,
      tls: { caPem: reach.caPem, insecure: reach.insecure },
      allowPlainHttp: values['allow-http'],
      profile: runProfile,
      workload,
      seed,
      readOnly: values['read-only'],
      ensure,
      rateLimit,
      embedded: server !== null,
      toolVersion: toolVersion(),
      runId,
      ...(values.sample === undefined ? {} : { sampleEvery: values.sample }),
      replay: `clockcheck load --workload ${values.workload} --seed ${seed}${target ? ` --target ${reach.origin}` : ''}`,
    });
    const { writeWorkloadReports } = await import('../../workload/write-workload-reports.ts');
    const { workloadSummary } = await import('../../workload/workload-summary.ts');
    const paths = await writeWorkloadReports(report, resolve(values['report-dir'], runId));
    process.stdout.write(new Redactor(reach.token).text(workloadSummary(report, { color: useColor(process.stdout), paths })));
    return report.exitCode;
  } finally {
    await server?.close();
  }
}

/** `load --workload … --export artillery FILE`: the workload as an Artillery script, written and not run (no token needed). */
async function exportWorkload(values: LoadValues, profile: Profile, workload: Workload, ensure: readonly WorkloadThreshold[], file: string | undefined): Promise<number> {
  if (file === undefined) throw new UsageError('load: --export artillery needs FILE, the script to write (- for stdout): --export artillery workload.yml');
  refuseEmbeddedOptions(values, '--export');
  const target = values.target ?? profile.target;
  if (!target) throw new UsageError('load --workload --export artillery needs --target (or a profile with target): the script runs later, where no embedded reference server is');
  const { requireFixtures } = await import('../../workload/workload-plan.ts');
  requireFixtures(workload, profile);
  const { workloadArtilleryScript } = await import('../../workload/artillery-workload.ts');
  const seed = values.seed ?? Math.floor(Math.random() * 2 ** 31);
  const exported = workloadArtilleryScript({
    workload,
    origin: scriptOrigin(target, profile, values['allow-http']),
    apiPrefix: profile.api_prefix,
    tokenEnv: profile.token_env,
    tls: await scriptTls(values, profile),
    profile,
    seed,
    ensure,
    toolVersion: toolVersion(),
    file: file === '-' ? 'script.yml' : file,
  });
  if (file === '-') process.stdout.write(exported.yaml);
  else await writeFile(file, exported.yaml, 'utf8');
  if (!values.quiet) process.stderr.write(`load: wrote ${file === '-' ? 'stdout' : file}: workload ${workload.name} as an Artillery 2.x script; run it with ${profile.token_env} set: artillery run --output report.json ${file === '-' ? 'SCRIPT' : file}\n`);
  for (const line of exported.unmapped) process.stderr.write(`load: not in the script: ${line}\n`);
  return 0;
}

/** `load --workload … --from-artillery REPORT.json`: an exported workload's Artillery run, per operation, judged as a workload run; nothing is sent. */
async function workloadFromArtillery(values: LoadValues, profile: Profile, workload: Workload, ensure: readonly WorkloadThreshold[]): Promise<number> {
  refuseEmbeddedOptions(values, '--from-artillery');
  const report = await readJsonFile(values['from-artillery'] as string, artilleryReportSchema, ARTILLERY_REPORT_ROLE);
  const { buildArtilleryWorkloadReport } = await import('../../workload/from-artillery-workload.ts');
  const { writeWorkloadReports } = await import('../../workload/write-workload-reports.ts');
  const { workloadSummary } = await import('../../workload/workload-summary.ts');
  const target = values.target ?? profile.target;
  const runId = loadRunId(new Date(report.aggregate.firstMetricAt));
  const built = buildArtilleryWorkloadReport(report, {
    runId,
    toolVersion: toolVersion(),
    origin: target ? scriptOrigin(target, profile, true) : 'unknown',
    apiPrefix: profile.api_prefix,
    embedded: false,
    workload,
    seed: values.seed ?? 0,
    readOnly: values['read-only'],
    ensure,
    rateLimit: null,
    startedAtMs: report.aggregate.firstMetricAt,
    finishedAtMs: report.aggregate.lastMetricAt,
  });
  const paths = await writeWorkloadReports(built, resolve(values['report-dir'], runId));
  const envToken = process.env[profile.token_env];
  const text = workloadSummary(built, { color: useColor(process.stdout), paths });
  process.stdout.write(envToken ? new Redactor(envToken).text(text) : text);
  return built.exitCode;
}
