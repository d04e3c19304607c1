import { randomBytes } from 'node:crypto';
import { ClockcheckError } from '../errors.ts';
import { BUILTIN_CHECKS, estimateCheckRequests } from '../checks/registry.ts';
import { BUILTIN_CHECK_NAMES } from '../checks/names.ts';
import { loadSuites, type LoadedScenario } from '../scenarios/loader.ts';
import { plannedRequests, runScenario, type ScenarioDeps } from '../scenarios/run-scenario.ts';
import { runDates } from '../scenarios/template.ts';
import { REPORT_SCHEMA_VERSION, type CheckResult, type CreatedResource, type RunReport } from '../report/model.ts';
import { TargetClient } from '../target/client.ts';
import type { Exchange } from '../target/exchange.ts';
import { Pacer } from '../target/pacer.ts';
import { Progress, type ProgressStream } from '../target/progress.ts';
import { profileForReport, type Profile } from '../target/profile.ts';
import { isRuleId } from '../spec/rules.ts';
import { specIdentity, toolVersion } from './spec-document.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { PROPERTY_FAMILIES } from '../properties/families.ts';
import { plannedPropertyRequests, runProperties, selectsFamily } from '../properties/run-properties.ts';
import { applyWaivers, coverage, summarize } from './verdicts.ts';
import { RATE_LIMIT_CHECKS, estimateWithPhase, plannedRateLimitPhase, runRateLimitPhase, type RateLimitCheckId } from '../ratelimit/phase.ts';
import { MONITOR_CHECK_ID, RateMonitor } from '../ratelimit/monitor.ts';
import { runAutocannon, type LoadRequest } from '../load/autocannon-run.ts';
import type { BurstRecord } from '../ratelimit/boundary.ts';

/** The run could not be made (unreachable target, TLS trouble): exit code 2, one line saying what to fix. */
export class RunError extends ClockcheckError {
  constructor(message: string) {
    super('CLOCKCHECK_RUN', message);
  }
}

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
}

/** Whether `--only` selects a built-in check (the rate-limit checks): by ID, by a rule it names, or by `rate-limit`. */
export function selectsBuiltin(only: readonly string[], id: string, rules: readonly string[]): boolean {
  if (only.length === 0) return true;
  return only.some((o) => o === id || o === id.split('/')[0] || rules.includes(o));
}

/** Whether `--only` selects a scenario: by one of its rule IDs, its ID, or its suite name. */
export function selects(only: readonly string[], loaded: LoadedScenario): boolean {
  if (only.length === 0) return true;
  return only.some((o) => o === loaded.id || o === loaded.suite || (isRuleId(o) && loaded.scenario.rules.includes(o)));
}

