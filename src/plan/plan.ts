import { CREATED_IDS_CHECK_ID } from '../records/created-ids.ts';
import { READ_BACK_CHECK_ID, READ_BACK_RULES, readBackRequests } from '../records/read-back/read-back-check.ts';
import { plannedWrites } from './plan-writes.ts';
import { SEQUENCE_REQUESTS, USER_SEQUENCES_ID, USER_SEQUENCES_RULES } from '../properties/user-sequences.ts';
import { BUILTIN_CHECKS, CHECKS_WITHOUT_TOKEN, estimateCheckRequests, estimateCheckWaitMs } from '../checks/registry.ts';
import { censusLists } from '../needs/census.ts';
import { familyNeeds, scenarioNeeds } from '../needs/needs.ts';
import { BUILTIN_CHECK_NAMES } from '../checks/names.ts';
import { RunError } from '../needs/run-error.ts';
import { UsageError } from '../errors.ts';
import { loadSuites, type LoadedScenario } from '../scenarios/loader.ts';
import { plannedRequests } from '../scenarios/run-scenario.ts';
import { baselineKey } from '../scenarios/shared-baselines.ts';
import { onceKey, setupKey } from '../scenarios/shared-setups.ts';
import { profileSkipReason } from '../scenarios/skip-reason.ts';
import type { RuleId } from '../contract/rules.ts';
import { Pacer, pacedAllowed } from '../client/pacer.ts';
import type { Profile } from '../profile/profile.ts';
import type { RateLimitSetting } from '../contract/rate-limit.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { PROPERTY_FAMILIES } from '../properties/families.ts';
import { casesPerFamily } from '../properties/run-properties.ts';
import { RATE_LIMIT_CHECKS, plannedRateLimitPhase, type RateLimitCheckId } from '../ratelimit/phase.ts';
import { MONITOR_CHECK_ID } from '../ratelimit/monitor.ts';
import { TOKEN_FORM_CHECK_ID } from '../needs/preflight.ts';
import { resolveSelection } from './selection.ts';

/** What a run is asked to do, before anything is sent. */
export interface PlanOptions {
  readonly profile: Profile;
  readonly suitesDir: string;
  readonly suiteGlob: string;
  /** Rule IDs, check IDs (`suite/scenario`) or suite names; empty: everything. */
  readonly only: readonly string[];
  /** `--skip`: the checks these names select are taken out of `only`'s (selection.ts). */
  readonly skip?: readonly string[];
  /** Generated cases the property phase sends in all (0: no property checks). */
  readonly budget: number;
  /** Replays one generated case (fast-check path), with --only naming one property family. */
  readonly path?: string;
  /**
   * `--last-failed`: the failing case of each property family that failed there, by family name
   * (its fast-check path): the family replays that case alone instead of sending generated cases.
   */
  readonly casePaths?: Readonly<Record<string, string>>;
  /** The property families (default: all of src/properties/families.ts). */
  readonly families?: readonly PropertyFamily[];
  /**
   * The rate limit the paced checks go at, when not the profile's: the embedded server's quick
   * window (its rate-limit phase runs at the profile's, on a fresh limiter). Default: the profile's.
   */
  readonly pacedAt?: RateLimitSetting;
  /** `--read-only`: scenarios that change data are skipped (and cost nothing). */
  readonly readOnly?: boolean;
}

/** One check of a plan, with the requests it will send. */
export interface PlannedCheck {
  readonly id: string;
  readonly kind: 'preflight' | 'scenario' | 'property' | 'sequence' | 'rate-limit' | 'monitor' | 'read-back';
  readonly rules: readonly RuleId[];
  /**
   * Requests it sends (the preflight: its GET and the census's, one page of each list the checks' needs name). The rate-limit checks share the phase's bursts, so theirs is 0 and the phase's
   * requests are the plan's `rateLimit.requests`; the monitor sends nothing (it watches every call).
   */
  readonly requests: number;
  /** Time it waits beyond its requests before the run goes on; absent: none. */
  readonly waitMs?: number;
  /**
   * The parts it may share with other checks of the run: its pair's baseline (SharedBaselines), its
   * read-only setup (SharedSetups). `requests` leaves out a part an earlier check of the plan sends
   * (`sentEarlier`); run without that check, it sends the part itself.
   */
  readonly shared?: readonly SharedPart[];
  /**
   * Time it goes on waiting after its last request while the run goes on with the next checks (the
   * webhook check's quiet period, its scenario's last step); the run ends no sooner than this after it.
   */
  readonly watchMs?: number;
  /** Why the run will skip it whatever the target answers (the profile lacks what it needs, --read-only): it costs nothing, covers nothing. */
  readonly skip?: string;
}

