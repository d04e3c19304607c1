import { READ_BACK_CHECK_ID, READ_BACK_RULES, readBackRequests } from '../records/read-back/read-back-check.ts';
import { CREATED_IDS_CHECK_ID } from '../records/created-ids.ts';
import { ISOLATION_CHECKS, isolationRequests, type IsolationCheckId } from '../isolation/isolation-check.ts';
import { EVERY_ANSWER_CHECK_ID, EVERY_ANSWER_RULES } from '../records/every-answer-check.ts';
import { SECRETS_CHECK_RULES, type SecretsCheckId } from '../records/secrets-watch.ts';
import { SEQUENCE_REQUESTS, USER_SEQUENCES_ID, USER_SEQUENCES_RULES } from '../properties/user-sequences.ts';
import { BUILTIN_CHECKS, estimateCheckRequests, estimateCheckWaitMs, estimateSecondTokenRequests } from '../checks/registry.ts';
import { censusLists } from '../needs/census.ts';
import { familyNeeds, scenarioNeeds } from '../needs/needs.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { plannedRequests } from '../scenarios/run-scenario.ts';
import { baselineKey } from '../scenarios/shared-baselines.ts';
import { onceKey, setupKey } from '../scenarios/shared-setups.ts';
import { profileSkipReason } from '../scenarios/skip-reason.ts';
import { NO_SECOND_COMPANY, type Profile } from '../profile/profile.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { RuleId } from '../contract/rules.ts';
import { PHASE_CHECK_IDS, RATE_LIMIT_CHECKS, REFUSED_CALLS_CHECK_ID, type RateLimitCheckId } from '../ratelimit/rate-limit-checks.ts';
import { plannedRefusedCalls } from '../ratelimit/refused-calls.ts';
import { plannedRateLimitPhase } from '../ratelimit/planned-phase.ts';
import { MONITOR_CHECK_ID } from '../ratelimit/monitor.ts';
import { TOKEN_FORM_CHECK_ID } from '../needs/preflight.ts';
import { phaseStart, phaseVariants } from './phase-placement.ts';
import { plannedWrites } from './plan-writes.ts';
import { pacerFor, type PlannedCheck, type RunPlan, type SharedPart } from './run-plan.ts';

/** What a plan is made of, once selected. */
export interface PlanParts {
  readonly readOnly: boolean;
  readonly scenarios: readonly LoadedScenario[];
  readonly families: readonly PropertyFamily[];
  /** Families that replay one failing case (PlanOptions.casePaths). */
  readonly casePaths: Readonly<Record<string, string>>;
  readonly casesPerFamily: number;
  readonly rateLimit: (id: RateLimitCheckId) => boolean;
  readonly monitor: boolean;
  readonly createdIds: boolean;
  readonly everyAnswer: boolean;
  /** The run-wide watches of the secrets answers never carry that are selected (secrets-watch.ts). */
  readonly secrets: readonly SecretsCheckId[];
  readonly readBack: boolean;
  readonly userSequences: boolean;
  /** The isolation checks between two companies that are selected (isolation-check.ts). */
  readonly isolation: readonly IsolationCheckId[];
  readonly tokenFormCheck: boolean;
}

/**
 * The plan of what was selected (PlanParts): each check with its requests (less the parts an earlier
 * check sends for it), the checks after the families, the rate-limit phase placed among the paced
 * checks, the totals and the ETA.
 */
