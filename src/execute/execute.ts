import { admission, unitCost } from '../plan/admission.ts';
import { asCheck } from './current-check.ts';
import { EVERY_ANSWER_CHECK_ID } from '../records/every-answer-check.ts';
import { CREATED_IDS_CHECK_ID } from '../records/created-ids.ts';
import { isolationResults } from '../isolation/run-isolation.ts';
import { READ_BACK_CHECK_ID, READ_BACK_TITLE } from '../records/read-back/read-back-check.ts';
import { USER_SEQUENCES_ID, userSequencesCheck } from '../properties/user-sequences.ts';
import { ClockcheckError, isChosenStop, RunStopped } from '../errors.ts';
import { loopEmptiedCause, type LoopWatch } from './loop-watch.ts';
import { retainExchange } from '../client/retained.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckResult } from '../report/model.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import { runScenario, scenarioCheck } from '../scenarios/run-scenario.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { familyCheck, runFamily } from '../properties/run-properties.ts';
import { PHASE_CHECK_IDS, RATE_LIMIT_CHECKS, REFUSED_CALLS_CHECK_ID } from '../ratelimit/rate-limit-checks.ts';
import type { BudgetedPlan } from '../plan/budget.ts';
import { budgetLimits } from '../plan/run-budget.ts';
import type { CheckSettings } from './run-settings.ts';
import { executionOf, type Execution } from './execution.ts';
import type { Fates } from '../needs/meet-needs.ts';
import type { OpenRun } from './open.ts';
import type { RunPlan } from '../plan/run-plan.ts';
import { sinkNote } from './sink-setup.ts';
import { applyWaivers } from './verdicts.ts';

/** How a check not run is replayed: the run's command line and seed. */
export type Replay = Pick<CheckSettings, 'replayBase' | 'seed'>;

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

/** The checks' results, what stopped the run before its end (null: it ran to its end), and clockcheck's own bug that ended it, if one did. */
export interface Executed {
  readonly results: CheckResult[];
  readonly stopped: RunStopped | null;
  readonly internalError: string | null;
}

/**
 * Executes the plan's checks on an open run, after the preflight: the units in order, what a
 * budget left out not-run with the reason, what the sink saw, and the run-wide rate monitor's
 * verdict. Never throws for the target's behaviour; a run that stops reports the rest errored (the
 * target, the time limit) or not run (a budget, a signal), and says who stopped it.
 */
export async function execute(run: OpenRun, planned: BudgetedPlan, fates: Fates, loop?: LoopWatch): Promise<Executed> {
  const { checks, limits, plan, transport, guard, watch, sink } = run;
  const execution = executionOf(run, fates);
  const executed = await executeUnits(checkUnits(plan, execution, checks), {
    stopped: () => guard.stopError() ?? watch.stopError(),
    admit: admission({
      budget: limits.runBudget,
      phase: plan.rateLimit,
      costOf: unitCost(plan, run.pacer.allowed === Infinity ? 0 : run.pacer.spanMs / run.pacer.allowed),
      elapsedMs: () => Date.now() - run.startedAt.getTime(),
      made: () => transport.made,
    }),
    profile: checks.profile,
    ...(limits.interruption ? { interrupted: limits.interruption.interrupted } : {}),
    ...(loop ? { hung: loop.emptied } : {}),
  });
  if (executed.internalError !== null) run.notes.push(executed.internalError);
  const results = [...executed.results, ...leftOutByBudget(planned, execution, checks)];
  if (executed.stopped !== null) run.notes.push(`the run stopped: ${executed.stopped.reason}`);
  if (executed.cut.length > 0) run.notes.push(`${budgetLimits(limits.runBudget ?? {})}: ${executed.cut.length} check${executed.cut.length === 1 ? '' : 's'} the budget had chosen did not fit what was left of it when ${executed.cut.length === 1 ? 'its' : 'their'} turn came: not run (${executed.cut.join(', ')})`);
  if (sink) run.notes.push(sinkNote(sink, run.madeWebhookSecret));
  if (plan.monitor) {
    results.push(retainResult(applyWaivers(transport.monitor.check(checks.profile.rate_limit.limit, plan.pacedAt.windowMs, `${checks.replayBase} --only rate-limit`), checks.profile)));
  }
  if (plan.everyAnswer) results.push(applyWaivers(run.answers.check(`${checks.replayBase} --only ${EVERY_ANSWER_CHECK_ID}`), checks.profile));
  if (plan.createdIds) results.push(applyWaivers(run.createdIds.check(`${checks.replayBase} --only ${CREATED_IDS_CHECK_ID}`), checks.profile));
  if (plan.secrets.length > 0) run.observeNotifications();
  for (const id of plan.secrets) results.push(applyWaivers(run.secrets.check(id, `${checks.replayBase} --only ${id}`), checks.profile));
  return { results, stopped: executed.stopped, internalError: executed.internalError };
}