/** A part of a check that other checks of a run may send for it: its key, its requests, and whether an earlier check of the plan sends it. */
export interface SharedPart {
  readonly key: string;
  readonly requests: number;
  readonly sentEarlier: boolean;
}

/** The run as planned: the checks it will run, in order, and the requests they cost. */
export interface RunPlan {
  /** Every check, in run order: the preflight, the scenarios, the property families, the rate-limit phase, the monitor. */
  readonly checks: readonly PlannedCheck[];
  readonly scenarios: readonly LoadedScenario[];
  readonly families: readonly PropertyFamily[];
  /** Generated cases each family sends (the budget shared evenly among those without a case path). */
  readonly casesPerFamily: number;
  /** Families that replay one failing case instead (PlanOptions.casePaths). */
  readonly casePaths: Readonly<Record<string, string>>;
  /** The rate-limit checks selected, and the phase's requests and time. */
  readonly rateLimit: {
    readonly selected: (id: RateLimitCheckId) => boolean;
    readonly any: boolean;
    /** The phase's own requests (PlannedPhase). */
    readonly requests: number;
    /** The time it adds beyond the paced requests it carries (PlannedPhase.ms). */
    readonly ms: number;
    /** `ms` in the profile's windows. */
    readonly windows: number;
    /** The paced requests that go inside its windows, and from its boundary until they go on at their pace (PlannedPhase). */
    readonly carried: number;
    readonly spanMs: number;
    /**
     * Where it starts among the paced checks (an index into `scenarios` then `families`): after the
     * last scenario that sends calls without the run's token (a limiter may not count them toward
     * it), when at least a window of paced requests and some more follow; null: after them all.
     */
    readonly at: number | null;
    /**
     * The smaller phases a budget may keep instead (budget.ts), each with its requests and time:
     * the boundary and the reset (inseparable: the polls go whenever the windows are judged), then
     * the sliding window too, then the page sizes too; only the selected checks, the whole selection last.
     */
    readonly variants: readonly PhaseVariant[];
  };
  /** Whether the run-wide rate monitor and the token-form check of the preflight are reported. */
  readonly monitor: boolean;
  /** Whether the run-wide watch of created records' IDs (ID-INTEGER) is reported. */
  readonly createdIds: boolean;
  /** Whether what the run writes is read back at its end (STORE-*), and the requests planned for it. */
  readonly readBack: { readonly on: boolean; readonly requests: number };
  /** Whether the stateful family (properties/user-sequences) runs, after the other families. */
  readonly userSequences: boolean;
  readonly tokenFormCheck: boolean;
  /** `--read-only`: the scenarios that change data are planned skipped. */
  readonly readOnly: boolean;
  /** Requests the run is expected to make, the preflight included. */
  readonly requests: number;
  /** Of those, the ones paced at the target's limit (all but the rate-limit phase's). */
  readonly pacedRequests: number;
  /** The rate limit they are paced at: the profile's, or PlanOptions.pacedAt. */
  readonly pacedAt: RateLimitSetting;
  /** The run's expected duration: the paced requests as the pacer spaces them at `pacedAt`, plus the phase. */
  readonly etaMs: number;
}

/** A pacer for a plan's paced calls: at `pacedAt`, else at the profile's limit. */
export function pacerFor(profile: Profile, pacedAt?: RateLimitSetting): Pacer {
  return new Pacer(pacedAt ?? { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window });
}

/**
 * Plans a run: loads and selects the suites, the property families and the rate-limit checks, and
 * counts the requests. Sends nothing.
 * @throws UsageError when --only or --skip names what the run does not have, or leaves nothing to run (selection.ts).
 * @throws RunError when --path does not name exactly one property family.
 */
