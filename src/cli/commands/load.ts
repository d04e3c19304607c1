import { resolve } from 'node:path';
import { UsageError } from '../../errors.ts';
import { isLoopbackHost } from '../../load/loopback.ts';
import { describeLoad, MAX_AMOUNT, MAX_DURATION_SECONDS, resolveLoadOptions } from '../../load/load-options.ts';
import { loadRunId, runLoad } from '../../load/load-run.ts';
import { loadSummary } from '../../load/load-summary.ts';
import type { RateLimitWindow } from '../../load/load-verdict.ts';
import { writeLoadReports } from '../../load/write-load-reports.ts';
import { isFaultName } from '../../reference/faults.ts';
import { parseRateLimit, type RateLimitSetting } from '../../contract/rate-limit.ts';
import type { ReferenceServer } from '../../reference/server.ts';
import { startEmbeddedTarget } from '../../run/embedded-target.ts';
import { toolVersion } from '../../version.ts';
import { defaultProfile, loadProfile, type Profile } from '../../profile/profile.ts';
import { Redactor } from '../../client/redaction.ts';
import { parseCommandArgs } from '../args.ts';
import { resolveTargetAccess, type TargetAccess } from '../target-access.ts';
import { useColor } from '../color.ts';

const USAGE = `clockcheck load [--target https://host[:port]] [--endpoint GET:/breaks] [--connections 10]
                [--duration 10s | --amount N] [--rate R] [--rate-limit 60/60s|off] [--yes]
                [--profile FILE] [--ca FILE | --insecure] [--allow-http] [--report-dir DIR] [--quiet]
                [--server-rate-limit off|LIMIT/WINDOW] [--fault NAME]...

Sends load to one endpoint with autocannon and writes reports/<run-id>/{load.json,load.html}: latency
percentiles, throughput, the status histogram, 5xx, errors and timeouts. The token comes from
CLOCKCHECK_TOKEN (or the profile's token_env), never from the command line.
--endpoint is METHOD:/path[?query] under /api/public; GET only (a load run sends no body and changes nothing).
--connections 1 to 256 (default 10). --duration up to ${MAX_DURATION_SECONDS}s (default 10s), or --amount up to ${MAX_AMOUNT} responses.
--rate caps the requests per second over all connections (default: as fast as the target answers).
--rate-limit is the target's limit to judge against (default: the profile's rate_limit with --profile,
the embedded server's own limit without --target, else not judged): more calls served (2xx) than a
conforming sliding window allows in the run's length fails the run.
A target that is not loopback (127.0.0.0/8, ::1, localhost) needs --yes.
Without --target, an embedded reference server is started, its limit set by --server-rate-limit (default off),
with any --fault switched on.
Exit codes: 0 no 5xx, no transport error, nothing served beyond the limit; 1 otherwise; 2 the run could not be made.`;

function rateLimitOption(name: string, text: string): RateLimitSetting | null {
  try {
    return parseRateLimit(text);
  } catch (error) {
    throw new UsageError(`--${name}: ${(error as Error).message}`);
  }
}

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
  const { values } = parseCommandArgs('load', argv, {
    target: { type: 'string' },
    endpoint: { type: 'string' },
    connections: { type: 'string' },
    duration: { type: 'string' },
    amount: { type: 'string' },
    rate: { type: 'string' },
    'rate-limit': { type: 'string' },
    yes: { type: 'boolean', default: false },
    profile: { type: 'string' },
    ca: { type: 'string' },
    insecure: { type: 'boolean', default: false },
    'allow-http': { type: 'boolean', default: false },
    'report-dir': { type: 'string', default: 'reports' },
    'server-rate-limit': { type: 'string', default: 'off' },
    fault: { type: 'string', multiple: true, default: [] },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const options = resolveLoadOptions({
    endpoint: values.endpoint,
    connections: values.connections,
    duration: values.duration,
    amount: values.amount,
    rate: values.rate,
  });
  const profile = values.profile ? await loadProfile(values.profile) : defaultProfile();
  const target = values.target ?? profile.target;
  if (target && values.fault.length > 0) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (target && values['server-rate-limit'] !== 'off') throw new UsageError('--server-rate-limit applies to the embedded reference server only; drop --target');
  for (const name of values.fault) {
    if (!isFaultName(name)) throw new UsageError(`unknown fault "${name}"; \`clockcheck serve --list-faults\` lists them`);
  }
  const hostname = target ? hostnameOf(target) : null;
  if (hostname !== null && !isLoopbackHost(hostname) && !values.yes) {
    const envToken = process.env[profile.token_env];
    const refusal = `refusing to load ${hostname} without --yes: it is not this machine, and this would send ${describeLoad(options)}; add --yes to confirm`;
    throw new UsageError(envToken ? new Redactor(envToken).text(refusal) : refusal);
  }
  const serverRateLimit = rateLimitOption('server-rate-limit', values['server-rate-limit']);
  const givenRateLimit = values['rate-limit'] === undefined ? undefined : rateLimitOption('rate-limit', values['rate-limit']);
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
