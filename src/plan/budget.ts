import { formatDuration } from '../duration.ts';
import type { RuleId } from '../contract/rules.ts';
import { READ_BACK_CHECK_ID } from '../records/read-back/read-back-check.ts';
import { FAULT_CATCHES, type FaultCatches } from './fault-catches.ts';
import { pacedToRunBeside, pacerFor, planRun, restrictPlan, type PhaseVariant, type PlanOptions, type PlannedCheck, type RunPlan } from './plan.ts';

/** What a run may spend: requests (`--max-requests`) and time at the target's limit (`--within`). */
export interface RunBudget {
  readonly maxRequests?: number;
  readonly withinMs?: number;
}

/** How the target's limit spaces paced calls: `allowed` calls per `spanMs` (the Pacer's). */
export interface Pacing {
  readonly allowed: number;
  readonly spanMs: number;
}

/** What fits a budget: the checks to run (by ID), the generated cases each chosen family sends, and what was left out. */
export interface BudgetChoice {
  /** The budget it was chosen for. */
  readonly budget: RunBudget;
  readonly checkIds: ReadonlySet<string>;
  readonly casesPerFamily: number;
  /** Checks of the full plan left out, in plan order. */
  readonly leftOut: readonly PlannedCheck[];
  /** How many rules a full run covers. */
  readonly fullRules: number;
  /** Rules a full run covers that no chosen check names. */
  readonly uncovered: readonly RuleId[];
  /** Rules still covered, but by fewer checks than a full run. */
  readonly thinner: readonly RuleId[];
  /** Requests and ETA of the chosen checks, as the budget counts them. */
  readonly requests: number;
  readonly etaMs: number;
}

/** One thing the chooser takes or leaves whole: a scenario, a property family (at `requests` for one case), or one of the rate-limit phase's variants. */
interface Unit {
  readonly ids: readonly string[];
  readonly rules: ReadonlySet<RuleId>;
  /** The fitted catalog faults its checks caught in the selftest (fault-catches.ts). */
  readonly faults: ReadonlySet<string>;
  /** Paced requests (for a family: its setup and one generated case). */
  readonly paced: number;
  /** For a variant of the rate-limit phase, what it costs (PhaseVariant): alone, or beside the chosen paced requests after its start. */
  readonly phase: Pick<PhaseVariant, 'alone' | 'beside'> | null;
  /** Whether its paced requests come after the rate-limit phase's start (the full plan's rateLimit.at), where the phase can carry them. */
  readonly afterPhaseStart: boolean;
  /** Time it waits beyond its requests (the webhook check's quiet period). */
  readonly waitMs: number;
  readonly family: boolean;
  /** Parts other checks may send for it (a pair baseline, a read-only setup): `paced` counts them; a unit already chosen with the same key sends them. */
  readonly shared?: readonly { readonly key: string; readonly requests: number }[];
}

/**
 * Chooses the checks that catch the most within a budget, before anything is sent:
 *
 * 1. Breadth: a weighted set cover. The preflight and the monitor always run, and the read-back
 *    is taken first when it fits (costed at its reads for everything the full plan writes: a plan
 *    that writes less reads less): it judges what the chosen checks write, and the selftest credits
 *    what it catches to the checks that wrote it (fault-catches.ts). Then, while a unit
 *    that fits adds something new, the one with the most new worth per share of the budget is
 *    taken (a property family counted at one generated case; a rate-limit phase costed by its own
 *    requests and the time it adds: beside the chosen paced requests after its start, less what it
 *    carries of them, or alone after them all when they are too few, as the plan would run it). Its new worth: the rules it covers that no chosen unit covers, plus
 *    the catalog faults it caught in the selftest (`catches`, fitted on half of the catalog:
 *    fault-catches.ts) that no chosen unit caught, each at FAULT_WEIGHT.
 * 2. Depth: then, while a unit fits, the one with the most worth per share where each rule's next
 *    check is worth half the one before (1/2 for its second, 1/4 for its third …), faults as above.
 *    The phase comes in steps (the plan's rateLimit.variants): at most one is kept, a larger one
 *    replacing a smaller one for what it adds.
 * 3. Steps 1 and 2 once more with the smallest phase taken first, when it fits: the phase is large
 *    (a third of six minutes at 60 a minute) and judges what no other check can, so a greedy ratio
 *    alone may leave it out where it is worth its cost. Of the two covers, the one worth more in all
 *    (Cover.worth) is kept, and the units left that still fit are added, cheapest first.
 * 4. Generated cases: the chosen families get as many cases each as the rest of the budget pays
 *    for, up to what the full plan gives them.
 *
 * Paced calls are costed at `spanMs / allowed` each (the pacer's steady rate), so the ETA is an
 * upper bound: a run's first window of calls goes out at once.
 */
