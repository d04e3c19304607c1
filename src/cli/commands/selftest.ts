import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { faultByName } from '../../reference/faults.ts';
import { DIALECT_NAMES } from '../../reference/dialect.ts';
import { formatDuration } from '../../duration.ts';
import { selftest, type DialectSelftest, type FaultDetection } from '../../selftest/selftest.ts';
import type { SecondAttempt } from '../../selftest/selftest-attempts.ts';
import type { ProfilableTarget } from '../../embedded/embedded-target.ts';
import { discoverProfile } from '../../init/discover-profile.ts';
import { renderProfileYaml } from '../../init/profile-yaml.ts';
import { parseProfile, type Profile } from '../../profile/profile.ts';
import type { RateLimitSetting } from '../../contract/rate-limit.ts';
import { EMBEDDED_RATE_LIMIT } from '../../embedded/embedded-profile.ts';
import { inFitHalf } from '../../plan/fault-catches.ts';
import { budgetLimits, type RunBudget } from '../../plan/run-budget.ts';
import { DEFAULT_BUDGET } from './run.ts';
import { defineCommand } from '../../input/option-table.ts';
import { readCommandLine } from '../command-line.ts';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export const SELFTEST_COMMAND = defineCommand({
  name: 'selftest',
  description: `In each dialect of the reference server, runs the full certification against the clean embedded
server, then once per injected fault, and prints the detection matrix. A rate-limit fault is certified
by a whole certification, its rate-limit phase beside the paced checks (bursts at the embedded
60-per-second window); any other by the scenarios and generated cases (at 60 per 100 ms, no bursts). A fault that makes the choice a dialect already makes
(email-format-unchecked where e-mails are not validated) is not run there. Exit 0 when, in every
dialect, the clean server passes every check and every fault is caught by a failing check of its own
rule; 1 otherwise.`,
  options: {
    dialect: { kind: 'choice', values: ['all', ...DIALECT_NAMES], default: 'all', help: 'the dialects to certify the reference server in' },
    fault: { kind: 'repeatable', placeholder: 'NAME', defaultHelp: 'every fault', help: 'only this fault (`clockcheck serve --list-faults` lists them)' },
    suite: { kind: 'string', placeholder: 'GLOB', default: '**/*.yaml', help: 'the scenario suites to run, a glob under --suites-dir' },
    'suites-dir': { kind: 'string', placeholder: 'DIR', default: join(PACKAGE_ROOT, 'suites'), defaultHelp: "the package's suites/", help: 'where the suites are' },
    seed: { kind: 'integer', placeholder: 'N', min: 0, max: 2 ** 31 - 1, default: 1, help: 'the seed of every certification' },
    budget: { kind: 'integer', placeholder: 'N', min: 0, max: 100_000, default: 550, help: 'generated cases the property checks send in each certification' },
    concurrency: { kind: 'integer', placeholder: 'N', min: 1, max: 8, default: 3, help: 'certifications at once (each in a worker thread of its own; the rate-limit faults one at a time)' },
    'max-requests': {
      kind: 'integer',
      placeholder: 'N',
      min: 1,
      max: 1_000_000,
      help: `certify each fault with only the checks \`run --max-requests N\` chooses at 60 a minute (${DEFAULT_BUDGET.external} generated cases planned) and report the share of the catalog caught, on the half the budget's order is fitted on and on the held-out half`,
    },
    within: { kind: 'duration', placeholder: 'DURATION', help: 'as --max-requests, with the checks `run --within DURATION` chooses at 60 a minute' },
    'burst-window': {
      kind: 'duration',
      placeholder: 'DURATION',
      min: 1000,
      max: 60_000,
      default: EMBEDDED_RATE_LIMIT.windowMs,
      help: "the window of the embedded limit the rate-limit phase's bursts meet (60 calls per it); a longer one keeps their timing certain on a machine whose cores are busy, at the cost of the phase's length",
    },
    'faults-only': { kind: 'boolean', help: 'certify the faults alone, not the clean server, the sparse seeds or the profile init writes (a loop on one fault; exit 0 when every fault is caught)' },
    'report-dir': { kind: 'string', placeholder: 'DIR', default: 'reports', help: 'where selftest-<time>.json goes' },
  },
});

/** Caught of certified, and the share: `41 of 42 (97.6 %)`. */
function share(detections: readonly FaultDetection[]): string {
  const caught = detections.filter((d) => d.verdict === 'caught').length;
  return `${caught} of ${detections.length} (${detections.length === 0 ? '-' : ((100 * caught) / detections.length).toFixed(1)} %)`;
}