function preflightProblem(exchange: Exchange, origin: string, profile: Profile): string | null {
  const error = exchange.error;
  if (!error || exchange.response) return null;
  switch (error.code) {
    case 'TLS_ERROR':
      return `TLS error talking to ${origin}: ${error.message}. Trust its CA with --ca FILE (profile: tls.ca), or pass --insecure.`;
    case 'CONNECTION_REFUSED':
      return `nothing listens at ${origin} (connection refused): is the target up, and is the port right?`;
    case 'CONNECT_TIMEOUT':
    case 'HEADERS_TIMEOUT':
      return `${origin} did not answer within ${profile.timeouts.headers / 1000}s (${error.code}): is the address right?`;
    default:
      return `cannot reach ${origin}: ${error.code} ${error.message}`;
  }
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

/** Runs the certification: loads the suites, runs the selected scenarios paced, and builds the report. */
export async function certify(options: CertifyOptions): Promise<RunReport> {
  const startedAt = new Date();
  const { profile } = options;
  const scenarios = options.path ? [] : (await loadSuites(options.suitesDir, options.suiteGlob, BUILTIN_CHECK_NAMES)).filter((s) => selects(options.only, s));
  const families = (options.families ?? PROPERTY_FAMILIES).filter((f) => selectsFamily(options.only, f));
  if (options.path && families.length !== 1) {
    throw new RunError(`--path replays one generated case: name its property family with --only (e.g. --only properties/${families[0]?.name ?? 'user-password'}); ${families.length} selected`);
  }
  const rateLimitSelected = (id: RateLimitCheckId) =>
    !options.path && selectsBuiltin(options.only, id, RATE_LIMIT_CHECKS[id].rules);
  const rateLimitPlan = plannedRateLimitPhase(profile, rateLimitSelected);
  const planned =
    scenarios.reduce((n, s) => n + plannedRequests(s, estimateCheckRequests), 1) +
    plannedPropertyRequests(families, options.path ? families.length : options.budget) +
    rateLimitPlan.requests;

  const pacer = new Pacer({ limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window });
  // The rate-limit phase runs last and is timed by the window, not paced: its time is added until it starts.
  let rateLimitPhaseStarted = false;
  const estimateMs = estimateWithPhase((n) => pacer.estimateMs(n), rateLimitPlan, () => rateLimitPhaseStarted);
  const progress = options.progress ? new Progress({ stream: options.progress, total: planned, label: 'certifying', estimateMs }) : null;
  let made = 0;
  const tls = { ...(options.caPem ? { caPem: options.caPem } : {}), insecure: options.insecure };
  const monitor = new RateMonitor();
  let segment = 'paced';
  const client = new TargetClient({
    origin: options.origin,
    apiPrefix: profile.api_prefix,
    token: options.token,
    tls,
    allowPlainHttp: options.allowPlainHttp ?? false,
    timeouts: { connectMs: profile.timeouts.connect, headersMs: profile.timeouts.headers, bodyMs: profile.timeouts.body },
    maxResponseBytes: 1024 * 1024,
    userAgent: `clockcheck/${toolVersion()}`,
    pacer,
    onExchange: (exchange) => {
      made++;
      monitor.record(exchange, segment);
      progress?.tick();
      options.onExchange?.(exchange);
    },
  });
  /** One rate-limit burst through autocannon, recorded like the client's own exchanges. */
  const burst = async (requests: readonly LoadRequest[], amount: number, label: string): Promise<BurstRecord> => {
    const first = client.reserveExchangeIds(amount);
    const run = await runAutocannon({
      origin: client.origin,
      apiPrefix: profile.api_prefix,
      token: options.token,
      tls,
      requests,
      connections: profile.rate_limit.connections,
      amount,
      record: true,
      sampleIntervalMs: 10,
      timeoutSeconds: Math.ceil(profile.timeouts.headers / 1000),
      userAgent: `clockcheck/${toolVersion()}`,
      firstExchangeId: first - 1,
    });
    for (const exchange of run.exchanges) {
      made++;
      monitor.record(exchange, label);
      progress?.tick();
      options.onExchange?.(exchange);
      await pacer.acquire(); // inside pacer.exclusive: recorded, not waited for, so later checks keep their distance
    }
    return { exchanges: run.exchanges, unanswered: run.unanswered };
  };

  const results: CheckResult[] = [];
  const created: CreatedResource[] = [];
  const unique = uniqueValues();
  let fingerprint: string | null = null;
  try {
    const preflight = await client.send({ method: 'GET', path: '/users', auth: 'none' });
    const problem = preflightProblem(preflight, options.origin, profile);
    if (problem) throw new RunError(problem);
    fingerprint = await client.tlsFingerprint();

    const deps: ScenarioDeps = {
      send: (request) => client.send(request),
      acquire: () => pacer.acquire(),
      profile,
      origin: options.origin,
      template: {
        fixtures: profile.fixtures as Record<string, unknown>,
        profile: profileForReport(profile),
        companyTimezone: profile.company_timezone,
        dates: runDates(options.seed),
        unique: unique.next,
      },
      builtins: BUILTIN_CHECKS,
      readOnly: options.readOnly,
      replay: (id) => `${options.replayBase} --only ${id} --seed ${options.seed}`,
      onCreated: (resource) => created.push(resource),
    };
    for (const scenario of scenarios) results.push(applyWaivers(await runScenario(scenario, deps), profile));
    const properties = await runProperties({
      families,
      budget: options.budget,
      runSeed: options.seed,
      ...(options.path ? { path: options.path } : {}),
      send: deps.send,
      profile,
      dates: runDates(options.seed),
      uniqueTag: unique.tag,
      uniqueEmail: () => unique.next().email,
      replayBase: options.replayBase,
      readOnly: options.readOnly,
    });
    for (const result of properties) results.push(applyWaivers(result, profile));
    if ((Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[]).some(rateLimitSelected)) {
      const runPhase = () =>
        runRateLimitPhase({
          profile,
          call: async (request, label) => {
            segment = label;
            try {
              return await client.send(request);
            } finally {
              segment = 'paced';
            }
          },
          burst,
          guardMs: pacer.spanMs - profile.rate_limit.window,
          replay: (id) => `${options.replayBase} --only ${id}`,
          selected: rateLimitSelected,
        });
      // The bursts start after a window without calls, and the pacer counts them for what follows.
      const phase = profile.rate_limit.bursts
        ? await pacer.exclusive(() => {
            rateLimitPhaseStarted = true;
            return runPhase();
          })
        : await runPhase();
      for (const result of phase) results.push(applyWaivers(result, profile));
    }
    if (!options.path && selectsBuiltin(options.only, MONITOR_CHECK_ID, ['RATE-LIMIT-CAP'])) {
      results.push(applyWaivers(monitor.check(profile.rate_limit.limit, profile.rate_limit.window, `${options.replayBase} --only rate-limit`), profile));
    }
  } finally {
    progress?.finish();
    await client.close();
  }

  const rules = coverage(results);
  const summary = summarize(results, rules);
  const finishedAt = new Date();
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: `${startedAt.toISOString().replace(/[:.]/g, '-')}-${options.seed}`,
    tool: { name: 'clockcheck', version: toolVersion() },
    spec: specIdentity(),
    target: { baseUrl: options.origin, apiPrefix: profile.api_prefix, tlsFingerprint256: fingerprint, embedded: options.embedded },
    profile: profileForReport(profile),
    seed: options.seed,
    options: { only: options.only, readOnly: options.readOnly, suites: [options.suiteGlob], budget: options.budget },
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    durationMs: finishedAt.getTime() - startedAt.getTime(),
    requests: { planned, made, unintended429: monitor.unintended429 },
    checks: results,
    coverage: rules,
    createdResources: created,
    summary,
    exitCode: summary.failed + summary.errored > 0 ? 1 : 0,
  };
}
