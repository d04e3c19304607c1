import type { CheckResult, CheckStatus } from '../report/model.ts';
import { PreconditionFailed, SkipCheck } from '../checks/context.ts';
import { ClockcheckError, RunStopped, isChosenStop } from '../errors.ts';
import type { LoadedScenario } from './loader.ts';
import type { Step } from './format.ts';
import { runPair } from './run-pair.ts';
import { runStep } from './run-steps.ts';
import type { ScenarioDeps } from './scenario-deps.ts';
import { ScenarioError } from './scenario-error.ts';
import { ProfileContradiction } from './profile-contradiction.ts';
import { ScenarioRun } from './scenario-run.ts';
import { profileSkipReason } from './skip-reason.ts';
import { onceKey, setupKey, type SetupOutcome } from './shared-setups.ts';
import { TemplateError } from './template-error.ts';

/**
 * Runs one scenario to its verdict; never throws for the target's behaviour. `release` is called
 * when the scenario will send nothing more but is still judging (its last step, a check, waits at
 * the sink): the run may go on with its next checks meanwhile.
 */
export async function runScenario(loaded: LoadedScenario, deps: ScenarioDeps, release?: () => void): Promise<CheckResult> {
  const started = Date.now();
  const run = new ScenarioRun(loaded, deps, release);
  const skip = profileSkipReason(loaded, deps.profile, { readOnly: deps.readOnly, sink: deps.sink !== null });
  let verdict: Verdict;
  if (skip) verdict = { status: 'skipped', reason: skip };
  else {
    try {
      await runSteps(run);
      verdict = judged(run);
    } catch (error) {
      verdict = stoppedBy(run, error);
    }
  }
  const check = scenarioCheck(loaded, deps.replay);
  return {
    ...check,
    rules: check.rules.filter((rule) => !run.notJudged.has(rule)),
    status: verdict.status,
    findings: run.findings,
    ...(verdict.reason ? { reason: verdict.reason } : {}),
    ...(run.notes.length > 0 ? { notes: run.notes } : {}),
    exchanges: run.exchanges,
    durationMs: Date.now() - started,
  };
}

/** Failures of a setup that say something of the target (a precondition that did not hold), which a shared setup passes on. */
function setupFailure(error: unknown): boolean {
  return error instanceof ScenarioError || error instanceof PreconditionFailed || error instanceof ProfileContradiction;
}

/**
 * The scenario's setup: run here, or, when an earlier scenario of the run made the same one and
 * both only read it (SharedSetups), taken over from it: its captures, its exchanges (cited), and its
 * failure if it failed. A `once` step within it is shared the same way, alone.
 */
async function runSetup(run: ScenarioRun): Promise<void> {
  const { setup } = run.loaded.scenario;
  const key = run.deps.setups ? setupKey(run.loaded, run.deps.builtins) : null;
  const what = `its setup (${setup.length} request${setup.length === 1 ? '' : 's'}) was made once in this run`;
  await runShared(run, key, (shared) => `${what}, by ${shared.checkId}, and only read here: the same records and captures`, async () => {
    for (const step of setup) {
      const once = run.deps.setups ? onceKey(step) : null;
      const named = 'name' in step && step.name ? `"${step.name}" ` : '';
      await runShared(run, once, (shared) => `its setup step ${named}was made once in this run, by ${shared.checkId}: the same captures`, () => runStep(run, step, true));
    }
  });
}

/**
 * Runs `part` of a setup and keeps its outcome under `key` (its captures, exchanges, what it noted,
 * its failure); or, when the run already holds an outcome under `key`, takes that one over instead:
 * its captures, its exchanges cited (`note` and their IDs), and its failure thrown again.
 */
