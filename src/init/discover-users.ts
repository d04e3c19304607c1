import { readField } from '../records/field-name.ts';
import type { RecordReading } from '../records/record-reading.ts';
import { asBoolean, asNumber } from '../records/same-meaning.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import type { ListAnswer } from './list-answer.ts';

/** Spec §2.2: role_id 1 Admin, 2 Manager, 3 Employee, as the profile's role_user_ids names them. */
const ROLES = { admin: 1, manager: 2, employee: 3 } as const;
type RoleName = keyof typeof ROLES;

/** The user lists init asks for: all users, the `active` filter both ways, and the `role` filter for each role (§4.2). */
export interface UserLists {
  readonly all: ListAnswer;
  readonly active: ListAnswer;
  readonly inactive: ListAnswer;
  readonly roles: Readonly<Record<RoleName, ListAnswer>>;
}

/** What init found about the users: the fixture IDs, and disagreements worth a warning. */
export interface UserFixtures {
  readonly activeUserIds: Discovery<number[]>;
  readonly inactiveUserId: Discovery<number>;
  readonly roleUserIds: Discovery<Partial<Record<RoleName, number[]>>>;
  readonly warnings: readonly string[];
}

/** How many IDs of each kind a profile gets. */
const KEEP = 3;

interface Sighting {
  readonly id: number;
  /** What the user's own record says, when it shows the field. */
  active?: boolean;
  role?: number;
}

const idOf = (item: unknown): number | null => {
  const id = asNumber((item as { id?: unknown } | null)?.id);
  return id !== null && Number.isSafeInteger(id) ? id : null;
};

const idsOf = (list: ListAnswer): Set<number> => new Set((list.items ?? []).map(idOf).filter((id): id is number => id !== null));
const listed = (ids: readonly number[]) => (ids.length > 6 ? `${ids.slice(0, 6).join(', ')}, …` : ids.join(', '));

/** What the users' records and the `active` filters say of each user's activity, and where they disagree. */
interface ActiveReading {
  /** true or false when the user's record or the filters say; undefined when neither does. */
  readonly of: (u: Sighting) => boolean | undefined;
  /** Whether any user's record shows `active`. */
  readonly shown: boolean;
  /** Whether the two filters answered completely and separate some users. */
  readonly separated: boolean;
  readonly warnings: readonly string[];
}

/** What the users' records and the `role` filters say of each user's role, and where they disagree. */
interface RoleReading {
  /** The role_id the record gives, else the one role filter that lists the user; undefined when neither does. */
  readonly of: (u: Sighting) => number | undefined;
  /** Whether any user's record shows `role_id`. */
  readonly shown: boolean;
  /** Whether the three role filters answered completely. */
  readonly answered: boolean;
  readonly warnings: readonly string[];
}

/**
 * Reads active, inactive and role fixtures from the user lists. A user's own record (its `active`
 * and `role_id`, by meaning: 1/0 and "3" count) is the first witness; the filters of §4.2 are
 * cross-checked against it, and a disagreement is a warning (the filter check will fail). Where the
 * records do not show a field, the filters alone decide, and only when they separate the users:
 * active means listed by active=1 and not by a complete active=0 list, and the reverse for inactive;
 * a role means listed by exactly one role filter.
 */
export function discoverUsers(lists: UserLists, reading: RecordReading): UserFixtures {
  const users = sightings(lists, reading);
  const active = readActive(users, lists);
  const roles = readRoles(users, lists);
  return {
    ...activeFixtures(users, lists, active, roles),
    roleUserIds: roleFixtures(users, lists, active, roles),
    warnings: [...active.warnings, ...roles.warnings],
  };
}

/** Every user any list shows, by ID, with what its own record says of `active` and `role_id`. */
function sightings(lists: UserLists, reading: RecordReading): Sighting[] {
  const seen = new Map<number, Sighting>();
  for (const list of [lists.all, lists.active, lists.inactive, ...Object.values(lists.roles)]) {
    for (const item of list.items ?? []) {
      const id = idOf(item);
      if (id === null) continue;
      const sighting = seen.get(id) ?? { id };
      const active = readField(item, 'active', reading.fields);
      if (active.found && asBoolean(active.value) !== null) sighting.active = asBoolean(active.value) as boolean;
      const role = readField(item, 'role_id', reading.fields);
      if (role.found && asNumber(role.value) !== null) sighting.role = asNumber(role.value) as number;
      seen.set(id, sighting);
    }
  }
  return [...seen.values()].sort((a, b) => a.id - b.id);
}

/** Each user's activity: the record's `active`, else the filters when they separate; the active filter cross-checked against the records. */
function readActive(users: readonly Sighting[], lists: UserLists): ActiveReading {
  const warnings: string[] = [];
  const activeIds = idsOf(lists.active);
  const inactiveIds = idsOf(lists.inactive);
  const wronglyActive = users.filter((u) => u.active === false && activeIds.has(u.id)).map((u) => u.id);
  const wronglyInactive = users.filter((u) => u.active === true && inactiveIds.has(u.id)).map((u) => u.id);
  if (wronglyActive.length > 0) warnings.push(`${lists.active.said} lists users whose records say active false (${listed(wronglyActive)}): USR-LIST-FILTER-ACTIVE will fail`);
  if (wronglyInactive.length > 0) warnings.push(`${lists.inactive.said} lists users whose records say active true (${listed(wronglyInactive)})`);

  const filtersSeparate = lists.active.items !== null && lists.inactive.items !== null && lists.active.complete && lists.inactive.complete;
  const of = (u: Sighting): boolean | undefined => {
    if (u.active !== undefined) return u.active;
    if (!filtersSeparate) return undefined;
    if (activeIds.has(u.id) && !inactiveIds.has(u.id)) return true;
    if (inactiveIds.has(u.id) && !activeIds.has(u.id)) return false;
    return undefined;
  };
  return {
    of,
    shown: users.some((u) => u.active !== undefined),
    separated: filtersSeparate && users.some((u) => activeIds.has(u.id) !== inactiveIds.has(u.id)),
    warnings,
  };
}