export async function planRun(options: PlanOptions): Promise<RunPlan> {
  const { profile } = options;
  const loaded = await loadSuites(options.suitesDir, options.suiteGlob, BUILTIN_CHECK_NAMES);
  const selection = resolveSelection(options, { scenarios: loaded, families: options.families ?? PROPERTY_FAMILIES });
  const scenarios = options.path ? [] : loaded.filter(selection.scenario);
  const families = (options.families ?? PROPERTY_FAMILIES).filter(selection.family);
  if (options.path && families.length !== 1) {
    throw new RunError(`--path replays one generated case: name its property family with --only (e.g. --only properties/${families[0]?.name ?? 'user-password'}); ${families.length} selected`);
  }
  const casePaths = options.casePaths ?? {};
  // A family that replays its failing case sends that case alone; the budget is shared by the others.
  const generating = families.filter((f) => casePaths[f.name] === undefined);
  const parts: PlanParts = {
    readOnly: options.readOnly ?? false,
    scenarios,
    families,
    casePaths,
    casesPerFamily: options.path ? 1 : casesPerFamily(options.budget, generating.length),
    rateLimit: (id) => !options.path && selection.builtin(id),
    monitor: !options.path && selection.builtin(MONITOR_CHECK_ID),
    createdIds: !options.path && selection.builtin(CREATED_IDS_CHECK_ID),
    readBack: !options.path && selection.builtin(READ_BACK_CHECK_ID),
    // Its sequences are generated cases too: --budget 0 sends none of them either.
    userSequences: !options.path && options.budget > 0 && selection.builtin(USER_SEQUENCES_ID),
    tokenFormCheck: !options.path && selection.builtin(TOKEN_FORM_CHECK_ID),
  };
  const builtins = parts.monitor || parts.createdIds || parts.readBack || parts.userSequences || parts.tokenFormCheck || (Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[]).some(parts.rateLimit);
  if (generating.length > 0 && generating.length === families.length && parts.casesPerFamily < 1 && scenarios.length === 0 && !builtins) {
    throw new UsageError(
      `run: --budget ${options.budget} leaves no generated case for the ${families.length} property ${families.length === 1 ? 'family' : 'families'} selected, so nothing would be judged; ` +
        `give --budget ${families.length} or more, or select other checks`,
    );
  }
  return assemblePlan(profile, options.pacedAt, parts);
}

/** What a plan is made of, once selected. */
interface PlanParts {
  readonly readOnly: boolean;
  readonly scenarios: readonly LoadedScenario[];
  readonly families: readonly PropertyFamily[];
  /** Families that replay one failing case (PlanOptions.casePaths). */
  readonly casePaths: Readonly<Record<string, string>>;
  readonly casesPerFamily: number;
  readonly rateLimit: (id: RateLimitCheckId) => boolean;
  readonly monitor: boolean;
  readonly createdIds: boolean;
  readonly readBack: boolean;
  readonly userSequences: boolean;
  readonly tokenFormCheck: boolean;
}

/**
 * The plan restricted to the checks in `checkIds` (the preflight always stays), each chosen
 * property family sending `casesPerFamily` generated cases: what a budget chose (budget.ts).
 */
export function restrictPlan(full: RunPlan, profile: Profile, checkIds: ReadonlySet<string>, casesPerFamily: number): RunPlan {
  return assemblePlan(profile, full.pacedAt, {
    readOnly: full.readOnly,
    scenarios: full.scenarios.filter((s) => checkIds.has(s.id)),
    families: full.families.filter((f) => checkIds.has(`properties/${f.name}`)),
    casePaths: full.casePaths,
    casesPerFamily,
    rateLimit: (id) => full.rateLimit.selected(id) && checkIds.has(id),
    monitor: full.monitor && checkIds.has(MONITOR_CHECK_ID),
    createdIds: full.createdIds && checkIds.has(CREATED_IDS_CHECK_ID),
    readBack: full.readBack.on && checkIds.has(READ_BACK_CHECK_ID),
    userSequences: full.userSequences && checkIds.has(USER_SEQUENCES_ID),
    tokenFormCheck: full.tokenFormCheck,
  });
}

/**
 * A rate-limit phase of some of the selected checks: which, and what it costs: `requests` and `ms`
 * (its own requests and the time it adds) where the plan starts it, `alone` after all the paced
 * checks, and `beside` them, for a budget to cost it by the paced requests it chooses to come after
 * the phase's start: its own requests and span when it carries none of them, and how many it can
 * carry (plannedRateLimitPhase).
 */
export interface PhaseVariant {
  readonly ids: readonly RateLimitCheckId[];
  readonly requests: number;
  readonly ms: number;
  readonly alone: { readonly requests: number; readonly ms: number };
  readonly beside: { readonly requests: number; readonly spanMs: number; readonly room: number };
}

/** The checks a budget adds to the phase one step at a time (PhaseVariant). */
const PHASE_STEPS: readonly (readonly RateLimitCheckId[])[] = [['rate-limit/boundary', 'rate-limit/reset'], ['rate-limit/sliding'], ['rate-limit/page-size-under-load']];

