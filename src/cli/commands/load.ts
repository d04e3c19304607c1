import { resolve } from 'node:path';
import { UsageError } from '../../errors.ts';
import { isLoopbackHost } from '../../load/loopback.ts';
import { CONNECTIONS, DEFAULT_DURATION_SECONDS, describeLoad, MAX_AMOUNT, MAX_DURATION_SECONDS, resolveLoadOptions } from '../../load/load-options.ts';
import { loadRunId, runLoad } from '../../load/load-run.ts';
import { loadSummary } from '../../load/load-summary.ts';
import type { RateLimitWindow } from '../../load/load-verdict.ts';
import { writeLoadReports } from '../../load/write-load-reports.ts';
import { faultByName } from '../../reference/faults.ts';
import { parseRateLimit, type RateLimitSetting } from '../../contract/rate-limit.ts';
import type { ReferenceServer } from '../../reference/server.ts';
import { startEmbeddedTarget } from '../../run/embedded-target.ts';
import { toolVersion } from '../../version.ts';
import { defaultProfile, loadProfile, type Profile } from '../../profile/profile.ts';
import { Redactor } from '../../client/redaction.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { resolveTargetAccess, type TargetAccess } from '../target-access.ts';
import { useColor } from '../color.ts';

export const LOAD_COMMAND = defineCommand({
  name: 'load',
  description: `Sends load to one endpoint with autocannon and writes reports/<run-id>/{load.json,load.html}: latency
percentiles, throughput, the status histogram, the requests left unanswered, errors and timeouts.
The token comes from CLOCKCHECK_TOKEN (or the profile's token_env), never from the command line.
A target that is not loopback (127.0.0.0/8, ::1, localhost) needs --yes.
Without --target, an embedded reference server is started, its limit set by --server-rate-limit,
with any --fault switched on.
By default the run fails on any 5xx, any request left unanswered (timed out, lost with its connection,
or held until the run stopped), any transport error, and more calls served than the limit allows;
--ensure adds thresholds, and a threshold on non2xx, unanswered, timeouts or errors takes the place of
the default for what it bounds.
Exit codes: 0 every check and threshold met; 1 otherwise; 2 the run could not be made, or an option
(--ensure among them) is malformed.`,
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
  },
});

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

export async function loadCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(LOAD_COMMAND, argv);
  if (!input) return 0;
  const values = input.options;
  const options = resolveLoadOptions({
    endpoint: values.endpoint,
    connections: values.connections,
    duration: values.duration,
    amount: values.amount,
    rate: values.rate,
    ensure: values.ensure,
  });
  const profile = values.profile ? await loadProfile(values.profile) : defaultProfile();
  const target = values.target ?? profile.target;
  if (target && values.fault.length > 0) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (target && values['server-rate-limit'] !== null) throw new UsageError('--server-rate-limit applies to the embedded reference server only; drop --target');
  for (const name of values.fault) faultByName(name); // a name no fault has is a UsageError with a suggestion
  const hostname = target ? hostnameOf(target) : null;
  if (hostname !== null && !isLoopbackHost(hostname) && !values.yes) {
    const envToken = process.env[profile.token_env];
    const refusal = `refusing to load ${hostname} without --yes: it is not this machine, and this would send ${describeLoad(options)}; add --yes to confirm`;
    throw new UsageError(envToken ? new Redactor(envToken).text(refusal) : refusal);
  }
  const serverRateLimit = values['server-rate-limit'];
  const givenRateLimit = values['rate-limit'];
  const { reach, server } = await openTarget(target, profile, values, serverRateLimit);
  try {
    const { origin, token } = reach;
    const tls = { caPem: reach.caPem, insecure: reach.insecure };
    // The limit to judge against: the one given, else the embedded server's own, else the profile's.
    let rateLimit: RateLimitWindow | null = null;
    if (givenRateLimit !== undefined) rateLimit = givenRateLimit;
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