/** The checks a full run sends and the budget left out: not-run, with the budget that left them out. */
export function leftOutByBudget(planned: BudgetedPlan, execution: Execution, replay: Replay): CheckResult[] {
  const { plan, full, choice } = planned;
  if (!choice) return [];
  const planIds = new Set(plan.checks.map((c) => c.id));
  const leftOut = checkUnits(full, execution, replay).filter((u) => u.ids.length > 0 && !u.ids.some((id) => planIds.has(id)));
  return leftOut.flatMap((unit) => unit.notRun(`not run: budget (${budgetLimits(choice.budget)}): a full run sends it`));
}

/** The plan's checks in run order: the scenarios, the property families, the rate-limit phase where the plan starts it (RunPlan.rateLimit.at: among them, or after them all), and last the refused calls' bursts. */
export function checkUnits(plan: RunPlan, execution: Execution, replay: Replay): CheckUnit[] {
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
  const readBack = plan.checks.find((c) => c.id === READ_BACK_CHECK_ID);
  // Last of the paced checks: it reads back what they wrote (read-back.ts).
  const readBackUnit: CheckUnit[] = readBack
    ? [
        {
          ids: [READ_BACK_CHECK_ID],
          run: async () => [await execution.readBack(readBack.requests)],
          notRun: (reason, status) => [notRun({ id: READ_BACK_CHECK_ID, title: READ_BACK_TITLE, rules: readBack.rules, source: { kind: 'builtin', name: READ_BACK_CHECK_ID }, replay: `${replay.replayBase} --only ${READ_BACK_CHECK_ID}` }, reason, status)],
        },
      ]
    : [];
  const sequences = plan.checks.find((c) => c.id === USER_SEQUENCES_ID);
  const sequenceOptions = { runSeed: replay.seed, replayBase: replay.replayBase };
  // After the families: the stateful family (user-sequences.ts); skipped as planned under --read-only.
  const sequenceUnit: CheckUnit[] = sequences
    ? [
        {
          ids: [USER_SEQUENCES_ID],
          run: async () => [sequences.skip !== undefined ? { ...userSequencesCheck(sequenceOptions), status: 'skipped', reason: sequences.skip, findings: [], exchanges: [], durationMs: 0 } : await execution.userSequences()],
          notRun: (reason, status) => [notRun(userSequencesCheck(sequenceOptions), reason, status)],
        },
      ]
    : [];
  const isolation = plan.checks.filter((c) => c.kind === 'isolation');
  // After the stateful family: the isolation checks, one unit (run-isolation.ts); skipped as planned without a second company or under --read-only.
  const isolationUnit: CheckUnit[] =
    isolation.length === 0
      ? []
      : [
          {
            ids: isolation.map((c) => c.id),
            run: async () => {
              const skip = isolation[0]!.skip;
              const results = skip !== undefined ? isolationResults('skipped', skip, replay.replayBase) : await execution.isolation();
              return results.filter((r) => isolation.some((c) => c.id === r.id));
            },
            notRun: (reason, status) => isolationResults('skipped', reason, replay.replayBase).filter((r) => isolation.some((c) => c.id === r.id)).map((r) => notRun(r, reason, status)),
          },
        ];
  const paced = [...plan.scenarios.map(scenarioUnit), ...plan.families.map(familyUnit), ...sequenceUnit, ...isolationUnit, ...readBackUnit];
  const notRunRateLimit = (ids: readonly (keyof typeof RATE_LIMIT_CHECKS)[]) => (reason: string, status?: 'not-run' | 'errored') =>
    ids.map((id) => notRun({ id, title: RATE_LIMIT_CHECKS[id].title, rules: RATE_LIMIT_CHECKS[id].rules, source: { kind: 'builtin', name: id }, replay: `${replay.replayBase} --only ${id}` }, reason, status));
  // The refused calls' bursts go last, once the phase too has sent its last call (refused-calls.ts says why).
  let phaseRunning: Promise<unknown> = Promise.resolve();
  const refusedUnit: CheckUnit[] = plan.rateLimit.selected(REFUSED_CALLS_CHECK_ID)
    ? [{ ids: [REFUSED_CALLS_CHECK_ID], run: async () => [await phaseRunning.then(execution.refusedCalls, execution.refusedCalls)], notRun: notRunRateLimit([REFUSED_CALLS_CHECK_ID]) }]
    : [];
  if (!plan.rateLimit.any) return [...paced, ...refusedUnit];
  const { at } = plan.rateLimit;
  const rateLimitIds = PHASE_CHECK_IDS.filter(plan.rateLimit.selected);
  const rateLimitUnit: CheckUnit = {
    ids: rateLimitIds,
    // Beside the paced checks after it: it releases the run at once, and steers their calls through the pacer's gate.
    run: (release) => {
      const running = execution.rateLimitPhase(at !== null);
      phaseRunning = running;
      if (at !== null) release();
      return running;
    },
    notRun: notRunRateLimit(rateLimitIds),
  };
  return at === null ? [...paced, rateLimitUnit, ...refusedUnit] : [...paced.slice(0, at), rateLimitUnit, ...paced.slice(at), ...refusedUnit];
}