function phaseVariants(profile: Profile, selected: (id: RateLimitCheckId) => boolean, pacedAfter: number): PhaseVariant[] {
  const variants: PhaseVariant[] = [];
  let ids: RateLimitCheckId[] = [];
  for (const step of PHASE_STEPS) {
    const added = step.filter(selected);
    if (added.length === 0) continue;
    ids = [...ids, ...added];
    const inVariant = new Set(ids);
    const chosen = (id: RateLimitCheckId) => inVariant.has(id);
    const here = plannedRateLimitPhase(profile, chosen, pacedAfter);
    const alone = plannedRateLimitPhase(profile, chosen);
    // Beside a window of paced requests and no more: nothing carried; beside any number: all it can carry.
    const uncarried = plannedRateLimitPhase(profile, chosen, pacedAllowed(profile.rate_limit.limit));
    const room = plannedRateLimitPhase(profile, chosen, Number.MAX_SAFE_INTEGER).carried;
    variants.push({ ids, requests: here.requests, ms: here.ms, alone: { requests: alone.requests, ms: alone.ms }, beside: { requests: uncarried.requests + uncarried.carried, spanMs: uncarried.spanMs, room } });
  }
  return variants;
}

function assemblePlan(profile: Profile, pacedAt: RateLimitSetting | undefined, parts: PlanParts): RunPlan {
  const { scenarios, families, casesPerFamily: perFamily } = parts;
  const selected = parts.rateLimit;
  const rateLimitIds = (Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[]).filter(selected);
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
  const checks: PlannedCheck[] = [
    { id: TOKEN_FORM_CHECK_ID, kind: 'preflight', rules: ['AUTH-HEADER-RAW'], requests: 1 + census },
    ...scenarios.map((s): PlannedCheck => {
      const skip = profileSkipReason(s, profile, { readOnly: parts.readOnly, sink: profile.webhook?.sink !== undefined, planning: true });
      if (skip !== null) return { id: s.id, kind: 'scenario', rules: s.scenario.rules, requests: 0, skip };
      const { waitMs, watchMs } = scenarioWaits(s, profile);
      const shared = partsOf(s);
      const requests = plannedRequests(s, estimateCheckRequests) - shared.reduce((n, part) => n + (part.sentEarlier ? part.requests : 0), 0);
      return { id: s.id, kind: 'scenario', rules: s.scenario.rules, requests, ...(shared.length > 0 ? { shared } : {}), ...(waitMs > 0 ? { waitMs } : {}), ...(watchMs > 0 ? { watchMs } : {}) };
    }),
    ...families
      .filter((f) => perFamily >= 1 || parts.casePaths[f.name] !== undefined)
      .map((f): PlannedCheck => ({ id: `properties/${f.name}`, kind: 'property', rules: f.rules, requests: (parts.casePaths[f.name] === undefined ? perFamily : 1) + (f.needs ? 1 : 0) })),
    ...rateLimitIds.map((id): PlannedCheck => ({ id, kind: 'rate-limit', rules: RATE_LIMIT_CHECKS[id].rules, requests: 0 })),
    ...(parts.monitor ? [{ id: MONITOR_CHECK_ID, kind: 'monitor', rules: ['RATE-LIMIT-CAP'], requests: 0 } satisfies PlannedCheck] : []),
    ...(parts.createdIds ? [{ id: CREATED_IDS_CHECK_ID, kind: 'monitor', rules: ['ID-INTEGER'], requests: 0 } satisfies PlannedCheck] : []),
  ];
  checks.push(...afterFamilies(parts, checks));
  const byId = new Map(checks.map((c) => [c.id, c.requests]));
  const start = phaseStart(scenarios, [...scenarios.map((s) => byId.get(s.id) ?? 0), ...families.map((f) => byId.get(`properties/${f.name}`) ?? 0)], profile);
  const phase = plannedRateLimitPhase(profile, selected, start.pacedAfter);
  const requests = checks.reduce((n, c) => n + c.requests, 0) + phase.requests;
  const pacedRequests = requests - phase.requests;
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
    readBack: { on: parts.readBack, requests: checks.find((c) => c.id === READ_BACK_CHECK_ID)?.requests ?? 0 },
    userSequences: parts.userSequences,
    tokenFormCheck: parts.tokenFormCheck,
    readOnly: parts.readOnly,
    requests,
    pacedRequests,
    pacedAt: pacedAt ?? { limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window },
    etaMs: etaMs(checks, phase, (n) => pacer.estimateMs(n)),
  };
}

