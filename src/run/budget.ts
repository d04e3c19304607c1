import { formatDuration } from '../duration.ts';
import type { RuleId } from '../contract/rules.ts';
import { pacerFor, planRun, restrictPlan, type PlanOptions, type PlannedCheck, type RunPlan } from './plan.ts';

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

/** One thing the chooser takes or leaves whole: a scenario, a property family (at `requests` for one case), or the rate-limit phase. */
interface Unit {
  readonly ids: readonly string[];
  readonly rules: ReadonlySet<RuleId>;
  /** Paced requests (for a family: its setup and one generated case). */
  readonly paced: number;
  /** The rate-limit phase's own requests and time (not paced). */
  readonly phase: { readonly requests: number; readonly ms: number } | null;
  /** Time it waits beyond its requests (the webhook check's quiet period). */
  readonly waitMs: number;
  readonly family: boolean;
  /** Parts other checks may send for it (a pair baseline, a read-only setup): `paced` counts them; a unit already chosen with the same key sends them. */
  readonly shared?: readonly { readonly key: string; readonly requests: number }[];
}

/**
 * Chooses the checks that cover the most rules within a budget, before anything is sent:
 *
 * 1. Breadth: a weighted set cover. The preflight and the monitor always run. Then, while a unit
 *    that fits adds a rule not yet covered, the one with the most new rules per share of the budget
 *    is taken (a property family counted at one generated case; the rate-limit phase whole, costed
 *    by its requests and its windows).
 * 2. Depth: the units left, cheapest first, while they fit (more variants of covered rules).
 * 3. Generated cases: the chosen families get as many cases each as the rest of the budget pays
 *    for, up to what the full plan gives them.
 *
 * Paced calls are costed at `spanMs / allowed` each (the pacer's steady rate), so the ETA is an
 * upper bound: a run's first window of calls goes out at once.
 */
export function chooseWithinBudget(plan: RunPlan, budget: RunBudget, pacing: Pacing): BudgetChoice {
  const msPerCall = pacing.spanMs / pacing.allowed;
  const fixed = plan.checks.filter((c) => c.kind === 'preflight' || c.kind === 'monitor');
  // Checks the run skips whatever the target answers cost nothing and cover nothing: they stay in the plan, skipped with their reason.
  const free = plan.checks.filter((c) => c.skip !== undefined);
  const units = planUnits(plan);
  const chosen: Unit[] = [];
  let paced = fixed.reduce((n, c) => n + c.requests, 0);
  let waited = 0;
  let phase: Unit['phase'] = null;
  const cost = (extraPaced: number, extraPhase: Unit['phase'], extraWaitMs = 0) => {
    const requests = paced + extraPaced + (phase?.requests ?? 0) + (extraPhase?.requests ?? 0);
    const ms = (paced + extraPaced) * msPerCall + waited + extraWaitMs + (phase?.ms ?? 0) + (extraPhase?.ms ?? 0);
    return { requests, ms };
  };
  // Shared parts the chosen units send (a pair baseline, a read-only setup): a unit with one of them does not send it again.
  const sent = new Set<string>();
  const pacedOf = (unit: Unit) => unit.paced - (unit.shared ?? []).reduce((n, part) => n + (sent.has(part.key) ? part.requests : 0), 0);
  const fits = (unit: Unit) => {
    const after = cost(pacedOf(unit), unit.phase, unit.waitMs);
    return (budget.maxRequests === undefined || after.requests <= budget.maxRequests) && (budget.withinMs === undefined || after.ms <= budget.withinMs);
  };
  /** The unit's share of the budget: the larger of its share of the requests and of the time. */
  const share = (unit: Unit) => {
    const requests = pacedOf(unit) + (unit.phase?.requests ?? 0);
    const ms = pacedOf(unit) * msPerCall + unit.waitMs + (unit.phase?.ms ?? 0);
    return Math.max(budget.maxRequests ? requests / budget.maxRequests : 0, budget.withinMs ? ms / budget.withinMs : 0, Number.EPSILON);
  };
  const take = (unit: Unit) => {
    chosen.push(unit);
    paced += pacedOf(unit);
    for (const part of unit.shared ?? []) sent.add(part.key);
    waited += unit.waitMs;
    if (unit.phase) phase = unit.phase;
    remaining.delete(unit);
  };
  const covered = new Set<RuleId>(fixed.flatMap((c) => c.rules));
  const remaining = new Set(units);
  for (;;) {
    let best: { unit: Unit; value: number } | null = null;
    for (const unit of remaining) {
      const fresh = [...unit.rules].filter((r) => !covered.has(r)).length;
      if (fresh === 0 || !fits(unit)) continue;
      const value = fresh / share(unit);
      if (best === null || value > best.value) best = { unit, value };
    }
    if (best === null) break;
    take(best.unit);
    for (const rule of best.unit.rules) covered.add(rule);
  }
  for (const unit of [...remaining].sort((a, b) => share(a) - share(b))) if (fits(unit)) take(unit);

  const families = chosen.filter((u) => u.family);
  let casesPerFamily = families.length === 0 ? 0 : 1;
  while (casesPerFamily < plan.casesPerFamily && fits({ ids: [], rules: new Set(), paced: families.length, phase: null, waitMs: 0, family: false })) {
    paced += families.length;
    casesPerFamily++;
  }
  const checkIds = new Set([...fixed.map((c) => c.id), ...free.map((c) => c.id), ...chosen.flatMap((u) => u.ids)]);
  const ruleCount = (checks: readonly PlannedCheck[]) => {
    const counts = new Map<RuleId, number>();
    for (const check of checks) if (check.skip === undefined) for (const rule of check.rules) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    return counts;
  };
  const full = ruleCount(plan.checks);
  const kept = ruleCount(plan.checks.filter((c) => checkIds.has(c.id)));
  const total = cost(0, null);
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

/** The plan's checks as the chooser takes them: each scenario and family alone, the rate-limit checks as one phase. */
function planUnits(plan: RunPlan): Unit[] {
  const units: Unit[] = [];
  for (const check of plan.checks) {
    // A watch overlaps the checks after it, but may be last: counted whole, so a budget is never overrun.
    // A check whose shared part an earlier one sends is costed with it; the chooser takes it off when it keeps the other one.
    const shared = check.shared ?? [];
    const paced = check.requests + shared.reduce((n, part) => n + (part.sentEarlier ? part.requests : 0), 0);
    if (check.kind === 'scenario' && check.skip === undefined) units.push({ ids: [check.id], rules: new Set(check.rules), paced, phase: null, waitMs: (check.waitMs ?? 0) + (check.watchMs ?? 0), family: false, shared });
    if (check.kind === 'property') {
      // One case, and the setup call if the family needs one (its planned requests beyond its cases); a family replaying its failing case, that case.
      const replays = plan.casePaths[check.id.slice('properties/'.length)] !== undefined;
      units.push({ ids: [check.id], rules: new Set(check.rules), paced: replays ? check.requests : 1 + check.requests - plan.casesPerFamily, phase: null, waitMs: 0, family: !replays });
    }
  }
  const rateLimit = plan.checks.filter((c) => c.kind === 'rate-limit');
  if (rateLimit.length > 0) {
    units.push({
      ids: rateLimit.map((c) => c.id),
      rules: new Set(rateLimit.flatMap((c) => c.rules)),
      paced: 0,
      phase: { requests: plan.rateLimit.requests, ms: plan.rateLimit.ms },
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