export function chooseWithinBudget(plan: RunPlan, budget: RunBudget, pacing: Pacing, catches: FaultCatches = FAULT_CATCHES): BudgetChoice {
  const fixed = plan.checks.filter((c) => c.kind === 'preflight' || c.kind === 'monitor');
  // Checks the run skips whatever the target answers cost nothing and cover nothing: they stay in the plan, skipped with their reason.
  const free = plan.checks.filter((c) => c.skip !== undefined);
  const units = planUnits(plan, catches);
  // The smallest phase (the boundary and the reset) taken first, for the second cover.
  const phaseUnit = units.filter((u) => u.phase !== null).sort((a, b) => a.ids.length - b.ids.length)[0];
  // The generated cases added last come after the phase's start, when the plan starts it among the paced checks.
  const beside = plan.rateLimit.at !== null;
  const readBack = units.find((u) => u.ids.includes(READ_BACK_CHECK_ID)) ?? null;
  const plain = cover(units, fixed, budget, pacing, catches, [readBack], beside);
  const phaseFirst = phaseUnit ? cover(units, fixed, budget, pacing, catches, [readBack, phaseUnit], beside) : null;
  const better = (a: Cover, b: Cover) => (b.worth() > a.worth() ? b : a);
  const state = phaseFirst ? better(plain, phaseFirst) : plain;
  for (const unit of [...state.remaining].sort((a, b) => state.share(a) - state.share(b))) if (state.remaining.has(unit) && state.fits(unit)) state.take(unit);

  const families = state.chosen.filter((u) => u.family);
  let casesPerFamily = families.length === 0 ? 0 : 1;
  while (casesPerFamily < plan.casesPerFamily && state.fits({ ids: [], rules: new Set(), faults: new Set(), paced: families.length, phase: null, afterPhaseStart: beside, waitMs: 0, family: false })) {
    state.addPaced(families.length);
    casesPerFamily++;
  }
  const checkIds = new Set([...fixed.map((c) => c.id), ...free.map((c) => c.id), ...state.chosen.flatMap((u) => u.ids)]);
  const ruleCount = (checks: readonly PlannedCheck[]) => {
    const counts = new Map<RuleId, number>();
    for (const check of checks) if (check.skip === undefined) for (const rule of check.rules) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    return counts;
  };
  const full = ruleCount(plan.checks);
  const kept = ruleCount(plan.checks.filter((c) => checkIds.has(c.id)));
  const total = state.cost(0);
  return {
    budget,
    checkIds,
    casesPerFamily,
    fullRules: full.size,
    leftOut: plan.checks.filter((c) => !checkIds.has(c.id)),
    uncovered: [...full.keys()].filter((r) => !kept.has(r)),
    thinner: [...full.keys()].filter((r) => kept.has(r) && (kept.get(r) as number) < (full.get(r) as number)),
    requests: total.requests,
    etaMs: total.ms,
  };
}

/**
 * What a fitted fault a unit newly catches is worth beside a rule it newly covers: the same. In a
 * two-fold cross-validation inside the fitted half, weights from 0 to 3 scored alike at 360
 * requests (1 is the plain one among them); larger ones fit the half they saw at the cost of the half
 * they did not, and at 10 `--within 6m` kept the phase and covered 91 rules (docs/budgets.md).
 */
const FAULT_WEIGHT = 1;

/**
 * How much a property family judges each of its rules, beside a check's 1: within a budget it sends
 * one generated case, one random point of its rules' domains, where a scenario sends the edges it was
 * written for. At half, a rule judged only by a family is still half open in the breadth step, so a
 * scenario of it is taken where it fits.
 */
const FAMILY_COVER = 0.5;

