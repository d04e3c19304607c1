import type { PacedSend } from '../client/pacer.ts';
import type { RuleId } from '../contract/rules.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckResult, CheckStatus, CreatedResource, Finding } from '../report/model.ts';
import { definiteAnswer, describeAnswer, PreconditionFailed, SkipCheck, type BuiltinCheck, type CheckContext } from '../checks/context.ts';
import type { LoadedScenario } from './loader.ts';
import type { ExpectedStatus, Expectation, Pair, RequestStep, ScenarioRequest, Step, Variant } from './format.ts';
import { judge, unobserved, type Judgement } from './expectations.ts';
import { createdId } from '../records/created-id.ts';
import { select } from '../records/json-path.ts';
import { recordReading } from '../records/record-reading.ts';
import { ClockcheckError, InternalError, RunStopped } from '../errors.ts';
import { retainExchange } from '../client/retained.ts';
import { render } from './template.ts';
import type { TemplateContext } from './template-context.ts';
import { TemplateError } from './template-error.ts';
import { issueText, parseArguments } from '../input/arguments.ts';
import { referencedPaths } from '../input/template-syntax.ts';
import type { RunSink } from '../webhooks/run-sink.ts';

/** What running a scenario needs from the run. */
export interface ScenarioDeps {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  /** Waits for the pacer without sending (for raw-socket probes); `done()` once answered. */
  readonly acquire: () => Promise<PacedSend>;
  readonly profile: Profile;
  readonly origin: string;
  /** The template context without the scenario's own vars. */
  readonly template: Omit<TemplateContext, 'vars'>;
  readonly builtins: Readonly<Record<string, BuiltinCheck>>;
  readonly readOnly: boolean;
  readonly replay: (checkId: string) => string;
  /** Receives every resource a scenario creates. */
  readonly onCreated: (resource: CreatedResource) => void;
  /** The run's webhook sink (profile `webhook.sink`), or null. */
  readonly sink: RunSink | null;
  /** When the run's time limit passes (epoch ms): no check waits beyond it. Default: never. */
  readonly deadlineMs?: number;
}

/** The scenario could not reach a verdict (setup failed, a capture was missing, args that rendered to the wrong kind): errored with the reason. */
class ScenarioError extends ClockcheckError {
  constructor(reason: string) {
    super('CLOCKCHECK_PRECONDITION', reason);
  }
}

const RESOURCE_KINDS: ReadonlyArray<[RegExp, CreatedResource['kind']]> = [
  [/^\/schedules\b/, 'schedule'],
  [/^\/users\b/, 'user'],
  [/^\/timesheets\b/, 'timesheet'],
  [/^\/breaks\b/, 'break'],
  [/^\/webhooks\b/, 'webhook'],
];

/** Whether an expected status asks for a success (the step shows something the scenario builds on). */
function expectsSuccess(status: ExpectedStatus | undefined): boolean {
  return status === 'success' || status === '2xx' || (typeof status === 'number' && status >= 200 && status < 300);
}

/** `POST /users`, for a reason. */
function describeRequest(exchange: Exchange): string {
  return `${exchange.request.method} ${new URL(exchange.request.url).pathname}`;
}