/** Within a request budget: what each dialect's budget chose, and the share of the catalog caught, on the fitted half and on the held-out half. */
function budgetShares(dialects: readonly DialectSelftest[], budget: RunBudget): string[] {
  const all = dialects.flatMap((d) => d.detections);
  return [
    `\nWithin ${budgetLimits(budget)} (as a run at 60 a minute chooses):`,
    ...dialects.map(({ dialect, choice }) => `  ${dialect}: ${choice!.checkIds.size} checks, ${choice!.requests} requests planned (ETA ${formatDuration(choice!.etaMs)}), ${choice!.casesPerFamily} generated cases a family`),
    `  fault certifications caught: ${share(all)}`,
    `  on the half the budget's order is fitted on: ${share(all.filter((d) => inFitHalf(d.fault.name)))}`,
    `  on the held-out half: ${share(all.filter((d) => !inFitHalf(d.fault.name)))}`,
  ];
}

/** The lines that say a clean certification was made twice, what the first left unjudged and how the second met the bursts; none when it was made once. */
function certifiedTwice(second: SecondAttempt | undefined): string[] {
  if (!second) return [];
  const { limit, windowMs } = second.burstRateLimit;
  return [
    `  certified twice: the first certification left rate-limit checks unjudged; the verdicts above are the second's, its bursts at ${limit} per ${formatDuration(windowMs)}`,
    ...second.firstUnjudged.map((text) => `    first: ${text}`),
  ];
}

/** A fault's line of the detection matrix. */
export function detectionLine(d: FaultDetection): string {
  const mark = d.verdict === 'caught' ? 'caught' : 'MISSED';
  const bursts = d.catchingChecks.filter((id) => id.startsWith('rate-limit/')).length;
  const by = bursts > 0 ? 'bursts' : d.catchingProperties === 0 ? 'scenarios' : d.catchingProperties === d.catchingChecks.length ? 'properties' : 'both';
  const detail =
    d.verdict === 'caught'
      ? `[${by.padEnd(10)}] ` + d.catchingChecks.slice(0, 3).join(', ') + (d.catchingChecks.length > 3 ? ` +${d.catchingChecks.length - 3}` : '')
      : d.otherRules.length > 0 ? `failed only on ${d.otherRules.join(', ')}` : 'no check failed';
  const again = d.second ? ` (certified twice: the first left ${d.fault.rule} unjudged; the second's bursts at ${d.second.burstRateLimit.limit} per ${formatDuration(d.second.burstRateLimit.windowMs)})` : '';
  return `${mark}  ${d.dialect.padEnd(11)} ${d.fault.name.padEnd(32)} ${d.fault.rule.padEnd(28)} ${detail}${again}`;
}

