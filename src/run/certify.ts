import { randomBytes } from 'node:crypto';
import { BUILTIN_CHECKS } from '../checks/registry.ts';
import { RunStopped } from '../errors.ts';
import { RunError } from './run-error.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import { runScenario, scenarioCheck, type ScenarioDeps } from '../scenarios/run-scenario.ts';
import { runDates } from '../scenarios/template-context.ts';
import { REPORT_SCHEMA_VERSION, type CheckResult, type CreatedResource, type RunReport } from '../report/model.ts';
import type { TargetRequest, TokenScheme } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Pacer } from '../client/pacer.ts';
import { Progress, type ProgressStream } from '../report/progress.ts';
import { profileForReport, type Profile } from '../profile/profile.ts';
import { specIdentity } from './spec-document.ts';
import { toolVersion } from '../version.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { familyCheck, runFamily, type PropertyPhaseOptions } from '../properties/run-properties.ts';
import { applyWaivers, coverage, summarize } from './verdicts.ts';
import type { RateMonitor } from '../ratelimit/monitor.ts';
import { RATE_LIMIT_CHECKS, estimateWithPhase, runRateLimitPhase, type RateLimitCheckId } from '../ratelimit/phase.ts';
import { pacerFor, type RunPlan } from './plan.ts';
import { formatRateLimit, type RateLimitSetting } from '../contract/rate-limit.ts';
import { budgetLimits, budgetNote, planWithinBudget, type RunBudget } from './budget.ts';
import { preflight, refusesToken, TOKEN_FORM_CHECK_ID } from './preflight.ts';
import { TokenWatch } from './token-watch.ts';
import { RunGuard, defaultMaxTimeMs } from './run-guard.ts';
import { retainExchange } from '../client/retained.ts';
import { RunTransport } from './run-transport.ts';
import { rateLimitBacklog } from './backlog.ts';
import { ClockcheckError } from '../errors.ts';
import { render } from '../scenarios/template.ts';
import { type TemplateContext } from '../scenarios/template-context.ts';
import { referencedPaths } from '../input/template-syntax.ts';
import { startRunSink, type RunSink, type SinkProfile } from '../webhooks/run-sink.ts';


export interface CertifyOptions {
  /** `https://host[:port]`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly embedded: boolean;
  readonly profile: Profile;
  readonly token: string;
  readonly caPem?: string;
  readonly insecure: boolean;
  /** Certify an http:// target (development servers; HTTPS-ONLY then fails, as it should). */
  readonly allowPlainHttp?: boolean;
  readonly suitesDir: string;
  readonly suiteGlob: string;
  /** Rule IDs, check IDs (`suite/scenario`) or suite names; empty: everything. */
  readonly only: readonly string[];
  readonly readOnly: boolean;
  readonly seed: number;
  /** Where progress goes; null for none. */
  readonly progress: ProgressStream | null;
  /** The command line that reruns against this target, without --only/--seed (for replay commands). */
  readonly replayBase: string;
  /** Called with every exchange (already redacted), e.g. for the rate-window monitor. */
  readonly onExchange?: (exchange: Exchange) => void;
  /** Generated cases the property phase sends in all (0: no property checks). */
  readonly budget: number;
  /** Replays one generated case (fast-check path), with --only naming one property family. */
  readonly path?: string;
  /** The property families (default: all of src/properties/families.ts). */
  readonly families?: readonly PropertyFamily[];
  /** The run's time limit (`--max-time`); default: defaultMaxTimeMs of the plan's ETA. */
  readonly maxTimeMs?: number;
  /** `--within` / `--max-requests`: the checks that cover the most rules for the budget run (budget.ts); the rest are skipped. */
  readonly runBudget?: RunBudget;
  /** `--last-failed`: the report this run re-runs the failed and errored checks of. */
  readonly rerunOf?: { readonly runId: string; readonly reportPath: string };
  /**
   * The embedded reference server only: it serves the paced checks at `rateLimit`, a quicker window
   * than the profile's, and `switchToProfileRateLimit` gives it the profile's limit on a fresh
   * limiter just before the rate-limit phase (docs/rate-limit-and-load.md, "The two windows of the embedded server").
   */
  readonly quickPacing?: QuickPacing;
  /**
   * The webhook subscription's secret (from the profile's `webhook.secret_env`), redacted like the
   * token; signatures are checked with it. Absent against the embedded server: the run makes one.
   */
  readonly webhookSecret?: string;
}

/** See CertifyOptions.quickPacing. */
export interface QuickPacing {
  readonly rateLimit: RateLimitSetting;
  readonly switchToProfileRateLimit: () => Promise<void>;
}

