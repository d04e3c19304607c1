import { RunStopped } from '../errors.ts';
import { retainExchange } from '../client/retained.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckResult } from '../report/model.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import { runScenario, scenarioCheck } from '../scenarios/run-scenario.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { familyCheck, runFamily } from '../properties/run-properties.ts';
import { RATE_LIMIT_CHECKS, type RateLimitCheckId } from '../ratelimit/phase.ts';
import type { BudgetedPlan } from './budget.ts';
import { budgetLimits } from './budget.ts';
import type { CertifyOptions } from './certify-options.ts';
import { executionOf, type Execution } from './execution.ts';
import type { Fates } from './meet-needs.ts';
import type { OpenRun } from './open.ts';
import type { RunPlan } from './plan.ts';
import { sinkNote } from './sink-setup.ts';
import { applyWaivers } from './verdicts.ts';

/** One step of the execution: checks run together, and what they report when they are not run. */
export interface CheckUnit {
  /** The IDs of its checks. */
  readonly ids: readonly string[];
  /** Runs its checks; calls `release` once it sends nothing more but still waits (the next unit may start). */
  run(release: () => void): Promise<readonly CheckResult[]>;
  /** Its checks, not run (a budget left them out, the run stopped before them), or errored (the run stopped while they ran). */
  notRun(reason: string, status?: 'not-run' | 'errored'): readonly CheckResult[];
}

/** A check without a verdict: not-run (a budget left it out, the run stopped before it), or errored (the run stopped while it ran). */
export function notRun(check: Pick<CheckResult, 'id' | 'title' | 'rules' | 'source' | 'replay'>, reason: string, status: 'not-run' | 'errored' = 'not-run'): CheckResult {
  return { ...check, status, reason, findings: [], exchanges: [], durationMs: 0 };
}

/**
 * Executes the plan's checks on an open run, after the preflight: the units in order, what a
 * budget left out not-run with the reason, what the sink saw, and the run-wide rate monitor's
 * verdict. Never throws for the target's behaviour; a run that stops reports the rest not-run.
 */
export async function execute(run: OpenRun, planned: BudgetedPlan, fates: Fates): Promise<CheckResult[]> {
  const { options, plan, transport, guard, watch, sink } = run;
  const execution = executionOf(run, fates);
  const executed = await executeUnits(checkUnits(plan, execution, options), () => guard.stopped ?? watch.stopped, options.profile);
  const results = [...executed.results, ...leftOutByBudget(planned, execution, options)];
  if (executed.stopped !== null) run.notes.push(`the run stopped: ${executed.stopped}`);
  if (sink) run.notes.push(sinkNote(sink, run.webhookSecret !== null && options.webhookSecret === undefined));
  if (plan.monitor) {
    results.push(retainResult(applyWaivers(transport.monitor.check(options.profile.rate_limit.limit, plan.pacedAt.windowMs, `${options.replayBase} --only rate-limit`), options.profile)));
  }
  return results;
}

/** The checks a full run sends and the budget left out: not-run, with the budget that left them out. */
export function leftOutByBudget(planned: BudgetedPlan, execution: Execution, options: CertifyOptions): CheckResult[] {
  const { plan, full, choice } = planned;
  if (!choice) return [];
  const planIds = new Set(plan.checks.map((c) => c.id));
  const leftOut = checkUnits(full, execution, options).filter((u) => u.ids.length > 0 && !u.ids.some((id) => planIds.has(id)));
  return leftOut.flatMap((unit) => unit.notRun(`not run: budget (${budgetLimits(choice.budget)}): a full run sends it`));
}

