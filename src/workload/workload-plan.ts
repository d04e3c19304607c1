import { UsageError } from '../errors.ts';
import type { Profile } from '../profile/profile.ts';
import { maxFlows } from './arrival.ts';
import type { Arrival, RequestStep, Workload, WorkloadScenario } from './workload-file.ts';
import { isWrite, type WorkloadOperationName } from './workload-operations.ts';

/** `--rate`, `--connections`, `--duration` over the workload's own arrival. */
export interface ArrivalOverride {
  /** Flows started per second: an open model at this constant rate. */
  readonly rate?: number;
  /** Connections: a closed model (without --rate). */
  readonly connections?: number;
  readonly durationMs?: number;
}

/**
 * The arrival a run uses: the workload's, or the command line's. `--rate R` makes it an open model at
 * R flows/s (for --duration, else the workload's length); `--connections N` alone a closed model of
 * N connections; `--duration` alone stretches the workload's own arrival to that length.
 */
export function arrivalWith(arrival: Arrival, override: ArrivalOverride): Arrival {
  const length = override.durationMs ?? (arrival.model === 'closed' ? arrival.durationMs : arrival.phases.reduce((n, p) => n + p.durationMs, 0));
  if (override.rate !== undefined) {
    return { model: 'open', phases: [{ durationMs: length, rate: override.rate, rampTo: null }], maxInFlight: arrival.model === 'open' ? Math.max(arrival.maxInFlight, override.connections ?? 0) : (override.connections ?? 100) };
  }
  if (override.connections !== undefined) return { model: 'closed', connections: override.connections, durationMs: length, maxFlows: arrival.model === 'closed' ? arrival.maxFlows : 10_000 };
  if (override.durationMs === undefined) return arrival;
  if (arrival.model === 'closed') return { ...arrival, durationMs: length };
  // The phases keep their proportions.
  const total = arrival.phases.reduce((n, p) => n + p.durationMs, 0);
  return { ...arrival, phases: arrival.phases.map((p) => ({ ...p, durationMs: Math.max(1000, Math.round((p.durationMs / total) * length)) })) };
}

const requests = (s: WorkloadScenario): RequestStep[] => s.flow.filter((step): step is RequestStep => step.kind === 'request');

/** `--read-only`: only the scenarios whose every step reads. @throws UsageError when none is left. */
export function readOnlyWorkload(workload: Workload): Workload {
  const kept = workload.scenarios.filter((s) => requests(s).every((r) => !isWrite(r.operation)));
  if (kept.length === 0) throw new UsageError(`--read-only: every scenario of ${workload.source} writes; there is nothing left to send (give a workload with a read-only scenario, or drop --read-only)`);
  return { ...workload, scenarios: kept };
}

/** The operations a workload calls. */
export function operationsOf(workload: Workload): Set<WorkloadOperationName> {
  return new Set(workload.scenarios.flatMap((s) => requests(s).map((r) => r.operation)));
}

/** The most records a run of the workload creates or edits: its flows at most, each with the most writes any flow has. */
export function maxWrites(workload: Workload): number {
  const perFlow = Math.max(0, ...workload.scenarios.map((s) => requests(s).filter((r) => isWrite(r.operation)).length));
  return perFlow === 0 ? 0 : maxFlows(workload.arrival) * perFlow;
}

/**
 * What the workload's bodies need from the profile's fixtures: an active user for a timesheet the flow
 * gives no user, for a schedule's assigned_by and user_ids; a break rule for a break.
 * @throws UsageError naming the step, the fixture and where to get it.
 */
export function requireFixtures(workload: Workload, profile: Profile): void {
  const { fixtures } = profile;
  for (const scenario of workload.scenarios) {
    for (const step of requests(scenario)) {
      const needs: string[] = [];
      const given = (field: string) => field in step.with;
      if (step.operation === 'POST /timesheets' && !given('user_id') && !fixtures.active_user_ids) needs.push('active_user_ids');
      if ((step.operation === 'POST /schedules' || step.operation === 'PUT /schedules/{schedule_id}') && !(given('assigned_by') && given('user_ids')) && !fixtures.active_user_ids) needs.push('active_user_ids');
      if (step.operation === 'POST /breaks' && !given('break_rule_id') && fixtures.break_rule_id === undefined) needs.push('break_rule_id');
      if (needs.length > 0) {
        throw new UsageError(`${workload.source}: ${step.operation} in "${scenario.name}" needs fixtures.${needs[0]} in the profile; \`clockcheck init\` discovers it (or give the field with \`with:\`)`);
      }
    }
  }
}