async function runShared(run: ScenarioRun, key: string | null, note: (shared: SetupOutcome) => string, part: () => Promise<void>): Promise<void> {
  const shared = key === null ? undefined : run.deps.setups?.get(key);
  if (shared) {
    Object.assign(run.vars, shared.vars);
    for (const exchange of shared.exchanges) run.keep(exchange);
    run.observedOptional += shared.observedOptional;
    run.notShown.push(...shared.notShown);
    run.notes.push(`${note(shared)} (exchange${shared.exchanges.length === 1 ? '' : 's'} ${shared.exchanges.map((e) => e.id).join(', ')})`);
    if (shared.error !== undefined) throw shared.error;
    return;
  }
  const from = { vars: { ...run.vars }, exchanges: run.exchanges.length, observed: run.observedOptional, notShown: run.notShown.length };
  const outcome = (error?: unknown): SetupOutcome => ({
    checkId: run.loaded.id,
    // What the part captured (a `once` step lends its captures, not the vars of the scenario that ran it).
    vars: Object.fromEntries(Object.entries(run.vars).filter(([name, value]) => from.vars[name] !== value)),
    exchanges: run.exchanges.slice(from.exchanges),
    observedOptional: run.observedOptional - from.observed,
    notShown: run.notShown.slice(from.notShown),
    ...(error === undefined ? {} : { error }),
  });
  try {
    await part();
  } catch (error) {
    if (key !== null && setupFailure(error)) run.deps.setups?.ran(key, outcome(error));
    throw error;
  }
  if (key !== null) run.deps.setups?.ran(key, outcome());
}

/** The scenario's `let`, setup, pair and steps, in that order. */
async function runSteps(run: ScenarioRun): Promise<void> {
  const { scenario } = run.loaded;
  for (const [name, value] of Object.entries(scenario.let)) run.vars[name] = run.render(value);
  await runSetup(run);
  if (scenario.pair) await runPair(run, scenario.pair);
  const steps = scenario.steps ?? [];
  for (const [i, step] of steps.entries()) {
    run.lastStep = i === steps.length - 1;
    await runStep(run, step, false);
  }
}

interface Verdict {
  readonly status: CheckStatus;
  readonly reason?: string;
}

/** The verdict of a scenario that ran to its end: failed on a finding; a pass on nothing shown is a skip. */
function judged(run: ScenarioRun): Verdict {
  if (run.findings.length > 0) return { status: 'failed' };
  if (run.notShown.length === 0) return { status: 'passed' };
  // The spec does not show these fields; the target does not return them: nothing to judge.
  const reason = `not shown by the target: ${[...new Set(run.notShown)].join(', ')}`;
  return { status: run.observedOptional === 0 ? 'skipped' : 'passed', reason };
}

/** The verdict of a scenario a step ended: findings made before still fail it. */
function stoppedBy(run: ScenarioRun, error: unknown): Verdict {
  const found = run.findings.length > 0;
  if (error instanceof SkipCheck) return { status: found ? 'failed' : 'skipped', reason: error.message };
  if (error instanceof ProfileContradiction) return { status: 'errored', reason: error.message }; // a wrong profile value judges nothing, before or after
  if (error instanceof PreconditionFailed || error instanceof ScenarioError || error instanceof TemplateError) return { status: found ? 'failed' : 'errored', reason: error.message };
  // The run stopped while this scenario ran: no verdict. Its budget or a signal is the user's choice,
  // not the target's doing: not run, as a family says it (family-result.ts); else errored.
  if (error instanceof RunStopped) {
    return isChosenStop(error.stoppedBy) ? { status: 'not-run', reason: `not run: ${error.reason}${error.stoppedBy === 'interrupted' ? ' while it ran' : ''}` } : { status: 'errored', reason: error.reason };
  }
  // The target sent a value (an ID) no request can carry back: this check cannot go on; the run does.
  if (error instanceof ClockcheckError && error.code === 'CLOCKCHECK_TARGET_DATA') return { status: found ? 'failed' : 'errored', reason: error.message };
  return { status: 'errored', reason: `internal error: ${(error as Error).stack ?? String(error)}` };
}

/** What identifies a scenario's result, whatever its verdict (a run that stopped reports it without running it). */
export function scenarioCheck(loaded: LoadedScenario, replay: (checkId: string) => string): Pick<CheckResult, 'id' | 'title' | 'rules' | 'source' | 'replay'> {
  return {
    id: loaded.id,
    title: loaded.scenario.title,
    rules: loaded.scenario.rules,
    source: { kind: 'scenario', file: loaded.file, line: loaded.line },
    replay: replay(loaded.id),
  };
}

/** Requests a scenario is expected to make, for the plan and the ETA. */
export function plannedRequests(loaded: LoadedScenario, estimateCheck: (name: string, args: Record<string, unknown>) => number): number {
  const { scenario } = loaded;
  const count = (steps: readonly Step[]) => steps.reduce((n, s) => n + ('check' in s ? estimateCheck(s.check, s.args) : 1), 0);
  return count(scenario.setup) + count(scenario.steps ?? []) + (scenario.pair ? 1 + scenario.pair.variants.length : 0);
}
