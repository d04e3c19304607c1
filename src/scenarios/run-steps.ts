import { ClockcheckError } from '../errors.ts';
import type { Exchange } from '../client/exchange.ts';
import { definiteAnswer, describeAnswer, PreconditionFailed } from '../checks/context.ts';
import { issueText, parseArguments } from '../input/arguments.ts';
import { createdKindOf, readCreatedId, unusableIdReason } from '../records/created-id.ts';
import { select } from '../records/json-path.ts';
import { recordReadingFor } from '../records/record-reading.ts';
import { checkContext } from './check-context.ts';
import { judge } from './expectations.ts';
import type { CheckStep, Expectation, ExpectedStatus, RequestStep, Step } from './format.ts';
import { ScenarioError } from './scenario-error.ts';
import { ProfileContradiction } from './profile-contradiction.ts';
import type { ScenarioRun } from './scenario-run.ts';
import { toTargetRequest } from './target-request.ts';

/**
 * Runs one step: a request with its expectation and captures, or a built-in check. A setup step
 * (`failAsError`) that does not hold is no verdict on the target: it errors the scenario.
 */
export async function runStep(run: ScenarioRun, step: Step, failAsError: boolean): Promise<void> {
  if ('check' in step) await runCheckStep(run, step, failAsError);
  else await runRequestStep(run, step, failAsError);
}

async function runCheckStep(run: ScenarioRun, step: CheckStep, failAsError: boolean): Promise<void> {
  const check = run.deps.builtins[step.check];
  if (!check) throw new ScenarioError(`unknown check ${step.check}`);
  // The loader checked the args as written; what templates rendered to is known only now.
  const adapted = run.deps.adaptations?.get(step);
  if (adapted) run.notes.push(`${step.check}: ${adapted.note}`);
  const args = parseArguments(check.args, run.render(adapted?.args ?? step.args));
  if (!args.ok) throw new ScenarioError(`check ${step.check}: ${issueText(args.issue, ['args'])}`);
  const before = run.findings.length;
  await check.run(checkContext(run), args.value);
  if (failAsError && run.findings.length > before) {
    const first = run.findings[before]!;
    run.findings.length = before; // a setup failure is no verdict on the target: errored, not failed
    throw new ScenarioError(`setup check ${step.check} failed: expected ${first.expected}, got ${first.actual}`);
  }
}

async function runRequestStep(run: ScenarioRun, step: RequestStep, failAsError: boolean): Promise<void> {
  const exchange = await run.send(toTargetRequest(run, step.request));
  if (step.precondition) {
    const unmet = judge(run.render(step.precondition) as Expectation, exchange, run.deps.profile, run.defaultRule);
    if (unmet.length > 0) throw new ScenarioError(`precondition of ${step.name ?? `${step.request.method} ${step.request.path}`} not met: expected ${unmet[0]!.expected}, got ${unmet[0]!.actual}`);
  }
  const expectation = run.render(step.expect) as Expectation;
  if (!failAsError && expectsSuccess(expectation.status) && !definiteAnswer(exchange)) {
    // A step that should succeed got a 5xx or no answer: what it was to show (a list, a created
    // resource) was never shown, so no rule of the scenario can be judged on it.
    throw new PreconditionFailed(`${step.name ? `${step.name}: ` : ''}${describeRequest(exchange)} ${describeAnswer(exchange)}, where a 2xx was needed: the step's behaviour was not shown`);
  }
  const judgements = judge(expectation, exchange, run.deps.profile, run.defaultRule);
  if (judgements.length > 0 && expectation.profile && NO_SUCH_PATH.has(exchange.response?.status ?? 0)) {
    throw new ProfileContradiction(expectation.profile, `${describeRequest(exchange)} ${describeAnswer(exchange)}, where ${judgements[0]!.expected} was needed${step.name ? ` (${step.name})` : ''}: the value does not fit this target; fix ${expectation.profile} in the profile`);
  }
  if (judgements.length === 0) run.noteUnobserved(expectation, exchange);
  if (failAsError && judgements.length > 0) {
    throw new ScenarioError(`setup step ${step.name ?? `${step.request.method} ${step.request.path}`} failed: expected ${judgements[0]!.expected}, got ${judgements[0]!.actual}`);
  }
  run.addJudgements(judgements, exchange);
  capture(run, step, exchange);
}

/** The step's captures into the scenario's vars; one the answer does not hold errors the scenario. */
function capture(run: ScenarioRun, step: RequestStep, exchange: Exchange): void {
  for (const [name, capture] of Object.entries(step.capture ?? {})) {
    const json = exchange.response?.json;
    let value: unknown;
    if ('from' in capture) {
      const read = readCreatedId(json, run.deps.profile, createdKindOf(step.request.path));
      // The target's ID is no integer: no request can name the record, so this check cannot go on (the run does; records/created-ids judges the ID).
      if (read.kind === 'not-integer') throw new ClockcheckError('CLOCKCHECK_TARGET_DATA', `could not capture ${name} from the response to ${exchange.request.method} ${exchange.request.url}: ${unusableIdReason(read)}`);
      value = read.kind === 'id' ? read.id : undefined;
    } else value = select(json, capture.path, recordReadingFor(run.deps.profile, exchange.request.url))[0];
    if (value === undefined) {
      throw new ScenarioError(`could not capture ${name} (${'from' in capture ? 'the created resource ID' : capture.path}) from the response to ${exchange.request.method} ${exchange.request.url}`);
    }
    run.vars[name] = value;
  }
}

/** The answers that say a path is not one the target serves: the profile's path is wrong, not the target. */
const NO_SUCH_PATH = new Set([404, 405, 501]);

/** Whether an expected status asks for a success (the step shows something the scenario builds on). */
function expectsSuccess(status: ExpectedStatus | undefined): boolean {
  return status === 'success' || status === '2xx' || (typeof status === 'number' && status >= 200 && status < 300);
}

/** `POST /users`, for a reason. */
export function describeRequest(exchange: Exchange): string {
  return `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
}
