import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.ts';
import { readLastFailed } from '../../plan/last-failed.ts';
import { defaultProfile, loadProfile, type Profile } from '../../profile/profile.ts';
import { defineCommand, type ResolvedOptions } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';
import { pacingRateLimit } from '../option-parsers.ts';
import { replayBase } from '../replay.ts';
import type { RunInput } from './run/run-input.ts';

/**
 * Default generated cases for the property checks. Against a target at 60 calls a minute the
 * scenarios take ~7 minutes; 110 cases (10 per family) add ~2 and the rate-limit phase, beside
 * them, under 1, so a full run takes about nine (measured: 9 min 14 s for 554 requests, docs/budgets.md).
 */
export const DEFAULT_BUDGET = { external: 110, embedded: 550 } as const;

/** The package's own folder (suites/ ships with it). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const RUN_COMMAND = defineCommand({
  name: 'run',
  description: `Certifies a target against the spec and writes reports/<run-id>/{report.json,report.html,junit.xml}.
\`clockcheck init --target URL\` writes a profile from the target's own answers. The token comes from
CLOCKCHECK_TOKEN (or the profile's token_env), never from the command line. Without --target, the
embedded reference server is started and certified (its rate window scaled to 60 calls per second).
--plan prints what the run would do and sends nothing (no token needed): each check with its requests
and rules, the rate-limit phase with its windows, the total and the ETA at the target's limit. The run
itself follows the same plan.
--within and --max-requests fit the run into a budget at the target's limit: first every rule once with
the cheapest checks that cover it (a weighted set cover), then more checks and generated cases while the
budget lasts; the checks left out are not-run ("not run: budget …"), and a note says which rules went uncovered.
The rate-limit phase is costed as the plan runs it: beside the chosen paced checks, less the calls of theirs it carries.
--last-failed re-runs only the checks that failed, errored or were not run in a report, with that run's seed; a
family that failed replays its failing case alone, one that errored its generated cases; the new report names the run it re-ran.
The rate-limit checks (§8) run beside the paced checks once the calls without the run's token are done:
the checks' own calls open the boundary's window, bursts of at most limit + 4 calls probe the 429 boundary,
the reset, the sliding window and page sizes under load; --only rate-limit runs just them (after a window
without calls), and the profile's rate_limit.bursts: false skips them. A full 60-per-minute run takes about
9 minutes (9 min 14 s measured for 554 requests).
The preflight checks the token first: refused as §5.2 sends it but served as Bearer, the run goes on
with Bearer and fails AUTH-HEADER-RAW once; refused in both forms, or the API's path redirected, the run
exits 2, its cause the first line of the output and the last (and a report that says so). No redirect is
ever followed. A run's output ends with what it created on the target and left there, and what it removed.
Every run ends by itself: each exchange within the profile's timeouts.exchange (default 30s), the run
within --max-time, and after 5 exchanges in a row without an answer no more are sent; the check in
progress is errored and the checks after it not-run, with the reason, and the reports are written.
A rule is judged when a check passed, failed or waived on it; errored, skipped and not-run checks judge
nothing. --min-rules N makes a run that judged fewer than N rules exit 1, even when nothing failed.
Colours only on a terminal, never under NO_COLOR or TERM=dumb; a pipe or a CI log gets plain text and
progress as plain lines.
A run with failures also writes reports/<run-id>/regressions.yaml: each failing generated case as a
minimal pair (the failing case repaired by the spec model, then the one change), with its seed and path,
and each failed scenario with only its failed variants; run it with --suite PATH/regressions.yaml --only
regressions.
Exit codes: 0 nothing judged failed (skips and budget cuts do not change it), 1 a rule failed or fewer
rules were judged than --min-rules, 2 the run could not be made, 3 no rule failed but checks errored.
--har also writes reports/<run-id>/exchanges.har: every exchange of the run once, redacted, as HAR 1.2.`,
  options: {
    target: { kind: 'string', placeholder: 'https://host[:port]', defaultHelp: "the profile's target, else the embedded reference server", help: "the server to certify: the spec's {base_url}; /api/public is added" },
    profile: { kind: 'string', placeholder: 'FILE', help: 'the target profile (YAML; `clockcheck init` writes one)' },
    ca: { kind: 'string', placeholder: 'FILE', help: "the CA certificate (PEM) that signed the target's certificate" },
    insecure: { kind: 'boolean', help: 'skip certificate verification' },
    'allow-http': { kind: 'boolean', help: 'certify a plain-HTTP development server (HTTPS-ONLY then fails)' },
    'rate-limit': { kind: 'parsed', placeholder: 'LIMIT/WINDOW', parse: pacingRateLimit, defaultHelp: "the profile's rate_limit", help: "the target's limit, if not the spec's 60/60s" },
    'report-dir': { kind: 'string', placeholder: 'DIR', default: 'reports', help: 'where <run-id>/ goes' },
    only: {
      kind: 'list',
      placeholder: 'RULE|CHECK|SUITE',
      help: 'only the checks that name these rule IDs, check IDs (users/password-classes, rate-limit/sliding) or suites (users, rate-limit)',
    },
    skip: {
      kind: 'list',
      placeholder: 'RULE|CHECK|SUITE',
      help: "not the checks these names select (the same names as --only's), taken out after --only",
    },
    suite: { kind: 'string', placeholder: 'GLOB|FILE', default: '**/*.yaml', help: "the suites to load: a glob under --suites-dir, or a suite file's path (such as a regressions.yaml a run wrote)" },
    'suites-dir': { kind: 'string', placeholder: 'DIR', default: join(PACKAGE_ROOT, 'suites'), defaultHelp: "the package's suites/", help: 'where the suites are' },
    'read-only': { kind: 'boolean', help: 'only checks that change nothing on the target (the rate-limit bursts are GETs and stay)' },
    'create-admin-users': {
      kind: 'boolean',
      help: 'the run may create admin (role 1) users through the API where a check needs one and the target shows none (without it, the need is a skip); like every user, they stay (the spec has no delete)',
    },
    seed: { kind: 'integer', placeholder: 'N', min: 0, max: 2 ** 31 - 1, defaultHelp: 'random', help: 'the seed of the dates and generated cases the run sends (printed in every report and replay command)' },
    budget: {
      kind: 'integer',
      placeholder: 'N',
      min: 0,
      max: 100_000,
      defaultHelp: `${DEFAULT_BUDGET.external} against a target, ${DEFAULT_BUDGET.embedded} against the embedded server`,
      help: 'generated cases the property checks send in all',
    },
    path: { kind: 'string', placeholder: 'P', help: "replay one generated case: --only properties/FAMILY --seed S --path P, as a failure's replay command says" },
    'max-time': { kind: 'duration', placeholder: 'DURATION', defaultHelp: "three times the plan's ETA, at least 10m", help: "the run's time limit" },
    quiet: { kind: 'boolean', help: 'print only the verdict line (no progress, no summary table)' },
    har: { kind: 'boolean', help: "also write <run-id>/exchanges.har: the run's exchanges, redacted, as HAR 1.2 (browser devtools, Charles, Insomnia)" },
    plan: { kind: 'boolean', help: 'print what the run would do, and send nothing' },
    format: { kind: 'choice', values: ['text', 'json'], default: 'text', help: "--plan's output: for people, or JSON for machines" },
    'last-failed': {
      kind: 'boolean',
      help: 're-run only the checks that failed, errored or were not run in REPORT (a report.json or its run directory; default: the newest report of the same target in --report-dir)',
    },
    within: { kind: 'duration', placeholder: 'DURATION', help: "fit the run into this time at the target's limit (also the run's time limit)" },
    'max-requests': { kind: 'integer', placeholder: 'N', min: 1, max: 1_000_000, help: 'fit the run into this many requests' },
    'min-rules': { kind: 'integer', placeholder: 'N', min: 1, max: 100_000, help: 'exit 1 when fewer than N rules were judged (passed, failed or waived), even if nothing failed: a CI gate that must not pass a run that judged too little' },
    fault: { kind: 'repeatable', placeholder: 'NAME', help: 'switch on a fault of the embedded reference server (without --target; `clockcheck serve --list-faults` lists them)' },
  },
  positionals: [{ name: 'report', help: 'with --last-failed: the report to re-run' }],
});

