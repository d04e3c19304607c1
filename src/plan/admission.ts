import { formatDuration } from '../duration.ts';
import { budgetLimits, type RunBudget } from './run-budget.ts';
import type { PlannedCheck, RunPlan } from './run-plan.ts';

/** What a unit of checks costs at the target's limit: its requests, its time, and whether it is the rate-limit phase. */
export interface UnitCost {
  readonly requests: number;
  readonly ms: number;
  readonly phase: boolean;
}

/**
 * The cost of the checks `ids` of `plan` at `msPerCall` (the pacer's span over its allowed calls; 0
 * when unpaced): their planned requests, paced (the closing bursts' unpaced, at their bursts' time);
 * the waits they plan; the rate-limit phase's own requests and time when one of them is a check of the phase.
 */
export function unitCost(plan: Pick<RunPlan, 'checks' | 'rateLimit'>, msPerCall: number): (ids: readonly string[]) => UnitCost {
  const byId = new Map<string, PlannedCheck>(plan.checks.map((c) => [c.id, c]));
  return (ids) => {
    const checks = ids.flatMap((id) => byId.get(id) ?? []).filter((c) => c.skip === undefined);
    const phase = checks.some((c) => c.kind === 'rate-limit') ? plan.rateLimit : null;
    // The closing bursts' requests go at once, unpaced: they cost their bursts' time.
    const bursts = checks.filter((c) => c.kind === 'closing-bursts');
    const paced = checks.reduce((n, c) => n + (c.kind === 'closing-bursts' ? 0 : c.requests), 0);
    const unpaced = bursts.reduce((n, c) => n + c.requests, 0);
    const waits = checks.reduce((n, c) => n + (c.waitMs ?? 0) + (c.watchMs ?? 0) + (c.burstMs ?? 0), 0);
    return { requests: paced + unpaced + (phase?.requests ?? 0), ms: paced * msPerCall + waits + (phase?.ms ?? 0), phase: phase !== null };
  };
}

export interface AdmissionDeps {
  readonly budget: RunBudget | undefined;
  /** The rate-limit phase the plan holds: whether it runs, its own requests and time (RunPlan.rateLimit). */
  readonly phase: { readonly any: boolean; readonly requests: number; readonly ms: number };
  readonly costOf: (ids: readonly string[]) => UnitCost;
  /** Milliseconds since the run started, on the run's clock. */
  readonly elapsedMs: () => number;
  /** Requests the run has sent so far. */
  readonly made: () => number;
}

/**
 * A budget is a promise (`--within`, `--max-requests`): before a unit starts, what it costs at the
 * target's limit (its planned requests, paced; the rate-limit phase's own requests and windows; the
 * waits it plans) is set against what is left of the budget, less what the rate-limit phase needs
 * while it is still ahead (it judges rules no other check does, so the paced checks do not crowd it
 * out when the target answers slower than planned). A unit that does not fit is not run: the
 * returned reason names the budget; null admits it. Without a budget every unit is admitted.
 */
export function admission(deps: AdmissionDeps): (ids: readonly string[]) => string | null {
  const { budget, phase } = deps;
  if (budget === undefined || (budget.withinMs === undefined && budget.maxRequests === undefined)) return () => null;
  let phaseAhead = phase.any && phase.requests > 0;
  const limits = budgetLimits(budget);
  // The phase is kept with a tenth more time: the paced checks before it may take longer than planned.
  const reserve = { requests: phase.requests, ms: phase.ms * 1.1 };
  const leftMs = () => (budget.withinMs === undefined ? Infinity : budget.withinMs - deps.elapsedMs());
  return (ids) => {
    const cost = deps.costOf(ids);
    const leftRequests = budget.maxRequests === undefined ? Infinity : budget.maxRequests - deps.made();
    // The phase is over, or no longer fits: nothing is kept for it, and the paced checks may use what is left.
    if (cost.phase || leftMs() < reserve.ms || leftRequests < reserve.requests) phaseAhead = false;
    const kept = phaseAhead ? reserve : { requests: 0, ms: 0 };
    const forPhase = (what: string) => (phaseAhead ? `, ${what} of them kept for the rate-limit phase` : '');
    if (cost.requests + kept.requests > leftRequests) {
      const left = Math.max(0, leftRequests);
      return `not run: budget (${limits}): it sends ${cost.requests} request${cost.requests === 1 ? '' : 's'} and ${left} were left${forPhase(String(kept.requests))}`;
    }
    const left = leftMs();
    if (cost.ms + kept.ms > left) {
      return `not run: budget (${limits}): it takes about ${formatDuration(cost.ms)} at the target's limit and ${formatDuration(Math.max(0, left))} were left${forPhase(formatDuration(kept.ms))}`;
    }
    return null;
  };
}
