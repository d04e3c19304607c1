import { jsonText } from '../contract/json-text.ts';
import type { RecordId } from '../records/created-id.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { readField } from '../records/field-name.ts';
import { recordReading } from '../records/record-reading.ts';
import { asBoolean, asExactInteger, asNumber } from '../records/same-meaning.ts';
import { CENSUS_PAGE_SIZE, ROLE_IDS, type Census, type ListCount } from './census.ts';
import type { Role } from './needs.ts';

/**
 * A profile value the target contradicts: a user fixture (`fixtures.active_user_ids`,
 * `fixtures.inactive_user_id`, `fixtures.role_user_ids.<role>`) that the target's own user list
 * shows to be wrong. It is the profile's error, found before any check runs: no check is judged on it.
 */
export interface FixtureContradiction {
  /** The profile key, e.g. `fixtures.active_user_ids` or `fixtures.role_user_ids.admin`. */
  readonly key: string;
  /** One sentence: what the target's list shows, and what to do. */
  readonly reason: string;
  /** The GET /users exchange that shows it. */
  readonly evidence: readonly Exchange[];
}

/** What to do about a contradicted fixture. */
export const FIXTURE_REMEDY = 'fix the key, or run `clockcheck init` again to write the profile from the target';

/** A user the profile declares, and what its key says the user is: active or not, of a role. */
interface Declaration {
  readonly key: string;
  readonly id: RecordId;
  /** What the key says of the user's `active`; `either` for role_user_ids, the users the role filter returns (§4.2 filters `role` and `active` apart). */
  readonly active: boolean | 'either';
  readonly role?: Role;
}

/** The profile's user fixtures in the order they are checked: active_user_ids, inactive_user_id, role_user_ids admin, manager, employee. */
function userDeclarations(profile: Profile): Declaration[] {
  const { active_user_ids, inactive_user_id, role_user_ids } = profile.fixtures;
  const roles = (Object.keys(ROLE_IDS) as Role[]).flatMap((role) => (role_user_ids?.[role] ?? []).map((id): Declaration => ({ key: `fixtures.role_user_ids.${role}`, id, active: 'either', role })));
  return [
    ...(active_user_ids ?? []).map((id): Declaration => ({ key: 'fixtures.active_user_ids', id, active: true })),
    ...(inactive_user_id === undefined ? [] : [{ key: 'fixtures.inactive_user_id', id: inactive_user_id, active: false }]),
    ...roles,
  ];
}

/** The target's users as one complete page of GET /users shows them. */
interface UserList {
  readonly count: ListCount;
  /** Each listed user by the ID its record reads (the first record of an ID). */
  /** The listed users by their ID's digits (an ID beyond 2^53 is a key of its own). */
  readonly byId: ReadonlyMap<string, unknown>;
  /** Every listed record reads an ID: an ID not among them is not on the target. */
  readonly everyIdRead: boolean;
  /** A listed record reads active false: the list shows inactive users too. */
  readonly showsInactive: boolean;
  readonly field: (record: unknown, name: string) => unknown;
}

/**
 * The census's GET /users when it proves what the target holds: served, and complete (its total
 * is the items of its one page, and that page is not full: a full page may be followed by another
 * even when its block's total counts only the page). Else null: nothing is proven.
 */
function completeUserList(census: Census, profile: Profile): UserList | null {
  const count = census.lists.get('/users');
  if (!count || count.atLeast || count.total !== count.items.length || count.items.length >= CENSUS_PAGE_SIZE) return null;
  const { fields } = recordReading(profile);
  const field = (record: unknown, name: string) => readField(record, name, fields).value;
  const byId = new Map<string, unknown>();
  for (const record of count.items) {
    const id = asExactInteger(field(record, 'id'));
    if (id !== null && !byId.has(String(id))) byId.set(String(id), record);
  }
  const everyIdRead = count.items.every((record) => asExactInteger(field(record, 'id')) !== null);
  const showsInactive = count.items.some((record) => asBoolean(field(record, 'active')) === false);
  return { count, byId, everyIdRead, showsInactive, field };
}

const ROLE_WORDS: Readonly<Record<Role, string>> = { admin: 'an admin (role 1)', manager: 'a manager (role 2)', employee: 'an employee (role 3)' };

/** What the list shows against one declared user, or null when it shows nothing against it (a field that cannot be read proves nothing). */
function contradicts(list: UserList, declared: Declaration): string | null {
  const call = `GET /users?page_size=${CENSUS_PAGE_SIZE}`;
  const exchange = `exchange ${list.count.exchange.id}`;
  const record = list.byId.get(String(declared.id));
  if (record === undefined) {
    // An inactive user missing from a list that shows no inactive user may be filtered out, not absent.
    const proven = list.everyIdRead && (declared.active === true || list.showsInactive);
    return proven ? `user ${declared.id} is not among the ${list.count.items.length} users ${call} lists (${exchange}, every user on one page)` : null;
  }
  const active = list.field(record, 'active');
  if (declared.active !== 'either' && asBoolean(active) === !declared.active) {
    return `user ${declared.id} reads active ${jsonText(active)} in ${call} (${exchange}), where the key names ${declared.active ? 'an active' : 'an inactive'} user`;
  }
  if (declared.role === undefined) return null;
  const roleId = list.field(record, 'role_id');
  const read = asNumber(roleId);
  if (read === null || read === ROLE_IDS[declared.role]) return null;
  return `user ${declared.id} reads role_id ${jsonText(roleId)} in ${call} (${exchange}), where the key names ${ROLE_WORDS[declared.role]}`;
}

/**
 * Checks the profile's user fixtures against the target's records, as far as the census's GET
 * /users proves them (only a complete list proves anything): a declared user ID the list does not
 * hold, an active user whose record reads active false, an inactive user whose record reads active
 * true, a role user whose role_id reads another role (§2.2: 1 Admin, 2 Manager, 3 Employee). A role
 * user may be active or not: `role_user_ids` are the users the role filter returns, and §4.2's
 * `role` filter does not filter by `active`.
 * The first contradiction found, in the order active_user_ids, inactive_user_id, role_user_ids
 * (admin, manager, employee); null when the list shows none. Sends nothing.
 */
export function fixtureContradiction(census: Census, profile: Profile): FixtureContradiction | null {
  const list = completeUserList(census, profile);
  if (!list) return null;
  for (const declared of userDeclarations(profile)) {
    const shown = contradicts(list, declared);
    if (shown !== null) return { key: declared.key, reason: `${shown}: ${FIXTURE_REMEDY}`, evidence: [list.count.exchange] };
  }
  return null;
}