/** A cover under way: what is chosen, what it covers and catches, what it costs. */
interface Cover {
  readonly chosen: Unit[];
  readonly remaining: Set<Unit>;
  /** What the chosen units are worth in all: each rule's checks at 1, 1/2, 1/4 …, and each fitted fault caught at FAULT_WEIGHT. */
  worth(): number;
  /** What is spent so far, and `extraPaced` requests more. */
  cost(extraPaced: number): { requests: number; ms: number };
  fits(unit: Unit): boolean;
  share(unit: Unit): number;
  take(unit: Unit): void;
  addPaced(requests: number): void;
}

/**
 * The greedy cover of step 1 (with the units of `first` taken before anything else, each when it fits). Of the phase's
 * variants (the plan's rateLimit.variants, each a larger phase) at most one is kept: a larger one
 * replaces a smaller one, costed and worth what it adds to it.
 */
function cover(units: readonly Unit[], fixed: readonly PlannedCheck[], budget: RunBudget, pacing: Pacing, catches: FaultCatches, first: readonly (Unit | null)[], familiesAfterStart: boolean): Cover {
  const msPerCall = pacing.spanMs / pacing.allowed;
  const chosen: Unit[] = [];
  let paced = fixed.reduce((n, c) => n + c.requests, 0);
  // The chosen paced requests after the phase's start: the phase carries some of them in its windows.
  let pacedAfter = 0;
  const phaseCost = (variant: Unit['phase'], after: number) => (variant ? variantCost(variant, after, pacing) : null);
  let waited = 0;
  let phase: Unit | null = null;
  // Shared parts the chosen units send (a pair baseline, a read-only setup): a unit with one of them does not send it again.
  const sent = new Set<string>();
  const faults = new Set<string>(fixed.flatMap((c) => catches[c.id] ?? []));
  const remaining = new Set(units);
  // How many chosen units judge each rule: a rule's first check is worth 1, its second 1/2, its third 1/4 … (faults of one rule are caught by different checks of it).
  // How much the chosen units judge each rule: a check 1, a property family FAMILY_COVER.
  const depth = new Map<RuleId, number>(fixed.flatMap((c) => c.rules).map((r) => [r, 1]));
  const weightOf = (unit: Unit) => (unit.family ? FAMILY_COVER : 1);
  /** What a unit adds: for a phase variant, beyond the variant already kept. */
  const added = (unit: Unit) => {
    if (!unit.phase) return { rules: [...unit.rules], phase: null };
    const cost = phaseCost(unit.phase, pacedAfter)!;
    const kept = phaseCost(phase?.phase ?? null, pacedAfter);
    return { rules: [...unit.rules].filter((r) => !phase?.rules.has(r)), phase: kept ? { requests: cost.requests - kept.requests, ms: cost.ms - kept.ms } : cost };
  };
  const freshFaults = (unit: Unit) => FAULT_WEIGHT * [...unit.faults].filter((f) => !faults.has(f)).length;
  /** Breadth: the rules no chosen unit covers, and the fitted faults none caught. */
  const breadthOf = (unit: Unit) => added(unit).rules.reduce((n, r) => n + Math.max(0, Math.min(1, (depth.get(r) ?? 0) + weightOf(unit)) - Math.min(1, depth.get(r) ?? 0)), 0) + freshFaults(unit);
  /** Depth: each rule's next check at half the one before, and the fitted faults none caught. */
  const depthOf = (unit: Unit) => added(unit).rules.reduce((n, r) => n + weightOf(unit) * 0.5 ** (depth.get(r) ?? 0), 0) + freshFaults(unit);
  const pacedOf = (unit: Unit) => unit.paced - (unit.shared ?? []).reduce((n, part) => n + (sent.has(part.key) ? part.requests : 0), 0);
  // Its paced requests after the phase's start, without its shared parts (the plan may charge those to an earlier check): what the phase may carry, counted low.
  const afterOf = (unit: Unit) => (unit.afterPhaseStart ? unit.paced - (unit.shared ?? []).reduce((n, part) => n + part.requests, 0) : 0);
  const spent = (extraPaced: number, extraAfter: number, extraWaitMs: number, withPhase: Unit['phase']) => {
    const cost = phaseCost(withPhase, pacedAfter + extraAfter);
    return { requests: paced + extraPaced + (cost?.requests ?? 0), ms: (paced + extraPaced) * msPerCall + waited + extraWaitMs + (cost?.ms ?? 0) };
  };
  const state: Cover = {
    chosen,
    remaining,
    worth: () => [...depth.values()].reduce((n, d) => n + 2 * (1 - 0.5 ** d), 0) + FAULT_WEIGHT * faults.size,
    // Paced requests added to the chosen ones (generated cases of the families) come after the phase's start.
    cost: (extraPaced) => spent(extraPaced, familiesAfterStart ? extraPaced : 0, 0, phase?.phase ?? null),
    fits: (unit) => {
      const after = spent(pacedOf(unit), afterOf(unit), unit.waitMs, unit.phase ?? phase?.phase ?? null);
      return (budget.maxRequests === undefined || after.requests <= budget.maxRequests) && (budget.withinMs === undefined || after.ms <= budget.withinMs);
    },
    /** The unit's share of the budget: the larger of its share of the requests and of the time. */
    share: (unit) => {
      const more = added(unit).phase;
      const requests = pacedOf(unit) + (more?.requests ?? 0);
      const ms = pacedOf(unit) * msPerCall + unit.waitMs + (more?.ms ?? 0);
      return Math.max(budget.maxRequests ? requests / budget.maxRequests : 0, budget.withinMs ? ms / budget.withinMs : 0, Number.EPSILON);
    },
    take: (unit) => {
      const newRules = added(unit).rules;
      if (unit.phase) {
        if (phase) chosen.splice(chosen.indexOf(phase), 1);
        // The smaller variants are left behind for good.
        for (const other of [...remaining]) if (other.phase && other.ids.length <= unit.ids.length && other !== unit) remaining.delete(other);
        phase = unit;
      }
      chosen.push(unit);
      pacedAfter += afterOf(unit);
      paced += pacedOf(unit);
      for (const part of unit.shared ?? []) sent.add(part.key);
      waited += unit.waitMs;
      for (const rule of newRules) depth.set(rule, (depth.get(rule) ?? 0) + weightOf(unit));
      for (const fault of unit.faults) faults.add(fault);
      remaining.delete(unit);
    },
    addPaced: (requests) => {
      paced += requests;
      if (familiesAfterStart) pacedAfter += requests;
    },
  };
  for (const unit of first) if (unit && state.fits(unit)) state.take(unit);
  for (const worthOf of [breadthOf, depthOf]) takeGreedily(state, worthOf);
  return state;
}

