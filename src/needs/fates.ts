import type { CountableList, ListNeed } from '../checks/list-need.ts';
import type { CheckStep } from '../scenarios/format.ts';
import type { StepAdaptation } from '../scenarios/scenario-deps.ts';
import type { Profile } from '../profile/profile.ts';
import type { Census } from './census.ts';
import type { CheckNeeds, Role } from './needs.ts';

/** A smaller page size a check step asks for than its suite wrote: two pages of what exists. */
export type Adaptation = StepAdaptation;

/** What the run will create through the API before the checks, so that their needs are met. */
export interface Provisioning {
  /** Users to create, by role (never an admin unless the run may create admins). */
  readonly users: readonly Role[];
  /** Users to create for the lists' sake (employees), beyond the ones of a role. */
  readonly moreUsers: number;
  readonly timesheets: number;
  readonly breaks: number;
}

/** The run's decisions on the checks' data needs, after the census and before a check runs. */
export interface Decisions {
  /** The fixtures the census found that the profile did not name (merged into the run's profile). */
  readonly found: Partial<Profile['fixtures']>;
  readonly provisioning: Provisioning;
  /** Checks skipped for a need neither the target nor the API can meet here: the need named. */
  readonly skips: ReadonlyMap<string, string>;
  /** Checks that wait on what the run creates (errored if it cannot be created). */
  readonly provisioned: ReadonlySet<string>;
  readonly adaptations: ReadonlyMap<CheckStep, Adaptation>;
}

/** What the run may do to meet a need: create (not under --read-only), and create admin users (only when asked to). */
export interface Allowance {
  readonly readOnly: boolean;
  readonly createAdmins: boolean;
}

const ROLE_NAMES: Readonly<Record<Role, string>> = { admin: 'an admin (role 1)', manager: 'a manager (role 2)', employee: 'an employee (role 3)' };
const LIST_WORDS: Readonly<Record<CountableList, string>> = { '/users': 'users', '/timesheets': 'timesheets', '/breaks': 'breaks' };

/**
 * Decides, for every check, how its data needs are met, the cheapest sound way: by what the target
 * holds (the profile's fixtures, the census); for a walk, by a smaller page size that makes two
 * pages of what exists; else by records created through the API, shared by every check that needs
 * them; else the check is skipped with the need named. Sends nothing.
 */
export function decide(needs: readonly CheckNeeds[], census: Census, profile: Profile, allowed: Allowance): Decisions {
  const found = foundFixtures(census, profile);
  const skips = new Map<string, string>();
  const provisioned = new Set<string>();
  const adaptations = new Map<CheckStep, Adaptation>();
  const users = new Set<Role>();
  const wanted = new Map<CountableList, number>();
  const fixtures = { ...profile.fixtures, ...found };
  for (const check of needs) {
    const unmet = decideRoles(check, fixtures, allowed, users) ?? decideLists(check, census, allowed, wanted, adaptations, fixtures);
    if (unmet) skips.set(check.checkId, unmet);
    else if (dependsOnProvisioning(check, fixtures, census, adaptations)) provisioned.add(check.checkId);
  }
  const timesheets = shortOf(wanted, census, '/timesheets');
  const breaks = shortOf(wanted, census, '/breaks');
  // Timesheets and breaks are a user's: with no active user known, one is created (an employee).
  const activeUserWanted = timesheets > 0 || breaks > 0 || needs.some((n) => n.activeUser && !skips.has(n.checkId));
  if (activeUserWanted && (fixtures.active_user_ids?.length ?? 0) === 0 && users.size === 0) users.add('employee');
  const moreUsers = Math.max(0, (wanted.get('/users') ?? 0) - (census.lists.get('/users')?.total ?? 0) - users.size);
  return {
    found,
    provisioning: { users: [...users], moreUsers, timesheets, breaks },
    skips,
    provisioned,
    adaptations,
  };
}

/** How many items of a list must be created: what the most demanding check wants, less what the list holds. */
function shortOf(wanted: ReadonlyMap<CountableList, number>, census: Census, list: CountableList): number {
  return Math.max(0, (wanted.get(list) ?? 0) - (census.lists.get(list)?.total ?? 0));
}