/** A value generator unique within the run and across runs (e-mails must not collide on a real target). */
function uniqueValues(): { tag: string; next: () => { email: string; name: string; token: string } } {
  const nonce = randomBytes(4).readUInt32BE(0).toString(36);
  const letters = (n: number) => {
    let s = '';
    do {
      s = String.fromCharCode(97 + (n % 26)) + s;
      n = Math.floor(n / 26);
    } while (n > 0);
    return s;
  };
  const nonceLetters = letters(Number.parseInt(nonce, 36));
  let counter = 0;
  return {
    tag: `cc${nonce}`,
    next: () => {
      counter++;
      return {
        email: `clockcheck.${nonce}.${counter}@example.com`,
        name: `Cc${nonceLetters}${letters(counter)}`,
        token: `${nonce}-${counter}`,
      };
    },
  };
}

/** One step of the execution: checks run together, and what they report when they are not run. */
interface CheckUnit {
  /** The IDs of its checks. */
  readonly ids: readonly string[];
  /** Runs its checks; calls `release` once it sends nothing more but still waits (the next unit may start). */
  run(release: () => void): Promise<readonly CheckResult[]>;
  /** Its checks, not run: errored when the run stopped before them, skipped when a budget left them out. */
  notRun(reason: string, status?: 'errored' | 'skipped'): readonly CheckResult[];
}

/** The preflight's verdict when the run could not be made: errored, with the exchanges that showed why. */
function preflightEvidence(error: RunError, replay: string): CheckResult {
  return {
    id: TOKEN_FORM_CHECK_ID,
    title: 'the run preflight: the target answers GET /users with the token',
    rules: ['AUTH-HEADER-RAW'],
    source: { kind: 'builtin', name: 'preflight' },
    status: 'errored',
    reason: error.message,
    findings: [],
    exchanges: error.evidence.map(retainExchange),
    durationMs: error.evidence.reduce((ms, e) => ms + e.durationMs, 0),
    replay,
  };
}

/** A check that was not run: the run stopped (errored), or a budget left it out (skipped). */
function notRun(check: Pick<CheckResult, 'id' | 'title' | 'rules' | 'source' | 'replay'>, reason: string, status: 'errored' | 'skipped' = 'errored'): CheckResult {
  return { ...check, status, reason, findings: [], exchanges: [], durationMs: 0 };
}

/** What the execution of a plan needs from the run: the paced, watched send, and the run's context. */
interface Execution {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly scenarioDeps: ScenarioDeps;
  readonly properties: PropertyPhaseOptions;
  readonly rateLimitPhase: () => Promise<CheckResult[]>;
}

