import type { BuiltinCheck } from '../checks/context.ts';
import type { CountableList, ListNeed } from '../checks/list-need.ts';
import type { LoadedScenario } from '../scenarios/loader.ts';
import type { PropertyFamily } from '../properties/family.ts';
import type { CheckStep } from '../scenarios/format.ts';
import { referencedPaths } from '../input/template-syntax.ts';

/** A user of a role, by the profile's name for the role. */
export type Role = 'admin' | 'manager' | 'employee';

/** What one check needs of the target's data before it can judge anything. */
export interface CheckNeeds {
  readonly checkId: string;
  /** Lists that must hold enough items, each with the step that walks or orders it. */
  readonly lists: readonly { readonly need: ListNeed; readonly step: CheckStep }[];
  /** Active users of these roles (fixtures.role_user_ids.ROLE). */
  readonly roles: readonly Role[];
  /** At least one active user (fixtures.active_user_ids). */
  readonly activeUser: boolean;
  /** Every fixture its templates and `requires:` name (`fixtures.break_rule_id`, without indexes). */
  readonly fixtures: readonly string[];
}

const ROLE_FIXTURE = /^fixtures\.role_user_ids\.(admin|manager|employee)$/;

/**
 * The data needs of a scenario, declared before the run: the lists its built-in checks walk or
 * order (less what its own setup creates in them), the users of each role and the active user its
 * templates and `requires:` name. What the API cannot create (an inactive user, a job, a break rule)
 * is not a need the run meets: the profile declares it, or the scenario is skipped with it named.
 */
export function scenarioNeeds(loaded: LoadedScenario, builtins: Readonly<Record<string, BuiltinCheck>>): CheckNeeds {
  const { scenario } = loaded;
  const createdBySetup = (list: CountableList) => scenario.setup.filter((s) => !('check' in s) && s.request.method === 'POST' && s.request.path === list).length;
  const lists = (scenario.steps ?? [])
    .filter((step): step is CheckStep => 'check' in step)
    .flatMap((step) => (builtins[step.check]?.needs(step.args) ?? []).map((need) => ({ need: { ...need, items: need.items - createdBySetup(need.list) }, step })))
    .filter(({ need }) => need.items > 0);
  const named = [...new Set([...scenario.requires, ...referencedPaths([scenario.let, scenario.setup, scenario.steps, scenario.pair]).map((p) => p.replace(/\[\d+\]/g, ''))])];
  const roles = named.map((p) => ROLE_FIXTURE.exec(p)?.[1] as Role | undefined).filter((r): r is Role => r !== undefined);
  return { checkId: loaded.id, lists, roles, activeUser: named.includes('fixtures.active_user_ids'), fixtures: named.filter((p) => p.startsWith('fixtures.')) };
}

/** Whether a check needs anything of the target's data. */
export function needsData(needs: CheckNeeds): boolean {
  return needs.lists.length > 0 || needs.roles.length > 0 || needs.activeUser;
}

/**
 * What the property families need: their generated cases are sent for an active user (a schedule's,
 * a timesheet's), and breaks with a break rule. Nothing when they send no case (--read-only, no budget).
 */
export function familyNeeds(families: readonly PropertyFamily[], run: { readonly readOnly: boolean; readonly cases: number }): CheckNeeds[] {
  if (run.readOnly || run.cases < 1) return [];
  return families.map((family) => ({
    checkId: `properties/${family.name}`,
    lists: [],
    roles: [],
    activeUser: true,
    fixtures: ['fixtures.active_user_ids', ...(family.needs === 'timesheet' ? ['fixtures.break_rule_id'] : [])],
  }));
}