/** The profile value a `requires:` entry names, or undefined. */
function required(profile: Profile, path: string): unknown {
  let value: unknown = profile;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Why the scenario cannot run against this profile, or null. */
function skipReason(loaded: LoadedScenario, deps: ScenarioDeps): string | null {
  return profileSkipReason(loaded, deps.profile, { readOnly: deps.readOnly, sink: deps.sink !== null });
}

/**
 * Why a scenario is skipped whatever the target answers: `--read-only` and a scenario that changes
 * data, a reading the profile does not declare, a profile value it requires, a fixture or the sink
 * its templates read. The plan knows it before anything is sent.
 */
export function profileSkipReason(loaded: LoadedScenario, profile: Profile, run: { readonly readOnly: boolean; readonly sink: boolean }): string | null {
  const { scenario } = loaded;
  if (run.readOnly && scenario.mutates) return 'changes data on the target (--read-only)';
  for (const [key, reading] of Object.entries(scenario.when) as Array<[keyof typeof scenario.when, string | undefined]>) {
    const declared = profile[key];
    if (reading !== undefined && declared !== reading) {
      return `certifies ${key}: ${reading}; the profile declares ${key}: ${declared}${declared === 'either' ? ' (no reading: both pass)' : ''}`;
    }
  }
  for (const path of scenario.requires) {
    if (required(profile, path) === undefined) return `the profile has no ${path}`;
  }
  for (const path of referencedPaths([scenario.let, scenario.setup, scenario.steps, scenario.pair])) {
    if (path.startsWith('sink.') && !run.sink) return 'the profile has no webhook.sink';
    if (path.startsWith('fixtures.') && required(profile, path.replace(/\[\d+\]/g, '')) === undefined) {
      return `the profile has no ${path.replace(/\[\d+\]/g, '')}`;
    }
  }
  return null;
}

/**
 * Runs one scenario to its verdict; never throws for the target's behaviour. `release` is called
 * when the scenario will send nothing more but is still judging (its last step, a check, waits at
 * the sink): the run may go on with its next checks meanwhile.
 */
export async function runScenario(loaded: LoadedScenario, deps: ScenarioDeps, release?: () => void): Promise<CheckResult> {
  const { scenario } = loaded;
  const started = Date.now();
  // The scenario's exchanges as its report keeps them (retained.ts); the last one whole, for the step that reads it.
  const exchanges: Exchange[] = [];
  let last: Exchange | undefined;
  const findings: Finding[] = [];
  const notes: string[] = [];
  const notJudged = new Set<RuleId>();
  const vars: Record<string, unknown> = {};
  const defaultRule = scenario.rules[0] as RuleId;
  const templateContext: TemplateContext = { ...deps.template, vars };
  const renderValue = (value: unknown) => render(value, templateContext);

  /** Whether the step running is the scenario's last (only then may a check release the run); whether it did. */
  let lastStep = false;
  let released = false;
  const send = async (request: TargetRequest): Promise<Exchange> => {
    if (released) throw new InternalError(`scenario ${loaded.id} sent ${request.method} ${request.path ?? request.url} after it released the run (doneSending)`);
    const exchange = await deps.send(request);
    exchanges.push(retainExchange(exchange));
    last = exchange;
    const path = request.path ?? '';
    if (request.method === 'POST' && exchange.response && exchange.response.status < 300) {
      const kind = RESOURCE_KINDS.find(([pattern]) => pattern.test(path))?.[1];
      const id = createdId(exchange.response.json, deps.profile);
      if (kind && id !== undefined) deps.onCreated({ kind, id: String(id), checkId: loaded.id });
    }
    return exchange;
  };
  const addJudgements = (judgements: readonly Judgement[], exchange: Exchange) => {
    for (const j of judgements) findings.push({ ...j, exchangeIds: [exchange.id] });
  };
  let observedOptional = 0;
  const notShown: string[] = [];
  const noteUnobserved = (expectation: Expectation, exchange: Exchange) => {
    const { observed, missing } = unobserved(expectation, exchange, recordReading(deps.profile));
    observedOptional += observed;
    notShown.push(...missing);
  };

  const toTargetRequest = (request: ScenarioRequest, override?: { json?: unknown; query?: Record<string, unknown> }): TargetRequest => {
    const rendered = renderValue({ path: request.path, prefix: request.prefix, query: request.query, headers: request.headers, raw_body: request.raw_body, auth: request.auth }) as {
      path: string; prefix?: string; query?: Record<string, string | number | boolean>; headers?: Record<string, string>; raw_body?: string; auth: ScenarioRequest['auth'];
    };
    const json = override?.json !== undefined ? override.json : request.json === undefined ? undefined : renderValue(request.json);
    const query = { ...rendered.query, ...(override?.query as Record<string, string | number | boolean> | undefined) };
    const parts = {
      method: request.method,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : v])),
      headers: rendered.headers,
      json,
      rawBody: rendered.raw_body,
      auth: rendered.auth,
    };
    return rendered.prefix !== undefined
      ? { ...parts, url: `${deps.origin}${rendered.prefix}${rendered.path}` }
      : { ...parts, path: rendered.path };
  };

  const runRequestStep = async (step: RequestStep, failAsError: boolean): Promise<void> => {
    const exchange = await send(toTargetRequest(step.request));
    const expectation = renderValue(step.expect) as Expectation;
    if (!failAsError && expectsSuccess(expectation.status) && !definiteAnswer(exchange)) {
      // A step that should succeed got a 5xx or no answer: what it was to show (a list, a created
      // resource) was never shown, so no rule of the scenario can be judged on it.
      throw new PreconditionFailed(`${step.name ? `${step.name}: ` : ''}${describeRequest(exchange)} ${describeAnswer(exchange)}, where a 2xx was needed: the step's behaviour was not shown`);
    }
    const judgements = judge(expectation, exchange, deps.profile, defaultRule);
    if (judgements.length === 0) noteUnobserved(expectation, exchange);
    if (failAsError && judgements.length > 0) {
      throw new ScenarioError(`setup step ${step.name ?? `${step.request.method} ${step.request.path}`} failed: expected ${judgements[0]!.expected}, got ${judgements[0]!.actual}`);
    }
    addJudgements(judgements, exchange);
    for (const [name, capture] of Object.entries(step.capture ?? {})) {
      const json = exchange.response?.json;
      const value = 'from' in capture ? createdId(json, deps.profile) : select(json, capture.path, recordReading(deps.profile))[0];
      if (value === undefined) {
        throw new ScenarioError(`could not capture ${name} (${'from' in capture ? 'the created resource ID' : capture.path}) from the response to ${exchange.request.method} ${exchange.request.url}`);
      }
      vars[name] = value;
    }
  };

  const context: CheckContext = {
    send,
    fail: (ruleId, expected, actual, shown) => {
      const ids = (shown ?? exchanges.slice(-1)).map((e) => e.id);
      findings.push({ ruleId, expected, actual, exchangeIds: ids });
    },
    skip: (reason) => {
      throw new SkipCheck(reason);
    },
    precondition: (reason) => {
      throw new PreconditionFailed(reason);
    },
    lastExchange: () => last,
    render: renderValue,
    acquire: deps.acquire,
    keep: (exchange) => {
      const kept = retainExchange(exchange);
      if (!exchanges.some((e) => e.id === kept.id)) exchanges.push(kept);
      return kept;
    },
    notJudged: (ruleId, why) => {
      notJudged.add(ruleId);
      notes.push(`${ruleId} not judged: ${why}`);
    },
    note: (text) => void notes.push(text),
    remainingMs: () => Math.max(0, (deps.deadlineMs ?? Number.POSITIVE_INFINITY) - Date.now()),
    doneSending: () => {
      if (!lastStep || released) return;
      released = true;
      release?.();
    },
    sink: deps.sink,
    profile: deps.profile,
    origin: deps.origin,
    defaultRule,
  };

  const runStep = async (step: Step, failAsError: boolean): Promise<void> => {
    if ('check' in step) {
      const check = deps.builtins[step.check];
      if (!check) throw new ScenarioError(`unknown check ${step.check}`);
      // The loader checked the args as written; what templates rendered to is known only now.
      const args = parseArguments(check.args, renderValue(step.args));
      if (!args.ok) throw new ScenarioError(`check ${step.check}: ${issueText(args.issue, ['args'])}`);
      const before = findings.length;
      await check.run(context, args.value);
      if (failAsError && findings.length > before) {
        const first = findings[before]!;
        findings.length = before; // a setup failure is no verdict on the target: errored, not failed
        throw new ScenarioError(`setup check ${step.check} failed: expected ${first.expected}, got ${first.actual}`);
      }
    } else {
      await runRequestStep(step, failAsError);
    }
  };

  const runPair = async (pair: Pair): Promise<void> => {
    const baselineBody = () => (pair.request.json === undefined ? undefined : renderValue(pair.request.json));
    const baseline = await send(toTargetRequest(pair.request, { json: baselineBody() }));
    const accepted = judge(renderValue(pair.accept ?? { status: 'success' }) as Expectation, baseline, deps.profile, defaultRule);
    if (accepted.length > 0) {
      if (!definiteAnswer(baseline)) {
        // A 5xx or no answer is no refusal: the server showed nothing about the rules (no finding).
        throw new PreconditionFailed(`the valid baseline ${describeRequest(baseline)} ${describeAnswer(baseline)}: the rules could not be tested (a pair needs the baseline accepted; its variants were not sent)`);
      }
      // A definite refusal of the valid baseline: a conforming server accepts it, so that is a finding.
      for (const rule of scenario.rules) {
        findings.push({ ruleId: rule, expected: `the valid baseline accepted: ${accepted[0]!.expected}`, actual: accepted[0]!.actual, exchangeIds: [baseline.id] });
      }
      return; // a refused baseline makes every variant's verdict meaningless
    }
    for (const variant of pair.variants) await runVariant(pair, variant, baselineBody);
  };

  const runVariant = async (pair: Pair, variant: Variant, baselineBody: () => unknown): Promise<void> => {
    let json = baselineBody();
    if (variant.set || variant.unset) {
      const body = { ...((json ?? {}) as Record<string, unknown>) };
      for (const [key, value] of Object.entries(variant.set ?? {})) body[key] = renderValue(value);
      for (const key of variant.unset ?? []) delete body[key];
      json = body;
    }
    const query = variant.query ? (renderValue(variant.query) as Record<string, unknown>) : undefined;
    const exchange = await send(toTargetRequest(pair.request, { json, query }));
    const rule = variant.rule ?? defaultRule;
    const expectation = renderValue(variant.expect ?? { status: 'rejected' }) as Expectation;
    const judgements = judge({ ...expectation, rule: expectation.rule ?? rule }, exchange, deps.profile, rule);
    addJudgements(judgements.map((j) => ({ ...j, expected: `${j.expected} (${variant.why})` })), exchange);
  };

  let status: CheckStatus = 'passed';
  let reason: string | undefined;
  const skip = skipReason(loaded, deps);
  if (skip) {
    status = 'skipped';
    reason = skip;
  } else {
    try {
      for (const [name, value] of Object.entries(scenario.let)) vars[name] = renderValue(value);
      for (const step of scenario.setup) await runStep(step, true);
      if (scenario.pair) await runPair(scenario.pair);
      const steps = scenario.steps ?? [];
      for (const [i, step] of steps.entries()) {
        lastStep = i === steps.length - 1;
        await runStep(step, false);
      }
      status = findings.length > 0 ? 'failed' : 'passed';
      if (status === 'passed' && notShown.length > 0) {
        // The spec does not show these fields; the target does not return them: nothing to judge.
        reason = `not shown by the target: ${[...new Set(notShown)].join(', ')}`;
        if (observedOptional === 0) status = 'skipped';
      }
    } catch (error) {
      if (error instanceof SkipCheck) {
        status = findings.length > 0 ? 'failed' : 'skipped';
        reason = error.message;
      } else if (error instanceof PreconditionFailed) {
        status = findings.length > 0 ? 'failed' : 'errored';
        reason = error.message;
      } else if (error instanceof RunStopped) {
        status = 'errored';
        reason = error.reason;
      } else if (error instanceof ScenarioError || error instanceof TemplateError) {
        status = findings.length > 0 ? 'failed' : 'errored';
        reason = error.message;
      } else {
        status = 'errored';
        reason = `internal error: ${(error as Error).stack ?? String(error)}`;
      }
    }
  }

  const check = scenarioCheck(loaded, deps.replay);
  return {
    ...check,
    rules: check.rules.filter((rule) => !notJudged.has(rule)),
    status,
    findings,
    ...(reason ? { reason } : {}),
    ...(notes.length > 0 ? { notes } : {}),
    exchanges,
    durationMs: Date.now() - started,
  };
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