/** How executeUnits goes on or stops. */
interface UnitControl {
  /** Why the run stopped (a signal, its time, the target, a budget), asked before each unit; null while it goes on. */
  readonly stopped: () => RunStopped | null;
  /** Why a unit does not fit what is left of the budget ("not run: budget …"); null when it fits. */
  readonly admit: (ids: readonly string[]) => string | null;
  readonly profile: Profile;
  /** Resolves with the signal that interrupts the run. */
  readonly interrupted?: Promise<string>;
  /** Resolves when the event loop emptied while the run waited (loop-watch.ts): a bug of ours. */
  readonly hung?: Promise<void>;
}

/**
 * Runs the units in order, one sending at a time. A unit that releases the run (it sends nothing
 * more and only waits, as the webhook check's quiet period does) goes on waiting while the next
 * units run; all are awaited before the results are returned, in the units' order. A unit that
 * does not fit what is left of the budget is not run, and the run goes on with the next (a cheaper
 * one may fit). Once the run stops (a unit throws RunStopped, or `stopped()` says so before a unit),
 * the unit in progress and every later one are reported by who stopped it (`isChosenStop`): the
 * target or the time limit left them unjudged, so `errored` with the reason (a run that judged too
 * little is never green); a budget or a signal, the user's choice, `not-run` ("not run: <reason>").
 * A signal does not wait for the units under way: they are reported not run at once. Each result
 * keeps its exchanges as a report does (retained.ts): what a run holds does not grow with what the
 * target sends.
 */
