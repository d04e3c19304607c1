import { DIALECTS, type DialectName } from '../reference/dialect.ts';
import { RATE_LIMIT_CHECKS } from '../ratelimit/rate-limit-checks.ts';
import { planWithinBudget, type BudgetChoice } from '../plan/budget.ts';
import type { RunBudget } from '../plan/run-budget.ts';
import { EMBEDDED_RATE_LIMIT, embeddedFactsOf, embeddedProfile } from '../embedded/embedded-profile.ts';
import { FAULTS, type Fault } from '../reference/faults.ts';
import { detection, type FaultDetection } from './fault-detection.ts';
import { FaultWorkerPool, selftestWorkersAvailable, type FaultJob } from './selftest-workers.ts';
import type { RunReport } from '../report/model.ts';
import { certifyEmbedded, certifyEmbeddedProfiled, certifyEmbeddedRounds, type ProfilableTarget } from '../embedded/embedded-target.ts';
import type { Profile } from '../profile/profile.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { SeedName } from '../reference/seed.ts';
import { burstsUnjudged, onceMoreIfUnjudged, ruleUnjudged, type SecondAttempt } from './selftest-attempts.ts';

export type { FaultDetection } from './fault-detection.ts';

/**
 * A clean server that holds little data, certified with its embedded profile: it must pass with
 * nothing errored, and each check it skips must name a need the target does not hold and the API
 * cannot create. A company just set up (`fresh`) is certified twice on one server: the second run,
 * on what the first left, must judge every check alike.
 */
export interface SeedSelftest {
  readonly seedData: SeedName;
  readonly reports: readonly RunReport[];
  /** What is wrong, for the selftest's output; empty when the seed passed. */
  readonly problems: readonly string[];
  /** When the seed was certified twice: why, and the second's burst window (selftest-attempts.ts). */
  readonly second?: SecondAttempt;
}

/** One dialect's share of the selftest: its clean certification, its sparse seeds and its faults. */
export interface DialectSelftest {
  readonly dialect: DialectName;
  /** The clean server's certification (absent with SelftestOptions.faultsOnly). */
  readonly clean?: RunReport;
  /** When the clean server was certified twice: why, and the second's burst window (selftest-attempts.ts). */
  readonly cleanSecond?: SecondAttempt;
  /** The clean server certified with the profile `init --probe-writes` discovers of it (SelftestOptions.profileFor). */
  readonly profiled?: RunReport;
  readonly seeds: readonly SeedSelftest[];
  readonly detections: readonly FaultDetection[];
  /** Faults that make the choice this dialect already makes, so change nothing here (not run). */
  readonly notApplicable: readonly Fault[];
  /** Under a request budget: what it chose, for a run at 60 a minute against this dialect's server. */
  readonly choice?: BudgetChoice;
}

export interface SelftestResult {
  readonly dialects: readonly DialectSelftest[];
  readonly passed: boolean;
  readonly durationMs: number;
}

export interface SelftestOptions {
  readonly suitesDir: string;
  readonly suiteGlob: string;
  readonly seed: number;
  /** Generated cases per certification (property checks). */
  readonly budget: number;
  /** Only these faults (default: all). */
  readonly faults?: readonly string[];
  /** The dialects to prove the harness in (default: all of them). */
  readonly dialects?: readonly DialectName[];
  /** Certifications run at once (each against its own server). */
  readonly concurrency: number;
  readonly onDetection?: (detection: FaultDetection) => void;
  /**
   * A budget (`--max-requests`, `--within`): in each dialect, the checks `run` with that budget would
   * choose against that server at §8's 60 a minute, with `cases` generated cases in all as its plan's,
   * and each fault certified with those checks alone (its rate-limit fault by the phase when the
   * budget kept it; else missed). The sparse seeds are not certified.
   */
  readonly requestBudget?: { readonly budget: RunBudget; readonly cases: number };
  /**
   * How a user's discovery profiles a started server (`clockcheck init --probe-writes`, given by the
   * CLI): each dialect's clean server is certified with that profile too, and must pass.
   */
  readonly profileFor?: (target: ProfilableTarget, rateLimit: RateLimitSetting) => Promise<Profile>;
  /** The limit the rate-limit phase's bursts meet (EmbeddedCertification.burstRateLimit; default 60 per second). */
  readonly burstRateLimit?: RateLimitSetting;
  /**
   * The faults alone: no certification of the clean server, of the sparse seeds or with a profile
   * `profileFor` discovers (a contributor's loop on a fault of their own; the selftest then passes
   * when every fault is caught).
   */
  readonly faultsOnly?: boolean;
}