export function assemblePlan(profile: Profile, pacedAt: RateLimitSetting | undefined, parts: PlanParts): RunPlan {
  const { scenarios, families, casesPerFamily: perFamily } = parts;
  const selected = parts.rateLimit;
  const rateLimitIds = PHASE_CHECK_IDS.filter(selected);
  // The preflight's GET, and the census's: one page of each list the checks' needs name (meet-needs.ts).
  const needs = [...scenarios.map((s) => scenarioNeeds(s, BUILTIN_CHECKS)), ...familyNeeds(families, { readOnly: parts.readOnly, cases: perFamily })];
  const census = censusLists(needs, profile).size;
  // A pair baseline or a read-only setup another scenario of the plan sends first is not sent again (SharedBaselines, SharedSetups).
  const sent = new Set<string>();
  const partsOf = (s: LoadedScenario): SharedPart[] => {
    const baseline = s.scenario.pair ? baselineKey(s.scenario.pair) : null;
    const setup = setupKey(s, BUILTIN_CHECKS);
    const parts = [...(baseline === null ? [] : [{ key: `baseline ${baseline}`, requests: 1 }]), ...(setup === null ? [] : [{ key: `setup ${setup}`, requests: s.scenario.setup.length }])];
    const marked = parts.map((part) => {
      const sentEarlier = sent.has(part.key);
      sent.add(part.key);
      return { ...part, sentEarlier };
    });
    // Its `once` setup steps, when its setup is sent here (a shared setup taken over sends none of them).
    if (marked.some((part) => part.key.startsWith('setup ') && part.sentEarlier)) return marked;
    const onces = s.scenario.setup.flatMap((step) => onceKey(step) ?? []).map((key) => {
      const sentEarlier = sent.has(key);
      sent.add(key);
      return { key, requests: 1, sentEarlier };
    });
    return [...marked, ...onces];
  };
  const withSecondToken = new Set<string>();
  const checks: PlannedCheck[] = [
    { id: TOKEN_FORM_CHECK_ID, kind: 'preflight', rules: ['AUTH-HEADER-RAW'], requests: 1 + census },
    ...scenarios.map((s): PlannedCheck => {
      const skip = profileSkipReason(s, profile, { readOnly: parts.readOnly, sink: profile.webhook?.sink !== undefined, planning: true });
      if (skip !== null) return { id: s.id, kind: 'scenario', rules: s.scenario.rules, requests: 0, skip };
      const { waitMs, watchMs } = scenarioWaits(s, profile);
      const shared = partsOf(s);
      // The second company's calls (the webhook check's) are in its requests; in the second company's own window they cost the run no time.
      const second = [...s.scenario.setup, ...(s.scenario.steps ?? [])].reduce((n, step) => n + ('check' in step ? estimateSecondTokenRequests(step.check, profile) : 0), 0);
      const requests = plannedRequests(s, (name, args) => estimateCheckRequests(name, args) + estimateSecondTokenRequests(name, profile)) - shared.reduce((n, part) => n + (part.sentEarlier ? part.requests : 0), 0);
      const ownWindow = profile.second_company?.rate_limit === 'per-token' ? second : 0;
      if (second > 0) withSecondToken.add(s.id);
      return { id: s.id, kind: 'scenario', rules: s.scenario.rules, requests, ...(ownWindow > 0 ? { ownWindow } : {}), ...(shared.length > 0 ? { shared } : {}), ...(waitMs > 0 ? { waitMs } : {}), ...(watchMs > 0 ? { watchMs } : {}) };
    }),
    ...families
      .filter((f) => perFamily >= 1 || parts.casePaths[f.name] !== undefined)
      .map((f): PlannedCheck => ({ id: `properties/${f.name}`, kind: 'property', rules: f.rules, requests: (parts.casePaths[f.name] === undefined ? perFamily : 1) + (f.needs ? 1 : 0) })),
    ...rateLimitIds.map((id): PlannedCheck => ({ id, kind: 'rate-limit', rules: RATE_LIMIT_CHECKS[id].rules, requests: 0 })),
    ...watches(parts),
  ];
  checks.push(...afterFamilies(parts, checks, profile), ...closingBursts(profile, selected));
  const secondTokenPreflight = addSecondTokenPreflight(checks, withSecondToken, profile);
  const byId = new Map(checks.map((c) => [c.id, c.requests]));
  const start = phaseStart(scenarios, [...scenarios.map((s) => byId.get(s.id) ?? 0), ...families.map((f) => byId.get(`properties/${f.name}`) ?? 0)], profile);
  const phase = plannedRateLimitPhase(profile, selected, start.pacedAfter);
  const requests = checks.reduce((n, c) => n + c.requests, 0) + phase.requests;
  const pacedRequests = requests - phase.requests - checks.reduce((n, c) => n + (c.kind === 'closing-bursts' ? c.requests : 0) + (c.ownWindow ?? 0), 0);
  const pacer = pacerFor(profile, pacedAt);
  return {
    checks,
    scenarios,
    families,
    casePaths: parts.casePaths,
    casesPerFamily: perFamily,
    rateLimit: { selected, any: rateLimitIds.length > 0, ...phase, windows: phase.ms / profile.rate_limit.window, at: rateLimitIds.length > 0 ? start.at : null, variants: phaseVariants(profile, selected, start.pacedAfter) },
    monitor: parts.monitor,
    createdIds: parts.createdIds,
    everyAnswer: parts.everyAnswer,
    secrets: parts.secrets,
    readBack: { on: parts.readBack, requests: checks.find((c) => c.id === READ_BACK_CHECK_ID)?.requests ?? 0 },
    userSequences: parts.userSequences,
    isolation: parts.isolation,
    tokenFormCheck: parts.tokenFormCheck,
    secondTokenPreflight,
    readOnly: parts.readOnly,
    requests,
    pacedRequests,
    pacedAt: pacedAt ?? { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window },
    etaMs: etaMs(checks, phase, (n) => pacer.estimateMs(n)),
  };
}

