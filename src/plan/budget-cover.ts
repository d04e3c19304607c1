import type { RuleId } from '../contract/rules.ts';
import type { RunBudget } from './run-budget.ts';
import type { FaultCatches } from './fault-catches.ts';
import { pacedToRunBeside } from './phase-placement.ts';
import type { PlannedCheck } from './run-plan.ts';
import type { Unit } from './budget-units.ts';

/** How the target's limit spaces paced calls: `allowed` calls per `spanMs` (the Pacer's). */
export interface Pacing {
  readonly allowed: number;
  readonly spanMs: number;
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
export interface Cover {
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
export function cover(units: readonly Unit[], fixed: readonly PlannedCheck[], budget: RunBudget, pacing: Pacing, catches: FaultCatches, first: readonly (Unit | null)[], familiesAfterStart: boolean): Cover {
  const msPerCall = pacing.spanMs / pacing.allowed;
  const chosen: Unit[] = [];
  let paced = fixed.reduce((n, c) => n + c.requests, 0);
  // The chosen paced requests after the phase's start: the phase carries some of them in its windows.
  let pacedAfter = 0;
  const phaseCost = (variant: Unit['phase'], after: number) => (variant ? variantCost(variant, after, pacing) : null);
  let [waited, unpaced] = [0, 0]; // unpaced: the closing bursts' requests (Unit.unpaced), counted, not timed
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
  const spent = (extraPaced: number, extraAfter: number, extraWaitMs: number, withPhase: Unit['phase'], extraUnpaced = 0) => {
    const cost = phaseCost(withPhase, pacedAfter + extraAfter);
    return { requests: paced + extraPaced + unpaced + extraUnpaced + (cost?.requests ?? 0), ms: (paced + extraPaced) * msPerCall + waited + extraWaitMs + (cost?.ms ?? 0) };
  };
  const state: Cover = {
    chosen,
    remaining,
    worth: () => [...depth.values()].reduce((n, d) => n + 2 * (1 - 0.5 ** d), 0) + FAULT_WEIGHT * faults.size,
    // Paced requests added to the chosen ones (generated cases of the families) come after the phase's start.
    cost: (extraPaced) => spent(extraPaced, familiesAfterStart ? extraPaced : 0, 0, phase?.phase ?? null),
    fits: (unit) => {
      const after = spent(pacedOf(unit), afterOf(unit), unit.waitMs, unit.phase ?? phase?.phase ?? null, unit.unpaced);
      return (budget.maxRequests === undefined || after.requests <= budget.maxRequests) && (budget.withinMs === undefined || after.ms <= budget.withinMs);
    },
    /** The unit's share of the budget: the larger of its share of the requests and of the time. */
    share: (unit) => {
      const more = added(unit).phase;
      const requests = pacedOf(unit) + (unit.unpaced ?? 0) + (more?.requests ?? 0);
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
      unpaced += unit.unpaced ?? 0;
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