export async function selftestCommand(argv: string[]): Promise<number> {
  const input = readCommandLine(SELFTEST_COMMAND, argv);
  if (!input) return 0;
  const { options } = input;
  for (const name of options.fault) faultByName(name); // a name no fault has is a UsageError with a suggestion
  const seed = options.seed;
  const { within, 'max-requests': maxRequests } = options;
  const budget: RunBudget | undefined = within === undefined && maxRequests === undefined ? undefined : { ...(within === undefined ? {} : { withinMs: within }), ...(maxRequests === undefined ? {} : { maxRequests }) };
  const dialects = options.dialect === 'all' ? DIALECT_NAMES : [options.dialect];
  const burstRateLimit: RateLimitSetting = { limit: EMBEDDED_RATE_LIMIT.limit, windowMs: options['burst-window'] };
  const result = await selftest({
    suitesDir: options['suites-dir'],
    suiteGlob: options.suite,
    seed,
    budget: options.budget,
    faults: options.fault.length > 0 ? options.fault : undefined,
    dialects,
    concurrency: options.concurrency,
    onDetection: (d) => console.error(detectionLine(d)),
    ...(budget ? { requestBudget: { budget, cases: DEFAULT_BUDGET.external } } : {}),
    profileFor: profileByInit,
    burstRateLimit,
    faultsOnly: options['faults-only'],
  });
  const detections = result.dialects.flatMap((d) => d.detections);
  const count = (v: FaultDetection['verdict']) => detections.filter((d) => d.verdict === v).length;
  for (const { dialect, clean, cleanSecond, profiled, notApplicable } of result.dialects) {
    for (const [report, how] of [...(clean ? [[clean, 'its embedded profile'] as const] : []), ...(profiled ? [[profiled, 'the profile init --probe-writes writes for it'] as const] : [])] as const) {
      console.log(`\nclean reference server, ${dialect} dialect, ${how}: ${report.summary.passed} passed, ${report.summary.failed} failed, ${report.summary.errored} errored, ${report.summary.skipped} skipped; ${report.requests.made} requests; rules covered ${report.summary.rulesCovered}/${report.summary.rulesTotal}`);
      if (report === clean) for (const text of certifiedTwice(cleanSecond)) console.log(text);
      for (const check of report.checks.filter((c) => c.status === 'failed' || c.status === 'errored')) {
        console.log(`  ✗ ${check.id}: ${check.findings[0] ? `${check.findings[0].ruleId} expected ${check.findings[0].expected}; actual ${check.findings[0].actual}` : check.reason}`);
      }
    }
    if (notApplicable.length > 0) console.log(`  not run in this dialect (it already makes that choice): ${notApplicable.map((f) => f.name).join(', ')}`);
  }
  for (const { dialect, seeds } of result.dialects) {
    for (const { seedData, reports, problems, second } of seeds) {
      const runs = reports.map((r) => `${r.summary.passed} passed, ${r.summary.failed} failed, ${r.summary.errored} errored, ${r.summary.skipped} skipped, ${r.createdResources.filter((c) => c.checkId === 'run/provision').length} records created for the checks' needs`).join('; then ');
      console.log(`${problems.length === 0 ? '✓' : '✗'} ${seedData} company, ${dialect} dialect: ${runs}`);
      for (const text of certifiedTwice(second)) console.log(text);
      for (const problem of problems) console.log(`  ✗ ${problem}`);
    }
  }
  console.log('\nDetection matrix');
  for (const d of detections) console.log(detectionLine(d));
  const byProperties = detections.filter((d) => d.catchingProperties > 0).length;
  const byBursts = detections.filter((d) => d.catchingChecks.some((id) => id.startsWith('rate-limit/'))).length;
  // The misses again, with how the checks of their rule ended, where a log's tail shows them.
  for (const d of detections.filter((x) => x.verdict === 'missed')) {
    console.log(`\n${detectionLine(d)}`);
    for (const check of d.ruleChecks) console.log(`  ${check}`);
  }
  if (budget) for (const text of budgetShares(result.dialects, budget)) console.log(text);
  console.log(`\n${count('caught')} caught (${byProperties} of them also or only by generated cases, ${byBursts} by rate-limit bursts), ${count('missed')} missed of ${detections.length} fault certifications in ${result.dialects.length} dialect(s); ${formatDuration(result.durationMs)}`);
  await mkdir(options['report-dir'], { recursive: true });
  const file = join(options['report-dir'], `selftest-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const dialectJson = result.dialects.map((d) => ({
    dialect: d.dialect,
    ...(d.clean ? { clean: d.clean.summary } : {}),
    ...(d.cleanSecond ? { cleanSecond: d.cleanSecond } : {}),
    ...(d.profiled ? { profiled: d.profiled.summary } : {}),
    seeds: d.seeds.map((s) => ({ seed: s.seedData, runs: s.reports.map((r) => r.summary), problems: s.problems, ...(s.second ? { second: s.second } : {}) })),
    notApplicable: d.notApplicable.map((f) => f.name),
    ...(d.choice ? { budget: { ...budget, checks: d.choice.checkIds.size, requests: d.choice.requests, etaMs: Math.round(d.choice.etaMs), casesPerFamily: d.choice.casesPerFamily } } : {}),
    detections: d.detections.map((x) => ({ fault: x.fault.name, rule: x.fault.rule, verdict: x.verdict, catchingChecks: x.catchingChecks, ...(x.writers.length > 0 ? { writers: x.writers } : {}), catchingProperties: x.catchingProperties, otherRules: x.otherRules, attempts: x.attempts, ...(x.second ? { second: x.second } : {}), ...(x.verdict === 'missed' ? { ruleChecks: x.ruleChecks } : {}) })),
  }));
  await writeFile(file, JSON.stringify({ seed, passed: result.passed, durationMs: result.durationMs, dialects: dialectJson }, null, 2));
  console.log(`written ${file}`);
  console.log(result.passed ? 'SELFTEST PASSED' : 'SELFTEST FAILED');
  return result.passed ? 0 : 1;
}

/** `clockcheck init --probe-writes` against a started reference server, in this process: the profile a user of that server would write. */
async function profileByInit(target: ProfilableTarget, rateLimit: RateLimitSetting): Promise<Profile> {
  const found = await discoverProfile({ origin: target.origin, token: target.token, caPem: target.caPem, insecure: false, rateLimit, probeWrites: true, progress: null });
  const text = renderProfileYaml(found, { target: target.origin, tokenEnv: 'CLOCKCHECK_TOKEN', insecure: false, toolVersion: 'selftest', writtenAt: new Date() });
  return parseProfile(text, `init --probe-writes ${target.origin}`);
}