/** While a unit that fits adds worth, takes the one with the most worth per share of the budget. */
function takeGreedily(state: Cover, worthOf: (unit: Unit) => number): void {
  for (;;) {
    let best: { unit: Unit; value: number } | null = null;
    for (const unit of state.remaining) {
      const fresh = worthOf(unit);
      if (fresh <= 0 || !state.fits(unit)) continue;
      const value = fresh / state.share(unit);
      if (best === null || value > best.value) best = { unit, value };
    }
    if (best === null) return;
    state.take(best.unit);
  }
}

/**
 * What a phase variant costs beside `after` chosen paced requests after its start, as the plan
 * would run it (plannedRateLimitPhase): less what it carries of them, or alone after them all when
 * they are too few.
 */
function variantCost(variant: NonNullable<Unit['phase']>, after: number, pacing: Pacing): { requests: number; ms: number } {
  if (after < pacedToRunBeside(pacing.allowed)) return variant.alone;
  const carried = Math.min(variant.beside.room, Math.max(0, after - pacing.allowed));
  return { requests: variant.beside.requests - carried, ms: Math.max(0, variant.beside.spanMs - (carried * pacing.spanMs) / pacing.allowed) };
}

/** The plan's checks as the chooser takes them: each scenario and family alone, the rate-limit checks as one phase. */
function planUnits(plan: RunPlan, catches: FaultCatches): Unit[] {
  const units: Unit[] = [];
  const caught = (ids: readonly string[]) => new Set(ids.flatMap((id) => catches[id] ?? []));
  // The scenarios from the phase's start on, and every family (they come after the scenarios); none when the plan runs the phase alone.
  const { at } = plan.rateLimit;
  const after = new Set(at === null ? [] : plan.scenarios.slice(at).map((s) => s.id));
  for (const check of plan.checks) {
    // A watch overlaps the checks after it, but may be last: counted whole, so a budget is never overrun.
    // A check whose shared part an earlier one sends is costed with it; the chooser takes it off when it keeps the other one.
    const shared = check.shared ?? [];
    const paced = check.requests + shared.reduce((n, part) => n + (part.sentEarlier ? part.requests : 0), 0);
    if (check.kind === 'scenario' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced, phase: null, afterPhaseStart: after.has(check.id), waitMs: (check.waitMs ?? 0) + (check.watchMs ?? 0), family: false, shared });
    // The stateful family: its cap, after the families (not carried by the phase, as the plan places it).
    if (check.kind === 'sequence' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: check.requests, phase: null, afterPhaseStart: false, waitMs: 0, family: false });
    // The read-back: its reads for everything the full plan writes (a plan that writes less reads less); taken first (cover).
    // Not carried by the phase: the plan places the phase by the scenarios' and families' requests alone.
    if (check.kind === 'read-back' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: check.requests, phase: null, afterPhaseStart: false, waitMs: 0, family: false });
    if (check.kind === 'property') {
      // One case, and the setup call if the family needs one (its planned requests beyond its cases); a family replaying its failing case, that case.
      const replays = plan.casePaths[check.id.slice('properties/'.length)] !== undefined;
      units.push({ ids: [check.id], rules: new Set(check.rules), faults: caught([check.id]), paced: replays ? check.requests : 1 + check.requests - plan.casesPerFamily, phase: null, afterPhaseStart: at !== null, waitMs: 0, family: !replays });
    }
  }
  // The phase: one unit per variant (a larger one replaces a smaller one in a cover).
  const rateLimit = plan.checks.filter((c) => c.kind === 'rate-limit');
  for (const variant of plan.rateLimit.variants) {
    const checks = rateLimit.filter((c) => (variant.ids as readonly string[]).includes(c.id));
    if (checks.length === 0) continue;
    units.push({
      ids: checks.map((c) => c.id),
      rules: new Set(checks.flatMap((c) => c.rules)),
      faults: caught(checks.map((c) => c.id)),
      paced: 0,
      phase: variant,
      afterPhaseStart: false,
      waitMs: 0,
      family: false,
    });
  }
  return units;
}

