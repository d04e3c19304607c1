import { formatDuration } from '../duration.ts';

/** What a run may spend: requests (`--max-requests`) and time at the target's limit (`--within`). */
export interface RunBudget {
  readonly maxRequests?: number;
  readonly withinMs?: number;
}

/** `--within 6 min 00 s and --max-requests 300`: the budget as a note or a skipped check's reason names it. */
export function budgetLimits(budget: RunBudget): string {
  return [
    ...(budget.withinMs === undefined ? [] : [`--within ${formatDuration(budget.withinMs)}`]),
    ...(budget.maxRequests === undefined ? [] : [`--max-requests ${budget.maxRequests}`]),
  ].join(' and ');
}