/** The run-wide watches selected: the rate monitor, created IDs, every answer, the secrets; each judges what the others send, at no request. */
function watches(parts: PlanParts): PlannedCheck[] {
  const watch = (id: string, rules: readonly RuleId[]): PlannedCheck => ({ id, kind: 'monitor', rules: [...rules], requests: 0 });
  return [
    ...(parts.monitor ? [watch(MONITOR_CHECK_ID, ['RATE-LIMIT-CAP'])] : []),
    ...(parts.createdIds ? [watch(CREATED_IDS_CHECK_ID, ['ID-INTEGER'])] : []),
    ...(parts.everyAnswer ? [watch(EVERY_ANSWER_CHECK_ID, EVERY_ANSWER_RULES)] : []),
    ...parts.secrets.map((id) => watch(id, SECRETS_CHECK_RULES[id])),
  ];
}

/**
 * Where a check sends with the second company's token (the isolation unit, a scenario in
 * `withSecondToken`), the preflight sends it once first (run-preflight.ts: a refused one stops the
 * run, exit 2): one request more on the preflight, in the second company's own window where it has
 * one. Whether it does.
 */
function addSecondTokenPreflight(checks: PlannedCheck[], withSecondToken: ReadonlySet<string>, profile: Profile): boolean {
  const sends = checks.some((c) => c.skip === undefined && c.requests > 0 && (c.kind === 'isolation' || withSecondToken.has(c.id)));
  if (sends) checks[0] = { ...checks[0]!, requests: checks[0]!.requests + 1, ...(profile.second_company?.rate_limit === 'per-token' ? { ownWindow: 1 } : {}) };
  return sends;
}

/**
 * The checks after the families: the stateful family (its sequences and their shrinking within its
 * cap, user-sequences.ts), then the read-back, which reads what all the checks before it write at
 * most (read-back.ts).
 */
function afterFamilies(parts: PlanParts, before: readonly PlannedCheck[], profile: Profile): PlannedCheck[] {
  const checks: PlannedCheck[] = [];
  if (parts.userSequences) {
    const rules = [...USER_SEQUENCES_RULES];
    const skip = parts.readOnly ? { skip: 'the sequences create users on the target (--read-only)' } : {};
    checks.push({ id: USER_SEQUENCES_ID, kind: 'sequence', rules, requests: parts.readOnly ? 0 : SEQUENCE_REQUESTS, ...skip });
  }
  checks.push(...isolationChecks(parts, profile));
  if (parts.readBack) {
    const writes = plannedWrites({ checks: [...before, ...checks], scenarios: parts.scenarios, families: parts.families, casesPerFamily: parts.casesPerFamily }, false);
    const most = (kind: 'user' | 'timesheet' | 'break') => writes.byScenarios[kind] + writes.byGeneratedCases[kind] + writes.forNeeds[kind];
    checks.push({ id: READ_BACK_CHECK_ID, kind: 'read-back', rules: [...READ_BACK_RULES], requests: readBackRequests({ user: most('user'), timesheet: most('timesheet'), break: most('break') }) });
  }
  return checks;
}