/** The plan's checks in run order: the scenarios, the property families, then the rate-limit phase. */
export function checkUnits(plan: RunPlan, execution: Execution, options: CertifyOptions): CheckUnit[] {
  const scenarioUnit = (loaded: LoadedScenario): CheckUnit => ({
    ids: [loaded.id],
    run: async (release) => [fatedResult(loaded, execution) ?? (await runScenario(loaded, execution.scenarioDeps, release))],
    notRun: (reason, status) => [fatedError(loaded, execution) ?? notRun(scenarioCheck(loaded, execution.scenarioDeps.replay), reason, status)],
  });
  const familyUnit = (family: PropertyFamily): CheckUnit => ({
    ids: [`properties/${family.name}`],
    run: async () => [await runFamily(family, execution.properties)],
    notRun: (reason, status) => [notRun(familyCheck(family, execution.properties), reason, status)],
  });
  const rateLimitIds = (Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[]).filter(plan.rateLimit.selected);
  const rateLimitUnit: CheckUnit = {
    ids: rateLimitIds,
    run: execution.rateLimitPhase,
    notRun: (reason, status) =>
      rateLimitIds.map((id) => notRun({ id, title: RATE_LIMIT_CHECKS[id].title, rules: RATE_LIMIT_CHECKS[id].rules, source: { kind: 'builtin', name: id }, replay: `${options.replayBase} --only ${id}` }, reason, status)),
  };
  return [...plan.scenarios.map(scenarioUnit), ...plan.families.map(familyUnit), ...(plan.rateLimit.any ? [rateLimitUnit] : [])];
}

/**
 * Runs the units in order, one sending at a time. A unit that releases the run (it sends nothing
 * more and only waits, as the webhook check's quiet period does) goes on waiting while the next
 * units run; all are awaited before the results are returned, in the units' order. Once the run
 * stops (a unit throws RunStopped, or `stopped()` says so after a unit), the unit in progress is
 * reported `errored` with the reason (it started and could not finish) and every later one
 * `not-run` ("not run: <reason>"). Each result keeps its exchanges as a
 * report does (retained.ts): what a run holds does not grow with what the target sends.
 */
async function executeUnits(units: readonly CheckUnit[], stoppedReason: () => string | null, profile: Profile): Promise<{ results: CheckResult[]; stopped: string | null }> {
  const byUnit: (readonly CheckResult[])[] = [];
  const waiting: Promise<void>[] = [];
  let stopped: string | null = null;
  for (const [i, unit] of units.entries()) {
    stopped ??= stoppedReason();
    if (stopped !== null) {
      byUnit[i] = unit.notRun(`not run: ${stopped}`);
      continue;
    }
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const running = unit.run(release).then(
      (results) => void (byUnit[i] = results.map((r) => retainResult(applyWaivers(r, profile)))),
      (error: unknown) => {
        if (!(error instanceof RunStopped)) throw error;
        byUnit[i] = unit.notRun(error.reason, 'errored');
        stopped ??= error.reason;
      },
    );
    waiting.push(running);
    await Promise.race([running, released]);
  }
  await Promise.all(waiting);
  return { results: byUnit.flat(), stopped };
}

/** A check result with its exchanges as a report keeps them. */
export function retainResult(result: CheckResult): CheckResult {
  return { ...result, exchanges: result.exchanges.map(retainExchange) };
}

/** A scenario's result decided before it runs: skipped for a need named, errored because what it needs could not be created; else null. */
function fatedResult(loaded: LoadedScenario, execution: Execution): CheckResult | null {
  const skip = execution.fates.skips.get(loaded.id);
  if (skip !== undefined) return { ...scenarioCheck(loaded, execution.scenarioDeps.replay), status: 'skipped', reason: skip, findings: [], exchanges: [], durationMs: 0 };
  return fatedError(loaded, execution);
}

/** A scenario errored before it runs: what it needs could not be made, or the run stopped while making it. */
function fatedError(loaded: LoadedScenario, execution: Execution): CheckResult | null {
  const error = execution.fates.errors.get(loaded.id);
  if (error === undefined) return null;
  return { ...scenarioCheck(loaded, execution.scenarioDeps.replay), status: 'errored', reason: error.reason, findings: [], exchanges: error.evidence.map(retainExchange), durationMs: 0 };
}