/** `--within 6 min 00 s and --max-requests 300`: the budget as a note or a skipped check's reason names it. */
export function budgetLimits(budget: RunBudget): string {
  return [
    ...(budget.withinMs === undefined ? [] : [`--within ${formatDuration(budget.withinMs)}`]),
    ...(budget.maxRequests === undefined ? [] : [`--max-requests ${budget.maxRequests}`]),
  ].join(' and ');
}

/** One line for the run's notes: what the budget chose and what it left out. */
export function budgetNote(choice: BudgetChoice): string {
  const parts = [
    `${budgetLimits(choice.budget)}: ${choice.checkIds.size} checks planned (${choice.requests} requests, ETA at most ${formatDuration(choice.etaMs)}), ${choice.leftOut.length} not run: budget`,
    `${choice.fullRules - choice.uncovered.length} of the ${choice.fullRules} rules a full run covers are covered`,
    ...(choice.uncovered.length > 0 ? [`not covered: ${choice.uncovered.join(', ')}`] : []),
    ...(choice.thinner.length > 0 ? [`${choice.thinner.length} covered by fewer checks than a full run`] : []),
  ];
  return parts.join('; ');
}

/** A plan, and when a budget was given, what it chose from the full plan. */
export interface BudgetedPlan {
  readonly plan: RunPlan;
  /** The plan before the budget; the same as `plan` without one. */
  readonly full: RunPlan;
  readonly choice: BudgetChoice | null;
}

/** The share of a `--within` budget the chooser leaves unplanned. */
export const UNPLANNED_SHARE = 0.05;

/** Plans a run, then fits it into `budget` (if any): see chooseWithinBudget. Sends nothing. */
export async function planWithinBudget(options: PlanOptions, budget: RunBudget | undefined): Promise<BudgetedPlan> {
  const full = await planRun(options);
  if (budget === undefined || (budget.maxRequests === undefined && budget.withinMs === undefined)) return { plan: full, full, choice: null };
  const pacer = pacerFor(options.profile, full.pacedAt);
  // A twentieth of the time is not planned: the census, the calls that create what checks need, a target slower than its limit.
  const planned = budget.withinMs === undefined ? budget : { ...budget, withinMs: budget.withinMs * (1 - UNPLANNED_SHARE) };
  const choice = { ...chooseWithinBudget(full, planned, { allowed: pacer.allowed, spanMs: pacer.spanMs }), budget };
  return { plan: restrictPlan(full, options.profile, choice.checkIds, choice.casesPerFamily), full, choice };
}