type RunOptions = ResolvedOptions<(typeof RUN_COMMAND)['options']>;

export async function runCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(RUN_COMMAND, argv);
  if (!input) return 0;
  const run = await resolveRun(input.options, input.args.report);
  if (run.lastFailed && run.lastFailed.checkIds.length === 0) {
    console.log(`nothing failed, errored or was not run in run ${run.lastFailed.runId} (${run.lastFailed.reportPath}): nothing to re-run`);
    return 0;
  }
  // Every name of --only and --skip is checked before anything starts: a typo is exit 2, with nothing sent and no report.
  const { checkSelection } = await import('../../plan/selection.ts');
  await checkSelection({ ...run.selection, ...(run.lastFailed ? { rerunOf: run.lastFailed.runId } : {}) });
  if (input.options.plan) return (await import('./run/print-plan.ts')).printPlan(run);
  return (await import('./run/certify-and-report.ts')).certifyAndReport(run);
}

/** The options checked against each other, the profile loaded, the report to re-run read, every default filled in: what each part of the run reads. */
async function resolveRun(options: RunOptions, report: string | undefined): Promise<RunInput> {
  const rerun = options['last-failed'];
  if (report !== undefined && !rerun) throw new UsageError(`run: unexpected argument "${report}" (a report to re-run goes after --last-failed)`);
  if (rerun && (options.only.length > 0 || options.skip.length > 0 || options.seed !== undefined || options.path !== undefined || options.budget !== undefined)) {
    throw new UsageError('--last-failed takes the checks, the seed and the generated cases from the report it re-runs; drop --only, --skip, --seed, --budget and --path');
  }
  const profile: Profile = options.profile ? await loadProfile(options.profile) : defaultProfile();
  const targetUrl = options.target ?? profile.target;
  if (options.fault.length > 0 && targetUrl) throw new UsageError('--fault applies to the embedded reference server only; drop --target');
  if (options.format === 'json' && !options.plan) throw new UsageError('--format applies to --plan (a run writes report.json anyway)');
  if (options.har && options.plan) throw new UsageError('--har applies to a run: --plan sends nothing, so it has no exchanges');
  const lastFailed = rerun ? await readLastFailed(report, options['report-dir'], targetUrl ? { embedded: false, baseUrl: originOf(targetUrl) } : { embedded: true }) : null;
  // A re-run family that failed replays its failing case alone; one that errored or was not run sends
  // as many generated cases as it did in the report, so they are the same cases.
  const generating = lastFailed?.checkIds.filter((id) => id.startsWith('properties/') && lastFailed.casePaths[id.slice('properties/'.length)] === undefined) ?? [];
  const budget = lastFailed ? lastFailed.casesPerFamily * generating.length : (options.budget ?? (targetUrl ? DEFAULT_BUDGET.external : DEFAULT_BUDGET.embedded));
  const { within, 'max-requests': maxRequests } = options;
  const runBudget = within === undefined && maxRequests === undefined ? undefined : { ...(within === undefined ? {} : { withinMs: within }), ...(maxRequests === undefined ? {} : { maxRequests }) };
  return {
    profile,
    targetUrl,
    lastFailed,
    seed: lastFailed?.seed ?? options.seed ?? Math.floor(Math.random() * 2 ** 31),
    selection: {
      ...suiteFiles(options.suite, options['suites-dir']),
      only: lastFailed ? [...lastFailed.checkIds] : options.only,
      skip: options.skip,
      budget,
      ...(options.path ? { path: options.path } : {}),
      ...(lastFailed ? { casePaths: lastFailed.casePaths } : {}),
    },
    runBudget,
    quick: !targetUrl && options['rate-limit'] === undefined,
    access: { ca: options.ca, insecure: options.insecure, allowHttp: options['allow-http'] },
    rateLimit: options['rate-limit'],
    faults: options.fault,
    readOnly: options['read-only'],
    createAdminUsers: options['create-admin-users'],
    maxTimeMs: options['max-time'],
    minRules: options['min-rules'],
    output: { quiet: options.quiet, har: options.har, format: options.format, reportDir: options['report-dir'] },
    replayBase: (origin) => replayBaseOf(options, origin),
  };
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

/** The replay commands' `clockcheck run …`: the options of this run that reproduce its checks, quoted for a shell. */
function replayBaseOf(options: RunOptions, origin: string | null): string {
  const defaults = RUN_COMMAND.options;
  return replayBase({
    target: origin,
    profile: options.profile,
    rateLimit: options['rate-limit'],
    ca: options.ca,
    insecure: options.insecure,
    allowHttp: options['allow-http'],
    suite: options.suite === defaults.suite.default ? undefined : options.suite,
    suitesDir: options['suites-dir'] === defaults['suites-dir'].default ? undefined : options['suites-dir'],
    readOnly: options['read-only'],
    faults: options.fault,
  });
}

/** The origin of a --target (what a report's target.baseUrl holds); the URL as given when it is not one. */
function originOf(target: string): string {
  try {
    return new URL(target).origin;
  } catch {
    return target;
  }
}