/** The checks a run within `requestBudget` chooses against a dialect's embedded server at 60 a minute (a time budget less the share the run leaves unplanned, as `run` plans it). */
async function budgetChoice(dialect: DialectName, options: SelftestOptions & { requestBudget: NonNullable<SelftestOptions['requestBudget']> }): Promise<BudgetChoice> {
  const facts = embeddedFactsOf(dialect, { limit: 60, windowMs: 60_000 });
  const planned = await planWithinBudget(
    { profile: embeddedProfile(facts), suitesDir: options.suitesDir, suiteGlob: options.suiteGlob, only: [], budget: options.requestBudget.cases },
    options.requestBudget.budget,
  );
  return planned.choice!;
}

/**
 * How a certification within a budget choice is made: its checks (`only`) and generated cases. A
 * rate-limit fault is certified by every chosen check (the phase runs beside the paced ones, as in
 * the run the budget plans), or is null when the budget left the phase out; any other fault by the
 * chosen checks but the phase's.
 */
function withinChoice(choice: BudgetChoice, bursts: boolean): { only: string[]; budget: number } | null {
  const phase = Object.keys(RATE_LIMIT_CHECKS);
  const chosen = [...choice.checkIds];
  if (bursts && !chosen.some((id) => phase.includes(id))) return null;
  const families = chosen.filter((id) => id.startsWith('properties/')).length;
  return { only: bursts ? chosen : chosen.filter((id) => !phase.includes(id)), budget: choice.casesPerFamily * families };
}

/**
 * Whether a burst fault (one of the limiter's) is certified by the rate-limit checks alone, the phase
 * and the run-wide monitor, without the paced checks: they cannot see a limiter the pacer keeps them
 * under, so the verdicts are the same in half the time. Not a fault of RATE-LIMIT-SLIDING: the
 * monitor judges that rule from the paced checks' calls too, across the windows of the run.
 */
function phaseAlone(fault: Fault): boolean {
  return fault.observable === 'burst' && fault.rule !== 'RATE-LIMIT-SLIDING';
}

/**
 * The harness proves itself on the reference server, in every dialect (the other valid choices
 * where the spec says "not shown", and the Laravel representations): in each, the clean server
 * must pass every check (the rate-limit bursts included), and every fault that changes anything
 * there must be caught by a failing check of the fault's own rule. Each fault is certified by the
 * phases that can observe it: a burst fault (one of the limiter's) by the rate-limit checks alone,
 * the phase at the embedded 1 s window and the run-wide monitor (phaseAlone), or a whole
 * certification where the monitor needs the paced checks' calls; any other by the scenarios and
 * generated cases at the quick 100 ms window, without bursts, in worker threads from the start. The
 * certifications with bursts (the clean server, the sparse seeds, the burst faults) run one at a
 * time in this thread, beside the workers; a burst fault once more when its first certification
 * left the fault's rule unjudged (a check of it errored: the bursts' timing was not certain), and
 * the clean server and a sparse seed when theirs left only rate-limit checks unjudged, each second
 * certification with its bursts in a longer window (selftest-attempts.ts).
 */
