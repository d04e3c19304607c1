import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.ts';
import { parseDuration } from '../../duration.ts';
import { parseRateLimit } from '../../contract/rate-limit.ts';
import { summaryTable, verdictSummary } from '../../report/terminal-reporter.ts';
import { EMBEDDED_RATE_LIMIT, QUICK_RATE_LIMIT, embeddedProfile, embeddedQuickPacing, unstartedEmbeddedFacts } from '../../run/embedded-profile.ts';
import type { RunBudget } from '../../run/budget.ts';
import { readLastFailed } from '../../run/last-failed.ts';
import { planDocument, planText } from '../../run/plan-text.ts';
import { spawnEmbeddedTarget } from '../../run/embedded-process.ts';
import { defaultProfile, loadProfile, type Profile } from '../../profile/profile.ts';
import { integerOption, parseCommandArgs } from '../args.ts';
import { resolveTargetAccess } from '../target-access.ts';
import { useColor } from '../color.ts';
import { loadSuites } from '../../scenarios/loader.ts';
import { BUILTIN_CHECK_NAMES } from '../../checks/names.ts';

/**
 * Default generated cases for the property checks. Against a target at 60 calls a minute the
 * scenarios take ~8 minutes; 110 cases (10 per family) add ~2 and the rate-limit phase ~4, so a
 * full run takes about fourteen (measured: 14 min 17 s for 795 requests, README).
 */
export const DEFAULT_BUDGET = { external: 110, embedded: 550 } as const;

const USAGE = `clockcheck run [--target https://host[:port]] [--profile FILE] [--ca FILE | --insecure]
               [--rate-limit 60/60s] [--report-dir DIR] [--only RULE|CHECK|SUITE,...] [--suite GLOB|FILE]
               [--read-only] [--seed N] [--budget N] [--path P] [--max-time DURATION] [--quiet]
               [--plan [--format text|json]] [--last-failed [REPORT]] [--within DURATION] [--max-requests N]

Certifies a target against the spec and writes reports/<run-id>/{report.json,report.html,junit.xml}.
\`clockcheck init --target URL\` writes a profile from the target's own answers.
--plan prints what the run would do and sends nothing (no token needed): each check with its requests
and rules, the rate-limit phase with its windows, the total and the ETA at the target's limit; --format
json for machines. The run itself follows the same plan.
--within 6m / --max-requests N fit the run into a budget at the target's limit: first every rule once with
the cheapest checks that cover it (a weighted set cover), then more checks and generated cases while the
budget lasts; the checks left out are skipped "over budget", and a note says which rules went uncovered.
The rate-limit phase is costed in windows (about three whole windows at any request count).
--last-failed re-runs only the checks that failed or errored in REPORT (a report.json or its directory;
default: the newest report of the same target in --report-dir), with that run's seed and generated cases
per family, so the cases are the same cases; the new report names the run it re-ran.
--target is the spec's {base_url}; /api/public is added. The token comes from CLOCKCHECK_TOKEN (or the
profile's token_env), never from the command line. Without --target, the embedded reference server is
started and certified (its rate window scaled to 60 calls per second).
The run ends with the rate-limit checks (§8): after a window without calls, bursts of at most limit + 4
calls probe the 429 boundary, the reset, the sliding window and page sizes under load; --only rate-limit
runs just them, and the profile's rate_limit.bursts: false skips them.
--budget is the number of generated cases the property checks send in all (default ${DEFAULT_BUDGET.external}
against a target, which keeps a 60-per-minute run near fourteen minutes; ${DEFAULT_BUDGET.embedded} against the embedded server).
--path replays one generated case: clockcheck run --only properties/FAMILY --seed S --path P (from a report).
The preflight checks the token first: refused as §5.2 sends it but served as Bearer, the run goes on
with Bearer and fails AUTH-HEADER-RAW once; refused in both forms, or the API's path redirected, the run
exits 2 with one line (and a report that says so). No redirect is ever followed.
Every run ends by itself: each exchange within the profile's timeouts.exchange (default 60s), the run
within --max-time (e.g. 20m; default three times the plan's ETA, at least 10m), and after 5 exchanges in a
row without an answer no more are sent; the checks not run are errored with the reason, and the reports
are written.
--quiet prints only the verdict line (no progress, no summary table). Colours only on a terminal, never
under NO_COLOR or TERM=dumb; a pipe or a CI log gets plain text and progress as plain lines.
A run with failures also writes reports/<run-id>/regressions.yaml: each failing generated case as a
minimal pair (the failing case repaired by the spec model, then the one change), with its seed and path,
and each failed scenario with only its failed variants; run it with --suite PATH/regressions.yaml --only
regressions. --suite takes a glob under
--suites-dir or a suite file's path.
Exit codes: 0 every check passed (or was waived/skipped), 1 a check failed or errored, 2 the run could not be made.`;