async function executeUnits(units: readonly CheckUnit[], control: UnitControl): Promise<{ results: CheckResult[]; stopped: RunStopped | null; cut: string[]; internalError: string | null }> {
  const byUnit: (readonly CheckResult[] | undefined)[] = [];
  const waiting: Promise<void>[] = [];
  const cut: string[] = [];
  let stopped: RunStopped | null = null;
  let signal: string | null = null;
  let internalError: string | null = null;
  const interrupted = control.interrupted?.then((s) => void (signal = s)) ?? new Promise<void>(() => {});
  let hung = false;
  const hangs = control.hung?.then(() => void (hung = true)) ?? new Promise<void>(() => {});
  for (const [i, unit] of units.entries()) {
    if (internalError !== null) {
      byUnit[i] = unit.notRun(internalError, 'errored');
      continue;
    }
    stopped ??= signal === null ? control.stopped() : new RunStopped(`interrupted by ${signal}`, 'interrupted');
    const unfit = stopped === null ? control.admit(unit.ids) : null;
    if (stopped !== null) {
      byUnit[i] = isChosenStop(stopped.stoppedBy) ? unit.notRun(`not run: ${stopped.reason}`) : unit.notRun(stopped.reason, 'errored');
      continue;
    }
    if (unfit !== null) {
      byUnit[i] = unit.notRun(unfit);
      cut.push(...unit.ids);
      continue;
    }
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    // A unit of one check runs as it, so what it writes is known to be its own (read-back.ts names the writer of what differs).
    const running = (unit.ids.length === 1 ? asCheck(unit.ids[0]!, () => unit.run(release)) : unit.run(release)).then(
      (results) => void (byUnit[i] ??= results.map((r) => retainResult(applyWaivers(r, control.profile)))),
      (error: unknown) => {
        if (error instanceof RunStopped) {
          const cutShort = isChosenStop(error.stoppedBy);
          byUnit[i] ??= unit.notRun(cutShort ? `not run: ${error.reason}${error.stoppedBy === 'interrupted' ? ' while it ran' : ''}` : error.reason, cutShort ? 'not-run' : 'errored');
          stopped ??= error;
        } else if (error instanceof ClockcheckError && error.code === 'CLOCKCHECK_TARGET_DATA') {
          // A value the target sent that no request can carry: this check cannot go on; the run does.
          byUnit[i] ??= unit.notRun(error.message, 'errored');
        } else {
          // What no check throws: a bug of ours. This check is errored with it, the run ends with exit 70 and a report.
          internalError ??= `internal error in ${unit.ids.join(', ')}: ${error instanceof Error ? error.message : String(error)} (a bug in clockcheck, please report it; the checks from here on errored)`;
          byUnit[i] ??= unit.notRun(internalError, 'errored');
        }
      },
    );
    waiting.push(running);
    await Promise.race([running, released, interrupted, hangs]);
    if (hung) {
      internalError ??= loopEmptiedCause(unit.ids.join(', '));
      byUnit[i] ??= unit.notRun(internalError, 'errored');
    }
  }
  await Promise.race([Promise.all(waiting), interrupted, hangs]);
  if (hung) {
    internalError ??= loopEmptiedCause(units.filter((_, i) => byUnit[i] === undefined).flatMap((u) => u.ids).join(', ') || 'its checks');
    for (const promise of waiting) promise.catch(() => {});
    for (const [i, unit] of units.entries()) byUnit[i] ??= unit.notRun(internalError, 'errored');
  }
  if (signal !== null) {
    // The units still under way are not waited for: not run, and what they do from here is dropped.
    for (const promise of waiting) promise.catch(() => {});
    for (const [i, unit] of units.entries()) byUnit[i] ??= unit.notRun(`not run: interrupted by ${signal} while it ran`);
    stopped = new RunStopped(`interrupted by ${signal}`, 'interrupted');
  }
  return { results: byUnit.flatMap((r) => r ?? []), stopped, cut, internalError };
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