export async function selftest(options: SelftestOptions): Promise<SelftestResult> {
  const started = Date.now();
  const dialects = options.dialects ?? (Object.keys(DIALECTS) as DialectName[]);
  const chosen: readonly Fault[] = FAULTS.filter((f) => !options.faults || options.faults.includes(f.name));
  const plans: DialectPlan[] = [];
  for (const dialect of dialects) {
    const choice = options.requestBudget ? await budgetChoice(dialect, { ...options, requestBudget: options.requestBudget }) : undefined;
    plans.push({ dialect, choice, applicable: chosen.filter((f) => f.appliesTo(DIALECTS[dialect])), detections: [] });
  }
  const record = (found: FaultDetection) => {
    plans.find((p) => p.dialect === found.dialect)!.detections.push(found);
    options.onDetection?.(found);
  };
  // From the compiled code, the faults the scenarios and generated cases observe are certified in
  // `concurrency` worker threads from the start, beside this thread's certifications with bursts.
  // This thread mostly waits on its windows, so the workers fill its cores; they run below it
  // (WORKER_NICENESS), so its bursts get a core when they need one, and a burst whose timing the
  // machine still made uncertain is certified once more in a longer window (onceMoreIfUnjudged).
  const pool = selftestWorkersAvailable() && options.concurrency > 1 ? new FaultWorkerPool(plans.flatMap((plan) => pacedJobs(plan, options)), record) : null;
  pool?.grow(options.concurrency);
  const results: DialectSelftest[] = [];
  try {
    const certified: Array<Pick<DialectSelftest, 'clean' | 'cleanSecond' | 'seeds'>> = [];
    for (const plan of plans) {
      const { dialect, choice } = plan;
      // The clean server once more, in a longer burst window, when its first certification left only rate-limit checks unjudged.
      const clean = options.faultsOnly
        ? undefined
        : await onceMoreIfUnjudged(
            (burstRateLimit) => certifyEmbedded([], { ...options, dialect, burstRateLimit, ...(choice ? { only: [...choice.checkIds], budget: withinChoice(choice, false)!.budget } : {}) }),
            (report) => burstsUnjudged([report]),
            options.burstRateLimit ?? EMBEDDED_RATE_LIMIT,
          );
      // The sparse seeds are certified whole, bursts included: in this thread, as the clean server is.
      const seeds = choice || options.faultsOnly ? [] : [await certifySeed('small', dialect, options, 1), await certifySeed('fresh', dialect, options, 2)];
      certified.push({ ...(clean ? { clean: clean.value, ...(clean.second ? { cleanSecond: clean.second } : {}) } : {}), seeds });
      // Without the pool, the other faults `concurrency` at a time in this thread (they take turns).
      if (!pool) await inTurns(plan.applicable.filter((f) => f.observable !== 'burst'), options.concurrency, (fault) => certifyFault(fault, plan, options, record));
      // Burst faults one at a time, so no other certification in this thread competes with a burst's timing.
      for (const fault of plan.applicable.filter((f) => f.observable === 'burst')) await certifyFault(fault, plan, options, record);
    }
    for (const [index, plan] of plans.entries()) {
      // The clean server with the profile a user's discovery writes of it (no bursts): beside the workers.
      const profiled = options.profileFor && !plan.choice && !options.faultsOnly ? await certifyEmbeddedProfiled({ ...options, dialect: plan.dialect, bursts: false }, options.profileFor) : undefined;
      results.push({ dialect: plan.dialect, ...certified[index]!, ...(profiled ? { profiled } : {}), detections: plan.detections, notApplicable: chosen.filter((f) => !plan.applicable.includes(f)), ...(plan.choice ? { choice: plan.choice } : {}) });
    }
    await pool?.finished();
  } catch (error) {
    await pool?.stop();
    throw error;
  }
  for (const plan of plans) plan.detections.sort((a, b) => plan.applicable.indexOf(a.fault) - plan.applicable.indexOf(b.fault));
  // Within a budget, a missed fault is the measure, not a failure: the clean server must still pass.
  const passed = results.every((r) => (r.clean?.exitCode ?? 0) === 0 && (r.profiled?.exitCode ?? 0) === 0 && r.seeds.every((s) => s.problems.length === 0) && (options.requestBudget !== undefined || r.detections.every((d) => d.verdict !== 'missed')));
  return { dialects: results, passed, durationMs: Date.now() - started };
}

/** One dialect's share of the selftest as it is planned: the budget's choice, the faults that apply, the detections as they come. */
interface DialectPlan {
  readonly dialect: DialectName;
  readonly choice: BudgetChoice | undefined;
  readonly applicable: readonly Fault[];
  readonly detections: FaultDetection[];
}