/** The package's own folder (suites/ ships with it). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** What failed in a run, as a suite, beside its reports (src/regressions). */
const REGRESSIONS_FILE = 'regressions.yaml';

export async function runCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('run', argv, {
    target: { type: 'string' },
    profile: { type: 'string' },
    ca: { type: 'string' },
    insecure: { type: 'boolean', default: false },
    'rate-limit': { type: 'string' },
    'report-dir': { type: 'string', default: 'reports' },
    only: { type: 'string', default: '' },
    suite: { type: 'string', default: '**/*.yaml' },
    'suites-dir': { type: 'string', default: join(PACKAGE_ROOT, 'suites') },
    'read-only': { type: 'boolean', default: false },
    seed: { type: 'string' },
    budget: { type: 'string' },
    path: { type: 'string' },
    'max-time': { type: 'string' },
    'allow-http': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    plan: { type: 'boolean', default: false },
    'last-failed': { type: 'boolean', default: false },
    within: { type: 'string' },
    'max-requests': { type: 'string' },
    format: { type: 'string', default: 'text' },
    fault: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let maxTimeMs: number | undefined;
  if (values['max-time'] !== undefined) {
    const parsed = parseDuration(values['max-time']);
    if (parsed === null || parsed <= 0) throw new UsageError(`--max-time takes a duration such as 90s or 20m, not "${values['max-time']}"`);
    maxTimeMs = parsed;
  }
  if (positionals.length > (values['last-failed'] ? 1 : 0)) {
    throw new UsageError(`run: unexpected argument "${positionals.at(-1)}"${values['last-failed'] ? '' : ' (a report to re-run goes after --last-failed)'}`);
  }
  if (values['last-failed'] && (values.only !== '' || values.seed !== undefined || values.path !== undefined || values.budget !== undefined)) {
    throw new UsageError('--last-failed takes the checks, the seed and the generated cases from the report it re-runs; drop --only, --seed, --budget and --path');
  }
  let profile: Profile = values.profile ? await loadProfile(values.profile) : defaultProfile();
  const targetUrl = values.target ?? profile.target;
  const lastFailed = values['last-failed'] ? await readLastFailed(positionals[0], values['report-dir'], targetUrl ? { embedded: false, baseUrl: originOf(targetUrl) } : { embedded: true }) : null;
  const seed = lastFailed?.seed ?? integerOption('seed', values.seed, Math.floor(Math.random() * 2 ** 31), 0, 2 ** 31 - 1);
  const only = lastFailed ? [...lastFailed.checkIds] : values.only.split(',').map((s) => s.trim()).filter(Boolean);
  if (lastFailed && lastFailed.checkIds.length === 0) {
    console.log(`nothing failed or errored in run ${lastFailed.runId} (${lastFailed.reportPath}): nothing to re-run`);
    return 0;
  }
  if (values.fault.length > 0 && targetUrl) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (values.format !== 'text' && values.format !== 'json') throw new UsageError(`--format is text or json, not "${values.format}"`);
  if (values.format === 'json' && !values.plan) throw new UsageError('--format applies to --plan (a run writes report.json anyway)');
  // A re-run family sends as many generated cases as it did in the report, so they are the same cases.
  const budget = lastFailed
    ? lastFailed.casesPerFamily * lastFailed.checkIds.filter((id) => id.startsWith('properties/')).length
    : integerOption('budget', values.budget, targetUrl ? DEFAULT_BUDGET.external : DEFAULT_BUDGET.embedded, 0, 100_000);
  let runBudget: RunBudget | undefined;
  if (values.within !== undefined || values['max-requests'] !== undefined) {
    const withinMs = values.within === undefined ? undefined : parseDuration(values.within);
    if (withinMs === null || (withinMs !== undefined && withinMs <= 0)) throw new UsageError(`--within takes a duration such as 6m or 90s, not "${values.within}"`);
    const maxRequests = values['max-requests'] === undefined ? undefined : integerOption('max-requests', values['max-requests'], 0, 1, 1_000_000);
    runBudget = { ...(withinMs === undefined ? {} : { withinMs }), ...(maxRequests === undefined ? {} : { maxRequests }) };
  }
  const selection = {
    ...suiteFiles(values.suite, values['suites-dir']),
    only,
    budget,
    ...(values.path ? { path: values.path } : {}),
  };

  // The embedded server paces its checks at the quick window and runs the rate-limit phase at its own
  // (README, "Two windows for the embedded server"); with --rate-limit, the run paces at that instead.
  const quick = !targetUrl && values['rate-limit'] === undefined;

  if (values.plan) {
    const planned = withRateLimitOption(targetUrl ? profile : { ...embeddedProfile(unstartedEmbeddedFacts()), waivers: profile.waivers }, values['rate-limit']);
    const { planWithinBudget, budgetNote } = await import('../../run/budget.ts');
    const { plan, choice } = await planWithinBudget({ profile: planned, ...selection, readOnly: values['read-only'], ...(quick ? { pacedAt: QUICK_RATE_LIMIT } : {}) }, runBudget);
    const where = { target: targetUrl ?? 'the embedded reference server', limit: planned.rate_limit.limit, windowMs: planned.rate_limit.window };
    const budget = choice ? { note: budgetNote(choice), leftOut: choice.leftOut.map((c) => c.id) } : null;
    console.log(values.format === 'json' ? JSON.stringify({ ...planDocument(plan, where), budget }, null, 2) : `${planText(plan, where)}${budget ? `\n${budget.note}` : ''}`);
    return 0;
  }

  // The certification's modules (about 0.3 s to load) load while the embedded server starts in its own process.
  const starting = targetUrl ? null : spawnEmbeddedTarget({ faults: values.fault, rateLimit: quick ? QUICK_RATE_LIMIT : EMBEDDED_RATE_LIMIT });
  starting?.catch(() => undefined); // a failed start is reported where it is awaited, below, not as an unhandled rejection
  const [{ certify }, { writeReports }, { regressionSuite }] = await Promise.all([
    import('../../run/certify.ts'),
    import('../../report/write-reports.ts'),
    import('../../regressions/regression-suite.ts'),
  ]);
  const server = await starting;
  try {
    let origin: string;
    let token: string;
    let caPem: string | undefined;
    if (server) {
      profile = { ...embeddedProfile({ ...server, rateLimit: EMBEDDED_RATE_LIMIT }), waivers: profile.waivers };
      origin = server.origin;
      token = server.token;
      caPem = server.caPem;
    } else {
      const access = await resolveTargetAccess(targetUrl as string, profile, { ca: values.ca, insecure: values.insecure, allowHttp: values['allow-http'] });
      origin = access.origin;
      token = access.token;
      caPem = access.caPem;
    }
    profile = withRateLimitOption(profile, values['rate-limit']);
    const webhookSecret = server ? undefined : webhookSecretFromEnv(profile);
    const replayTarget = server ? '' : ` --target ${origin}`;
    const report = await certify({
      origin,
      embedded: server !== null,
      profile,
      token,
      caPem,
      insecure: values.insecure || profile.tls.insecure,
      allowPlainHttp: values['allow-http'],
      ...selection,
      readOnly: values['read-only'],
      seed,
      ...(lastFailed ? { rerunOf: { runId: lastFailed.runId, reportPath: lastFailed.reportPath } } : {}),
      ...(runBudget ? { runBudget } : {}),
      ...(maxTimeMs === undefined ? {} : { maxTimeMs }),
      ...(quick && server ? { quickPacing: embeddedQuickPacing((setting) => server.setRateLimit(setting)) } : {}),
      ...(webhookSecret === undefined ? {} : { webhookSecret }),
      progress: values.quiet ? null : process.stderr,
      replayBase: `clockcheck run${replayTarget}${values.profile ? ` --profile ${values.profile}` : ''}${values.fault.map((f) => ` --fault ${f}`).join('')}`,
    });
    const dir = resolve(values['report-dir'], report.runId);
    await mkdir(dir, { recursive: true });
    let caFile = values.ca ?? profile.tls.ca;
    if (server) {
      caFile = join(dir, 'ca.pem');
      await writeFile(caFile, server.caPem);
    }
    let paths = await writeReports(report, dir, { ...(caFile ? { caFile } : {}), insecure: values.insecure || profile.tls.insecure });
    // A failed scenario's definition goes into regressions.yaml: the suites as this run read them.
    const failedScenarios = report.checks.some((c) => c.status === 'failed' && c.source.kind === 'scenario');
    const regressions = regressionSuite(report, failedScenarios ? await loadSuites(selection.suitesDir, selection.suiteGlob, BUILTIN_CHECK_NAMES) : []);
    if (regressions !== null) {
      paths = { ...paths, regressions: join(dir, REGRESSIONS_FILE) };
      await writeFile(paths.regressions!, regressions, 'utf8');
    }
    const color = useColor(process.stdout);
    process.stdout.write(values.quiet ? verdictSummary(report, { color }) : `${summaryTable(report, { color, paths })}\n`);
    if (report.runError !== undefined) console.error(`clockcheck: ${report.runError}`);
    return report.exitCode;
  } finally {
    await server?.close();
  }
}

/**
 * Where the scenarios come from: `--suite` is a glob under `--suites-dir`, or the path of a suite
 * file (such as a regressions.yaml a run wrote), which is then read alone.
 */
function suiteFiles(suite: string, suitesDir: string): { suitesDir: string; suiteGlob: string } {
  const file = resolve(suite);
  if (/\.ya?ml$/.test(suite) && existsSync(file) && statSync(file).isFile()) return { suitesDir: dirname(file), suiteGlob: basename(file) };
  return { suitesDir, suiteGlob: suite };
}

/** The webhook subscription's secret from the profile's `webhook.secret_env` (a sink checks signatures with it); never from the command line. */
function webhookSecretFromEnv(profile: Profile): string | undefined {
  const name = profile.webhook?.secret_env;
  if (!name || !profile.webhook?.sink) return undefined;
  const secret = process.env[name];
  if (!secret) throw new UsageError(`set ${name} to the webhook subscription's secret (profile webhook.secret_env); it is never taken from the command line`);
  return secret;
}

/** The profile with `--rate-limit L/W` in place of its own limit (none given: the profile's). */
function withRateLimitOption(profile: Profile, option: string | undefined): Profile {
  if (!option) return profile;
  let setting;
  try {
    setting = parseRateLimit(option);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!setting) throw new UsageError('--rate-limit off is not allowed for a run: the harness must pace itself');
  return { ...profile, rate_limit: { ...profile.rate_limit, limit: setting.limit, window: setting.windowMs } };
}

/** The origin of a --target (what a report's target.baseUrl holds); the URL as given when it is not one. */
function originOf(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return target;
  }
}