/** The plan's checks in run order: the scenarios, the property families, then the rate-limit phase. */
function checkUnits(plan: RunPlan, execution: Execution, options: CertifyOptions): CheckUnit[] {
  const scenarioUnit = (loaded: LoadedScenario): CheckUnit => ({
    ids: [loaded.id],
    run: async (release) => [await runScenario(loaded, execution.scenarioDeps, release)],
    notRun: (reason, status) => [notRun(scenarioCheck(loaded, execution.scenarioDeps.replay), reason, status)],
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
 * stops (a unit throws RunStopped, or `stopped()` says so after a unit), the unit in progress and
 * every later one are reported `errored` with the reason. Each result keeps its exchanges as a
 * report does (retained.ts): what a run holds does not grow with what the target sends.
 */
async function executeUnits(units: readonly CheckUnit[], stoppedReason: () => string | null, profile: Profile): Promise<{ results: CheckResult[]; stopped: string | null }> {
  const byUnit: (readonly CheckResult[])[] = [];
  const waiting: Promise<void>[] = [];
  let stopped: string | null = null;
  for (const [i, unit] of units.entries()) {
    stopped ??= stoppedReason();
    if (stopped !== null) {
      byUnit[i] = unit.notRun(stopped);
      continue;
    }
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const running = unit.run(release).then(
      (results) => void (byUnit[i] = results.map((r) => retainResult(applyWaivers(r, profile)))),
      (error: unknown) => {
        if (!(error instanceof RunStopped)) throw error;
        byUnit[i] = unit.notRun(error.reason);
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
function retainResult(result: CheckResult): CheckResult {
  return { ...result, exchanges: result.exchanges.map(retainExchange) };
}

/**
 * The preflight and what it tells the run: the token form (the client switches to Bearer when only
 * that is served), calls the target already counted in its window (the pacer counts them too), and
 * the auth/token-form check when it was selected or failed.
 * @throws RunError when the target cannot be reached or refuses the token.
 */
async function runPreflight(transport: RunTransport, pacer: Pacer, plan: RunPlan, options: CertifyOptions): Promise<{ scheme: TokenScheme; notes: string[]; results: CheckResult[] }> {
  const pre = await preflight(transport.client, options.origin, options.profile, `${options.replayBase} --only auth`);
  const notes = pre.note ? [pre.note] : [];
  const backlog = rateLimitBacklog(pre.check.exchanges.at(-1), pre.check.exchanges.length);
  if (backlog > 0) {
    pacer.account(backlog);
    notes.push(`the target had counted ${backlog} earlier calls of this token in its current window (X-RateLimit-Remaining at the preflight); the pacing counted them too`);
  }
  const results = plan.tokenFormCheck || pre.check.status === 'failed' ? [applyWaivers(pre.check, options.profile)] : [];
  return { scheme: pre.scheme, notes, results };
}

/**
 * Certifies a target: plans the run (nothing sent), runs the preflight (reachable? is the token
 * accepted, and in which form?), executes the plan's checks paced, and judges them into a report.
 */
export async function certify(options: CertifyOptions): Promise<RunReport> {
  const startedAt = new Date();
  const { profile } = options;
  const quick = profile.rate_limit.bursts ? options.quickPacing : undefined;
  const { plan, full, choice } = await planWithinBudget({ ...options, ...(quick ? { pacedAt: quick.rateLimit } : {}) }, options.runBudget);

  const pacer = pacerFor(profile, plan.pacedAt);
  // The rate-limit phase runs last and is timed by the window, not paced: its time is added until it starts.
  let rateLimitPhaseStarted = false;
  const estimateMs = estimateWithPhase((n) => pacer.estimateMs(n), plan.rateLimit, () => rateLimitPhaseStarted);
  const progress = options.progress ? new Progress({ stream: options.progress, total: plan.requests, label: 'certifying', estimateMs }) : null;
  const sinkProfile = profile.webhook?.sink && plan.scenarios.some(usesSink) ? (profile.webhook as SinkProfile) : null;
  const webhookSecret = options.webhookSecret ?? (sinkProfile && options.embedded ? randomBytes(16).toString('hex') : null);
  const transport = new RunTransport({ ...options, ...(webhookSecret ? { secrets: [webhookSecret] } : {}), allowPlainHttp: options.allowPlainHttp ?? false, pacer, progress });
  const { client, monitor } = transport;
  const sink = sinkProfile ? await startSinkOrExplain(sinkProfile, webhookSecret, () => client.reserveExchangeIds(1), transport) : null;

  const results: CheckResult[] = [];
  const created: CreatedResource[] = [];
  const notes: string[] = [];
  if (choice) notes.push(budgetNote(choice));
  if (quick) {
    notes.push(`the embedded server served the paced checks at ${formatRateLimit(quick.rateLimit)} and the rate-limit phase at the profile's ${formatRateLimit({ limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window })}, on a fresh limiter`);
  }
  if (options.rerunOf) {
    notes.push(`--last-failed: re-ran the checks that failed or errored in run ${options.rerunOf.runId} (${options.rerunOf.reportPath}), with its seed ${options.seed}`);
  }
  const unique = uniqueValues();
  let fingerprint: string | null = null;
  let scheme: TokenScheme = 'raw';
  let runError: string | undefined;
  const maxTimeMs = options.maxTimeMs ?? options.runBudget?.withinMs ?? defaultMaxTimeMs(plan.etaMs);
  const guard = new RunGuard({
    send: (request) => transport.send(request),
    maxTimeMs,
    startedAtMs: startedAt.getTime(),
    maxTimeSource: options.maxTimeMs !== undefined ? '--max-time' : options.runBudget?.withinMs !== undefined ? '--within' : "--max-time's default, three times the plan's ETA and at least 10 min",
    ...(options.runBudget?.maxRequests === undefined ? {} : { maxRequests: options.runBudget.maxRequests, made: () => transport.made }),
  });
  const watch = new TokenWatch((request) => guard.send(request), (status) => refusesToken(status, profile));
  const send = (request: TargetRequest) => watch.send(request);
  const template: Omit<TemplateContext, 'vars'> = {
    fixtures: profile.fixtures as Record<string, unknown>,
    profile: templateProfile(profile, sink, webhookSecret),
    companyTimezone: profile.company_timezone,
    dates: runDates(options.seed),
    unique: unique.next,
    ...(sink ? { sink: { url: sink.url, secret: webhookSecret } } : {}),
  };
  const scenarioDeps: ScenarioDeps = {
    send,
    acquire: () => pacer.acquire(),
    profile,
    origin: options.origin,
    template,
    builtins: BUILTIN_CHECKS,
    readOnly: options.readOnly,
    replay: (id) => `${options.replayBase} --only ${id} --seed ${options.seed}`,
    onCreated: (resource) => created.push(resource),
    sink,
    deadlineMs: startedAt.getTime() + maxTimeMs,
  };
  const properties: PropertyPhaseOptions = {
    cases: plan.casesPerFamily,
    budget: options.budget,
    runSeed: options.seed,
    ...(options.path ? { path: options.path } : {}),
    send,
    profile,
    dates: runDates(options.seed),
    uniqueTag: unique.tag,
    uniqueEmail: () => unique.next().email,
    replayBase: options.replayBase,
    readOnly: options.readOnly,
  };
  const runPhase = () =>
    runRateLimitPhase({
      profile,
      call: (request, label) => transport.call(send, request, label),
      burst: (requests, amount, label, wholeBodies) => {
        guard.assertRunning(amount);
        return transport.burst(requests, amount, label, wholeBodies);
      },
      guardMs: pacer.spanMs - plan.pacedAt.windowMs,
      ...(quick ? { restartLimiter: () => restartTargetLimiter(quick, monitor, profile.rate_limit.window) } : {}),
      replay: (id) => `${options.replayBase} --only ${id}`,
      selected: plan.rateLimit.selected,
    });
  // The bursts start after a window without calls, and the pacer counts them for what follows.
  const rateLimitPhase = () =>
    profile.rate_limit.bursts
      ? pacer.exclusive(async () => {
          if (quick) await restartTargetLimiter(quick, monitor, profile.rate_limit.window);
          rateLimitPhaseStarted = true;
          return runPhase();
        })
      : runPhase();
  const execution = { send, scenarioDeps, properties, rateLimitPhase };
  const units = checkUnits(plan, execution, options);
  // What the budget left out is reported, skipped with the reason, where a full run would have run it.
  const planned = new Set(plan.checks.map((c) => c.id));
  const leftOut = choice ? checkUnits(full, execution, options).filter((u) => u.ids.length > 0 && !u.ids.some((id) => planned.has(id))) : [];
  const overBudget = choice ? `over budget (${budgetLimits(choice.budget)}): a full run sends it` : '';
  try {
    let pre: Awaited<ReturnType<typeof runPreflight>>;
    try {
      pre = await runPreflight(transport, pacer, plan, options);
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      // The run cannot be made (unreachable, refused token, redirected): one verdict, and a report that says so.
      runError = error.message;
      notes.push(`the run could not be made: ${error.message}`);
      results.push(preflightEvidence(error, `${options.replayBase} --only auth`));
      for (const unit of units) results.push(...unit.notRun(`not run: ${error.message}`));
      for (const unit of leftOut) results.push(...unit.notRun(overBudget, 'skipped'));
      return judge({ options, plan, startedAt, results, created, notes, scheme, fingerprint, made: transport.made, unintended429: 0, resent: 0, maxTimeMs, runError });
    }
    scheme = pre.scheme;
    notes.push(...pre.notes);
    results.push(...pre.results.map(retainResult));
    fingerprint = await client.tlsFingerprint();

    const executed = await executeUnits(units, () => guard.stopped ?? watch.stopped, profile);
    results.push(...executed.results);
    for (const unit of leftOut) results.push(...unit.notRun(overBudget, 'skipped'));
    if (executed.stopped !== null) notes.push(`the run stopped: ${executed.stopped}`);
    if (sink) notes.push(sinkNote(sink, webhookSecret !== null && options.webhookSecret === undefined));
    if (plan.monitor) {
      results.push(retainResult(applyWaivers(monitor.check(profile.rate_limit.limit, plan.pacedAt.windowMs, `${options.replayBase} --only rate-limit`), profile)));
    }
  } finally {
    progress?.finish();
    await transport.close();
    await sink?.close();
  }
  return judge({ options, plan, startedAt, results, created, notes, scheme, fingerprint, made: transport.made, unintended429: monitor.unintended429, resent: monitor.resent.length, maxTimeMs });
}

/** Whether a scenario uses the run's webhook sink: the webhook check, or the sink (or the subscribe body made from it) in a template. */
function usesSink(loaded: LoadedScenario): boolean {
  const { scenario } = loaded;
  const steps = [...scenario.setup, ...(scenario.steps ?? [])];
  if (steps.some((step) => 'check' in step && step.check === 'webhook-notifications')) return true;
  return referencedPaths([scenario.let, scenario.setup, scenario.steps, scenario.pair]).some((p) => p.startsWith('sink.') || p.startsWith('profile.webhook'));
}

/** Starts the run's sink; a sink that cannot listen (a port in use, a missing certificate) is a usage error naming the profile key. */
async function startSinkOrExplain(webhook: SinkProfile, secret: string | null, nextExchangeId: () => number, transport: RunTransport): Promise<RunSink> {
  try {
    return await startRunSink(webhook, { secret, redactor: transport.client.redactor, nextExchangeId });
  } catch (error) {
    await transport.close();
    throw new ClockcheckError('CLOCKCHECK_LISTEN', `webhook.sink: cannot start the sink on ${webhook.sink.listen}${webhook.sink.tls ? ' with webhook.sink.tls' : ''}: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The profile as templates read it: with a sink, `webhook.subscribe_body` rendered (its
 * `{{ sink.url }}` and `{{ sink.secret }}` filled), so a scenario that sends it subscribes the sink.
 * It goes into requests only, which redact the secret; the report's profile is profileForReport's.
 */
function templateProfile(profile: Profile, sink: RunSink | null, secret: string | null): Record<string, unknown> {
  const copy = profileForReport(profile);
  if (!sink || !profile.webhook) return copy;
  const context = { fixtures: {}, vars: {}, profile: {}, companyTimezone: profile.company_timezone, dates: { year: 2000, day: 1 }, unique: () => ({ email: '', name: '', token: '' }), sink: { url: sink.url, secret } };
  return { ...copy, webhook: { ...(copy.webhook as object), subscribe_body: render(profile.webhook.subscribe_body, context) } };
}

/** What the run's sink saw, for the report's notes. */
function sinkNote(sink: RunSink, madeSecret: boolean): string {
  const refused = Object.entries(sink.sink.refused).map(([why, n]) => `${n} ${why}`);
  return [
    `the webhook sink at ${sink.url} received ${sink.sink.lastId} deliveries`,
    refused.length > 0 ? ` and refused ${refused.join(', ')}` : '',
    madeSecret ? '; the subscription secret was made for this run' : '',
  ].join('');
}

/** The embedded server's limiter restarted at the profile's rate limit (`windowMs`), and the monitor told so. */
async function restartTargetLimiter(quick: QuickPacing, monitor: RateMonitor, windowMs: number): Promise<void> {
  await quick.switchToProfileRateLimit();
  monitor.limiterRestarted(windowMs);
}

/** The report of an executed plan: coverage, summary and exit code from the check results. */
function judge(run: {
  readonly options: CertifyOptions;
  readonly plan: RunPlan;
  readonly startedAt: Date;
  readonly results: readonly CheckResult[];
  readonly created: readonly CreatedResource[];
  readonly notes: readonly string[];
  readonly scheme: TokenScheme;
  readonly fingerprint: string | null;
  readonly made: number;
  readonly unintended429: number;
  readonly resent: number;
  readonly maxTimeMs: number;
  /** Why the run could not be made (exit 2). */
  readonly runError?: string;
}): RunReport {
  const { options, startedAt } = run;
  const rules = coverage(run.results);
  const summary = summarize(run.results, rules);
  const finishedAt = new Date();
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: `${startedAt.toISOString().replace(/[:.]/g, '-')}-${options.seed}`,
    tool: { name: 'clockcheck', version: toolVersion() },
    spec: specIdentity(),
    target: { baseUrl: options.origin, apiPrefix: options.profile.api_prefix, tlsFingerprint256: run.fingerprint, embedded: options.embedded },
    profile: profileForReport(options.profile),
    seed: options.seed,
    options: {
      only: options.only,
      readOnly: options.readOnly,
      suites: [options.suiteGlob],
      budget: options.budget,
      maxTimeMs: run.maxTimeMs,
      ...(options.runBudget?.withinMs === undefined ? {} : { withinMs: options.runBudget.withinMs }),
      ...(options.runBudget?.maxRequests === undefined ? {} : { maxRequests: options.runBudget.maxRequests }),
      ...(options.rerunOf ? { rerunOf: options.rerunOf.runId } : {}),
    },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    requests: { planned: run.plan.requests, made: run.made, unintended429: run.unintended429, resent: run.resent },
    tokenForm: run.scheme,
    notes: run.notes,
    checks: run.results,
    coverage: rules,
    createdResources: run.created,
    summary,
    ...(run.runError === undefined ? {} : { runError: run.runError }),
    exitCode: run.runError !== undefined ? 2 : summary.failed + summary.errored > 0 ? 1 : 0,
  };
}