/**
 * The checks after the families: the stateful family (its sequences and their shrinking within its
 * cap, user-sequences.ts), then the read-back, which reads what all the checks before it write at
 * most (read-back.ts).
 */
function afterFamilies(parts: PlanParts, before: readonly PlannedCheck[]): PlannedCheck[] {
  const checks: PlannedCheck[] = [];
  if (parts.userSequences) {
    const rules = [...USER_SEQUENCES_RULES];
    const skip = parts.readOnly ? { skip: 'the sequences create users on the target (--read-only)' } : {};
    checks.push({ id: USER_SEQUENCES_ID, kind: 'sequence', rules, requests: parts.readOnly ? 0 : SEQUENCE_REQUESTS, ...skip });
  }
  if (parts.readBack) {
    const writes = plannedWrites({ checks: [...before, ...checks], scenarios: parts.scenarios, families: parts.families, casesPerFamily: parts.casesPerFamily }, false);
    const most = (kind: 'user' | 'timesheet' | 'break') => writes.byScenarios[kind] + writes.byGeneratedCases[kind] + writes.forNeeds[kind];
    checks.push({ id: READ_BACK_CHECK_ID, kind: 'read-back', rules: [...READ_BACK_RULES], requests: readBackRequests({ user: most('user'), timesheet: most('timesheet'), break: most('break') }) });
  }
  return checks;
}

/**
 * When the run ends: its paced requests (less those the rate-limit phase carries), the waits that
 * hold it, and the phase's span, one after another; or later, when a check still watches after the
 * rest is done.
 */
function etaMs(checks: readonly PlannedCheck[], phase: { readonly carried: number; readonly spanMs: number }, pacedMs: (requests: number) => number): number {
  let requests = 0;
  let waited = 0;
  let watchedUntil = 0;
  for (const check of checks) {
    requests += check.requests;
    waited += check.waitMs ?? 0;
    if (check.watchMs) watchedUntil = Math.max(watchedUntil, pacedMs(requests) + waited + check.watchMs);
  }
  return Math.max(pacedMs(Math.max(0, requests - phase.carried)) + waited + phase.spanMs, watchedUntil);
}

/**
 * Where the rate-limit phase starts (RunPlan.rateLimit.at), given each paced unit's planned requests
 * (scenarios, then families), and the paced requests after it. It needs a window of them to fill
 * the pacer's window first, and then carries some in its own: with fewer than a window and a half
 * after the start, it runs alone after them all.
 */
function phaseStart(scenarios: readonly LoadedScenario[], unitRequests: readonly number[], profile: Profile): { at: number | null; pacedAfter: number } {
  const at = scenarios.reduce((last, s, i) => (sendsWithoutToken(s) ? i + 1 : last), 0);
  const pacedAfter = unitRequests.slice(at).reduce((a, b) => a + b, 0);
  return pacedAfter >= pacedToRunBeside(pacedAllowed(profile.rate_limit.limit)) ? { at, pacedAfter } : { at: null, pacedAfter: 0 };
}

/**
 * The paced requests after its start the rate-limit phase needs to run beside them, for a pacer
 * that lets `allowed` count at once: a window and a half of them (fewer: it runs alone, after them all).
 */
export function pacedToRunBeside(allowed: number): number {
  return Math.ceil(allowed * 1.5);
}

/** Whether a scenario sends a request without the run's token, or with another one (auth: none, or a raw header; a built-in check such as plain-http). */
function sendsWithoutToken(loaded: LoadedScenario): boolean {
  const found = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(found);
    if (value === null || typeof value !== 'object') return false;
    const { auth, check } = value as { auth?: unknown; check?: unknown };
    if (auth !== undefined && auth !== 'token' && auth !== 'raw-token' && auth !== 'bearer-token') return true;
    if (typeof check === 'string' && CHECKS_WITHOUT_TOKEN.has(check)) return true;
    return Object.values(value).some(found);
  };
  return found(loaded.scenario);
}

/** What a scenario's built-in checks wait beyond their requests: `watchMs` when its last step, a check, waits while the run goes on. */
function scenarioWaits(loaded: LoadedScenario, profile: Profile): { waitMs: number; watchMs: number } {
  const steps = [...loaded.scenario.setup, ...(loaded.scenario.steps ?? [])];
  const waits = steps.map((step) => ('check' in step ? estimateCheckWaitMs(step.check, profile) : 0));
  const last = loaded.scenario.steps?.length ? waits.pop()! : 0;
  return { waitMs: waits.reduce((a, b) => a + b, 0), watchMs: last };
}
