import { BUILTIN_CHECKS } from '../checks/registry.ts';
import type { CountableList } from '../checks/list-need.ts';
import type { Step } from '../scenarios/format.ts';
import { scenarioNeeds, type Role } from '../needs/needs.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import type { PropertyFamily } from '../properties/family.ts';
import { SEQUENCE_TIMESHEETS, SEQUENCE_USERS, USER_SEQUENCES_ID } from '../properties/user-sequences.ts';

/** The kinds of record a run can create through the API; none of users, timesheets and breaks can be deleted (§4.5). */
export type WrittenKind = 'user' | 'schedule' | 'timesheet' | 'break';

/**
 * The permanent writes a plan makes, before anything is sent: the records its scenarios create,
 * the generated cases that create one each when accepted, and at most what the run creates to
 * meet its checks' needs (fewer when the target holds them: the run counts first).
 */
export interface PlannedWrites {
  readonly byScenarios: Readonly<Record<WrittenKind, number>>;
  /** Generated cases of the create families: a valid case accepted is a record. */
  readonly byGeneratedCases: Readonly<Record<WrittenKind, number>>;
  /** At most, to meet needs: users (of a role, or for a list), timesheets, breaks. */
  readonly forNeeds: Readonly<Record<WrittenKind, number>>;
  /** The roles of the users created for needs (never admin without --create-admin-users). */
  readonly roles: readonly Role[];
}

const KIND_OF: ReadonlyArray<[RegExp, WrittenKind]> = [
  [/^\/users\b/, 'user'],
  [/^\/schedules\b/, 'schedule'],
  [/^\/timesheets\b/, 'timesheet'],
  [/^\/breaks\b/, 'break'],
];

const none = (): Record<WrittenKind, number> => ({ user: 0, schedule: 0, timesheet: 0, break: 0 });
const kindOf = (path: string): WrittenKind | undefined => KIND_OF.find(([pattern]) => pattern.test(path))?.[1];

/** Records a check step creates: a POST request, or the webhook check's user and its edit (2 users with the unsubscribe round). */
function stepWrites(step: Step, into: Record<WrittenKind, number>): void {
  if ('check' in step) {
    if (step.check === 'webhook-notifications') into.user += 2;
    return;
  }
  const kind = step.request.method === 'POST' ? kindOf(step.request.path) : undefined;
  if (kind) into[kind]++;
}

/** What of a plan its writes are counted from (RunPlan's fields of those names). */
export interface WritingPlan {
  readonly checks: readonly { readonly id: string; readonly skip?: string }[];
  readonly scenarios: readonly LoadedScenario[];
  readonly families: readonly PropertyFamily[];
  readonly casesPerFamily: number;
}

export function plannedWrites(plan: WritingPlan, createAdmins: boolean): PlannedWrites {
  const skipped = new Set(plan.checks.filter((c) => c.skip !== undefined).map((c) => c.id));
  const scenarios = plan.scenarios.filter((s) => !skipped.has(s.id));
  const byScenarios = none();
  for (const { scenario } of scenarios) {
    for (const step of [...scenario.setup, ...(scenario.steps ?? [])]) stepWrites(step, byScenarios);
    const baseline = scenario.pair?.request;
    const kind = baseline?.method === 'POST' ? kindOf(baseline.path) : undefined;
    if (kind) byScenarios[kind]++;
  }
  const byGeneratedCases = none();
  // The stateful family's sequences: a user or a timesheet per request of its cap at most.
  if (plan.checks.some((c) => c.id === USER_SEQUENCES_ID && c.skip === undefined)) {
    byGeneratedCases.user += SEQUENCE_USERS;
    byGeneratedCases.timesheet += SEQUENCE_TIMESHEETS;
  }
  for (const family of plan.families) {
    const kind = family.request.method === 'POST' ? kindOf(family.request.path) : undefined;
    if (kind && !skipped.has(`properties/${family.name}`)) byGeneratedCases[kind] += plan.casesPerFamily;
  }
  const needs = scenarios.map((s) => scenarioNeeds(s, BUILTIN_CHECKS));
  const most = (list: CountableList) => Math.max(0, ...needs.flatMap((n) => n.lists.filter((l) => l.need.list === list).map((l) => l.need.items)));
  const roles = [...new Set(needs.flatMap((n) => n.roles))].filter((role) => role !== 'admin' || createAdmins);
  const breaks = most('/breaks');
  const forNeeds = { user: Math.max(most('/users'), roles.length), schedule: 0, timesheet: most('/timesheets') + (breaks > 0 ? 1 : 0), break: breaks };
  return { byScenarios, byGeneratedCases, forNeeds, roles };
}

/** `14 users, 3 schedules` (kinds with none left out), or `none`. */
export function countText(counts: Readonly<Record<WrittenKind, number>>): string {
  const parts = (Object.entries(counts) as [WrittenKind, number][]).filter(([, n]) => n > 0).map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  return parts.length > 0 ? parts.join(', ') : 'none';
}