/** Each user's role: the record's role_id, else membership in exactly one role filter; the filters cross-checked against the records. */
function readRoles(users: readonly Sighting[], lists: UserLists): RoleReading {
  const names = Object.keys(ROLES) as RoleName[];
  const roleIds = Object.fromEntries(names.map((name) => [name, idsOf(lists.roles[name])])) as Record<RoleName, Set<number>>;
  const answered = names.every((name) => lists.roles[name].items !== null && lists.roles[name].complete);
  const warnings: string[] = [];
  for (const name of names) {
    const wrong = users.filter((u) => u.role !== undefined && u.role !== ROLES[name] && roleIds[name].has(u.id)).map((u) => u.id);
    if (wrong.length > 0) warnings.push(`${lists.roles[name].said} lists users whose records give another role_id (${listed(wrong)}): USR-LIST-FILTER-ROLE will fail`);
  }
  const of = (u: Sighting): number | undefined => {
    if (u.role !== undefined) return u.role;
    if (!answered) return undefined;
    const hits = names.filter((name) => roleIds[name].has(u.id));
    return hits.length === 1 ? ROLES[hits[0] as RoleName] : undefined;
  };
  return { of, shown: users.some((u) => u.role !== undefined), answered, warnings };
}

/**
 * active_user_ids: an active admin, manager and employee first (the first is assigned_by and the
 * timesheet user), then others; inactive_user_id: the first inactive user. Each with how it was read, or why none.
 */
function activeFixtures(users: readonly Sighting[], lists: UserLists, active: ActiveReading, roles: RoleReading): Pick<UserFixtures, 'activeUserIds' | 'inactiveUserId'> {
  const actives = users.filter((u) => active.of(u) === true);
  const preferred = (Object.values(ROLES) as number[]).map((role) => actives.find((u) => roles.of(u) === role)).filter((u): u is Sighting => u !== undefined);
  const chosen = [...new Set([...preferred, ...actives].map((u) => u.id))].slice(0, KEEP);
  const inactive = users.find((u) => active.of(u) === false);
  const activeHow = active.shown
    ? `${lists.all.said}${lists.active.items ? `, ${lists.active.said}` : ''}: the users' records say active (1/true)`
    : `${lists.active.said} lists them and ${lists.inactive.said} does not (the records do not show active)`;
  const inactiveHow = active.shown
    ? `${lists.all.said}${lists.inactive.items ? `, ${lists.inactive.said}` : ''}: the user's record says active false (0/false)`
    : `${lists.inactive.said} lists it and ${lists.active.said} does not (the records do not show active)`;
  const noActiveSignal =
    lists.all.items === null
      ? `${lists.all.said}: no user list`
      : !active.shown && !active.separated
        ? `the user records do not show active, and ${lists.active.said} with ${lists.inactive.said} do not separate active from inactive users: name them here`
        : null;
  return {
    activeUserIds: chosen.length > 0
      ? found(chosen, activeHow)
      : notFound(noActiveSignal ?? `no active user on the target (${lists.all.said}); the schedule, timesheet and break checks need one: create one, or name one`),
    inactiveUserId: inactive
      ? found(inactive.id, inactiveHow)
      : notFound(noActiveSignal ?? `no inactive user on the target (${lists.all.said}${lists.inactive.items ? `, ${lists.inactive.said}` : ''}); the checks that an inactive user is refused (SCH-USER-IDS-ACTIVE, USR-LIST-FILTER-ACTIVE) are skipped until you deactivate a user and name it here`),
  };
}

/** role_user_ids: up to three users of each role; inactive users are left out (whether the role filter lists them is not said, §4.2). */
function roleFixtures(users: readonly Sighting[], lists: UserLists, active: ActiveReading, roles: RoleReading): UserFixtures['roleUserIds'] {
  const byRole: Partial<Record<RoleName, number[]>> = {};
  for (const name of Object.keys(ROLES) as RoleName[]) {
    const ids = users.filter((u) => roles.of(u) === ROLES[name] && active.of(u) !== false).map((u) => u.id).slice(0, KEEP);
    if (ids.length > 0) byRole[name] = ids;
  }
  return Object.keys(byRole).length > 0
    ? found(byRole, roles.shown ? `${lists.all.said}: the users' records give role_id (1 admin, 2 manager, 3 employee)` : `GET /users?role=1, 2 and 3 each list them and no other role filter does (the records do not show role_id)`)
    : notFound(roles.shown || roles.answered ? 'no user of a role was listed' : 'the user records do not show role_id and the role filters do not separate the users: name admins and employees here for USR-LIST-FILTER-ROLE');
}
