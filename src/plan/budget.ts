import { formatDuration } from '../duration.ts';
import { budgetLimits, type RunBudget } from './run-budget.ts';
import type { RuleId } from '../contract/rules.ts';
import { READ_BACK_CHECK_ID } from '../records/read-back/read-back-check.ts';
import { cover, type Cover, type Pacing } from './budget-cover.ts';
import { planUnits } from './budget-units.ts';
import { FAULT_CATCHES, type FaultCatches } from './fault-catches.ts';
import { planRun, restrictPlan, type PlanOptions } from './plan.ts';
import { pacerFor, type PlannedCheck, type RunPlan } from './run-plan.ts';


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