/** The jobs of the worker threads: the dialect's faults the scenarios and generated cases observe, each certified without bursts. */
function pacedJobs(plan: DialectPlan, options: SelftestOptions): FaultJob[] {
  const within = plan.choice ? withinChoice(plan.choice, false)! : undefined;
  const certification = { suitesDir: options.suitesDir, suiteGlob: options.suiteGlob, seed: options.seed, budget: within?.budget ?? options.budget, dialect: plan.dialect, bursts: false, ...(within ? { only: within.only } : {}) };
  return plan.applicable.filter((f) => f.observable !== 'burst').map((fault) => ({ fault: fault.name, certification }));
}

/** Runs `work` on each item, `concurrency` at a time, in this thread. */
async function inTurns<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
}

/** Certifies one fault in this thread (a burst fault once more, in a longer burst window, when its first certification left the rule unjudged) and records the detection. */
async function certifyFault(fault: Fault, plan: DialectPlan, options: SelftestOptions, record: (found: FaultDetection) => void): Promise<void> {
  const { dialect, choice } = plan;
  const bursts = fault.observable === 'burst';
  const within = choice ? withinChoice(choice, bursts) : undefined;
  if (within === null) {
    record({ fault, dialect, verdict: 'missed', catchingChecks: [], writers: [], catchingProperties: 0, otherRules: [], attempts: 0, ruleChecks: ['the budget left the rate-limit phase out'] });
    return;
  }
  const phases = { bursts, ...(within ? { only: within.only } : phaseAlone(fault) ? { only: Object.keys(RATE_LIMIT_CHECKS) } : {}) };
  const certification = (burstRateLimit: RateLimitSetting) => certifyEmbedded([fault.name], { ...options, ...phases, ...(within ? { budget: within.budget } : {}), dialect, burstRateLimit });
  // A missed burst fault whose rule the bursts' timing left unjudged (errored, not passed): once more, in a longer window.
  const unjudged = (report: RunReport) => (bursts && detection(fault, dialect, report).verdict === 'missed' ? ruleUnjudged(fault.rule, report) : []);
  const { value: report, second } = await onceMoreIfUnjudged(certification, unjudged, options.burstRateLimit ?? EMBEDDED_RATE_LIMIT);
  const found = detection(fault, dialect, report, second);
  record(found);
}

/** A skip reason that names a need or a reading the profile declares otherwise; any other skip of a clean run is a problem. */
const NAMED_SKIP = /^(needs |certifies )/;

/**
 * Certifies a clean server of a sparse seed `rounds` times and says what is wrong; all of it once
 * more, on a new server with a longer burst window, when the first left only rate-limit checks
 * unjudged.
 */
async function certifySeed(seedData: SeedName, dialect: DialectName, options: SelftestOptions, rounds: number): Promise<SeedSelftest> {
  const { value: reports, second } = await onceMoreIfUnjudged(
    (burstRateLimit) => certifyEmbeddedRounds([], { ...options, dialect, seedData, burstRateLimit }, rounds),
    burstsUnjudged,
    options.burstRateLimit ?? EMBEDDED_RATE_LIMIT,
  );
  const problems = reports.flatMap((report, round) => {
    const which = `${seedData} seed, ${dialect} dialect${rounds > 1 ? `, run ${round + 1}` : ''}`;
    const bad = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored' || (c.status === 'skipped' && !NAMED_SKIP.test(c.reason ?? '')));
    return [...(report.exitCode === 0 ? [] : [`${which}: exit code ${report.exitCode}`]), ...bad.map((c) => `${which}: ${c.id} ${c.status}: ${c.reason ?? c.findings[0]?.actual ?? ''}`)];
  });
  const verdicts = (report: RunReport) => new Map(report.checks.map((c) => [c.id, c.status]));
  const [first, ...later] = reports.map(verdicts);
  for (const [round, next] of later.entries()) {
    for (const [id, status] of first ?? []) if (next.get(id) !== status) problems.push(`${seedData} seed, ${dialect} dialect: ${id} was ${status} in run 1, ${next.get(id) ?? 'absent'} in run ${round + 2}`);
  }
  return { seedData, reports, problems, ...(second ? { second } : {}) };
}