/** The users of each role the check names: found, to be created, or the reason it is skipped. */
function decideRoles(check: CheckNeeds, fixtures: Profile['fixtures'], allowed: Allowance, users: Set<Role>): string | null {
  for (const role of check.roles) {
    if ((fixtures.role_user_ids?.[role]?.length ?? 0) > 0) continue;
    const need = `needs ${ROLE_NAMES[role]} user (fixtures.role_user_ids.${role}): the target's user list shows none`;
    if (allowed.readOnly) return `${need}, and the run is read-only (it would create one)`;
    if (role === 'admin' && !allowed.createAdmins) return `${need}, and the run creates an admin user only with --create-admin-users (or name one in the profile)`;
    users.add(role);
  }
  if (check.activeUser && (fixtures.active_user_ids?.length ?? 0) === 0 && allowed.readOnly) {
    return 'needs an active user (fixtures.active_user_ids): the target\'s user list shows none, and the run is read-only (it would create one)';
  }
  return null;
}

/** The lists the check walks or orders: held, adapted to a smaller page, to be filled up, or the reason it is skipped. */
function decideLists(check: CheckNeeds, census: Census, allowed: Allowance, wanted: Map<CountableList, number>, adaptations: Map<CheckStep, Adaptation>, fixtures: Profile['fixtures']): string | null {
  // The largest need first: a list filled up for it holds enough for the smaller ones, which then run as written.
  for (const { need, step } of [...check.lists].sort((x, y) => y.need.items - x.need.items)) {
    const count = census.lists.get(need.list);
    if (count === undefined || count === null || count.atLeast || count.total >= need.items) continue; // held, or the check judges why the list was not served
    if ((wanted.get(need.list) ?? 0) >= need.items) continue; // filled up for a larger need
    if (need.pageSize !== undefined && count.total >= 2) {
      const pageSize = count.total - 1;
      adaptations.set(step, { args: { ...step.args, page_size: pageSize }, note: `page_size ${pageSize} instead of ${need.pageSize}: the target holds ${count.total} ${LIST_WORDS[need.list]}, and a walk needs two pages` });
      continue;
    }
    const unmet = cannotFill(need, count.total, allowed, fixtures);
    if (unmet) return unmet;
    wanted.set(need.list, Math.max(wanted.get(need.list) ?? 0, need.items));
  }
  return null;
}

/** Why a list cannot be filled up through the API here, or null when it can. */
function cannotFill(need: ListNeed, held: number, allowed: Allowance, fixtures: Profile['fixtures']): string | null {
  const words = LIST_WORDS[need.list];
  const what = `needs ${need.items} ${words}${need.pageSize !== undefined || need.items > 2 ? ` to see a second page${need.pageSize !== undefined ? ` at page_size ${need.pageSize}` : ' at the default page size of 10'}` : ' to compare an order'}; the target holds ${held}`;
  if (allowed.readOnly) return `${what}, and the run is read-only (it would create ${need.items - held})`;
  if (need.list === '/breaks' && fixtures.break_rule_id === undefined) {
    return `${what}, and breaks can be created only with a break rule (fixtures.break_rule_id): the API neither creates nor lists break rules, and no break on the target names one`;
  }
  return null;
}

/** Whether a check runs on records the run creates (a role user not found, a list filled up). */
function dependsOnProvisioning(check: CheckNeeds, fixtures: Profile['fixtures'], census: Census, adaptations: ReadonlyMap<CheckStep, Adaptation>): boolean {
  if (check.roles.some((role) => (fixtures.role_user_ids?.[role]?.length ?? 0) === 0)) return true;
  if (check.activeUser && (fixtures.active_user_ids?.length ?? 0) === 0) return true;
  return check.lists.some(({ need, step }) => {
    const count = census.lists.get(need.list);
    return count !== undefined && count !== null && !count.atLeast && count.total < need.items && !adaptations.has(step);
  });
}

/** The fixtures the census found that the profile does not name: active users, a user of each role, an inactive user, a break rule. */
function foundFixtures(census: Census, profile: Profile): Partial<Profile['fixtures']> {
  const fixtures = profile.fixtures;
  const roles: Partial<Record<Role, number[]>> = {};
  for (const [role, id] of Object.entries(census.roleUsers) as [Role, number][]) {
    if ((fixtures.role_user_ids?.[role]?.length ?? 0) === 0) roles[role] = [id];
  }
  return {
    ...((fixtures.active_user_ids?.length ?? 0) === 0 && census.activeUsers.length > 0 ? { active_user_ids: census.activeUsers.slice(0, 3) } : {}),
    ...(Object.keys(roles).length > 0 ? { role_user_ids: { ...fixtures.role_user_ids, ...roles } } : {}),
    ...(fixtures.inactive_user_id === undefined && census.inactiveUser !== null ? { inactive_user_id: census.inactiveUser } : {}),
    ...(fixtures.break_rule_id === undefined && census.breakRule !== null ? { break_rule_id: census.breakRule } : {}),
  };
}