/**
 * The isolation checks between two companies (isolation-check.ts), after the stateful family: one
 * unit, its requests on the first selected check. Skipped without a second company (the reason says
 * isolation was not certified) or under --read-only.
 */
function isolationChecks(parts: PlanParts, profile: Profile): PlannedCheck[] {
  const skip = profile.second_company === undefined ? NO_SECOND_COMPANY : parts.readOnly ? 'the isolation checks write a user, a timesheet, a break and a schedule in each company (--read-only)' : undefined;
  const { first, second } = isolationRequests(profile);
  const ownWindow = profile.second_company?.rate_limit === 'per-token' ? second : 0;
  return parts.isolation.map((id, i): PlannedCheck => {
    if (skip !== undefined || i > 0) return { id, kind: 'isolation', rules: ISOLATION_CHECKS[id].rules, requests: 0, ...(skip === undefined ? {} : { skip }) };
    return { id, kind: 'isolation', rules: ISOLATION_CHECKS[id].rules, requests: first + second, ...(ownWindow > 0 ? { ownWindow } : {}) };
  });
}

/**
 * The checks whose bursts go after the run's last paced call, the phase's included: the refused
 * calls' (refused-calls.ts), at once, unpaced, so they cost their requests and the bursts' time.
 */
function closingBursts(profile: Profile, selected: (id: RateLimitCheckId) => boolean): PlannedCheck[] {
  if (!selected(REFUSED_CALLS_CHECK_ID)) return [];
  const rules = RATE_LIMIT_CHECKS[REFUSED_CALLS_CHECK_ID].rules;
  if (!profile.rate_limit.bursts) return [{ id: REFUSED_CALLS_CHECK_ID, kind: 'closing-bursts', rules, requests: 0, skip: 'the profile turns the rate-limit bursts off (rate_limit.bursts: false)' }];
  const planned = plannedRefusedCalls(profile);
  return [{ id: REFUSED_CALLS_CHECK_ID, kind: 'closing-bursts', rules, requests: planned.requests, burstMs: planned.ms }];
}

/**
 * When the run ends: its paced requests (less those the rate-limit phase carries), the waits that
 * hold it, and the phase's span, one after another; or later, when a check still watches after the
 * rest is done; then the closing bursts.
 */
function etaMs(checks: readonly PlannedCheck[], phase: { readonly carried: number; readonly spanMs: number }, pacedMs: (requests: number) => number): number {
  let requests = 0;
  let waited = 0;
  let watchedUntil = 0;
  // The closing bursts come after everything else, unpaced: their time only.
  const closing = checks.reduce((n, c) => n + (c.kind === 'closing-bursts' ? (c.burstMs ?? 0) : 0), 0);
  for (const check of checks) {
    if (check.kind === 'closing-bursts') continue;
    requests += check.requests - (check.ownWindow ?? 0);
    waited += check.waitMs ?? 0;
    if (check.watchMs) watchedUntil = Math.max(watchedUntil, pacedMs(requests) + waited + check.watchMs);
  }
  return Math.max(pacedMs(Math.max(0, requests - phase.carried)) + waited + phase.spanMs, watchedUntil) + closing;
}

/** What a scenario's built-in checks wait beyond their requests: `watchMs` when its last step, a check, waits while the run goes on. */
function scenarioWaits(loaded: LoadedScenario, profile: Profile): { waitMs: number; watchMs: number } {
  const steps = [...loaded.scenario.setup, ...(loaded.scenario.steps ?? [])];
  const waits = steps.map((step) => ('check' in step ? estimateCheckWaitMs(step.check, profile) : 0));
  const last = loaded.scenario.steps?.length ? waits.pop()! : 0;
  return { waitMs: waits.reduce((a, b) => a + b, 0), watchMs: last };
}
