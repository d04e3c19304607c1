import { readId, type RecordId } from '../records/created-id.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { CountableList } from '../checks/list-need.ts';
import { readField } from '../records/field-name.ts';
import { locateItems } from '../records/locate.ts';
import { recordReading, recordReadingFor } from '../records/record-reading.ts';
import { asBoolean, asNumber } from '../records/same-meaning.ts';
import type { Profile } from '../profile/profile.ts';
import { needsData, type CheckNeeds, type Role } from './needs.ts';

/** Spec §2.2: role_id 1 Admin, 2 Manager, 3 Employee. */
export const ROLE_IDS: Readonly<Record<Role, 1 | 2 | 3>> = { admin: 1, manager: 2, employee: 3 };

/** A list as the census saw it: how many items it holds (`atLeast` when only a full page was seen), and the items of its first page. */
export interface ListCount {
  readonly total: number;
  /** The list holds at least `total` items: its block showed no total and the page was full. */
  readonly atLeast: boolean;
  readonly items: readonly unknown[];
  readonly exchange: Exchange;
}

/**
 * What the target holds, as far as the run's needs ask: the lists they name, counted; from the
 * users' records, an active user of each role and an inactive user; from the breaks, a break rule.
 * The users' list is also what the profile's user fixtures are checked against (fixture-check.ts).
 */
export interface Census {
  /** A list the target served; null when it answered otherwise (then the needs on it are not met, and the checks judge why). */
  readonly lists: ReadonlyMap<CountableList, ListCount | null>;
  /** The first active user of each role the users' records show (read by meaning: `1`, `"3"`). */
  readonly roleUsers: Readonly<Partial<Record<Role, RecordId>>>;
  readonly activeUsers: readonly RecordId[];
  readonly inactiveUser: RecordId | null;
  /** A break rule a break on the target names (§2.4 shows `break_rule_id`). */
  readonly breakRule: RecordId | null;
}

/** The page size the census asks of each list: the most §2.5 allows (page_size: maximum 100). */
export const CENSUS_PAGE_SIZE = 100;

/** The profile paths of the user fixtures, as checks name them (without indexes). */
const USER_FIXTURE = /^fixtures\.(active_user_ids|inactive_user_id|role_user_ids\.(admin|manager|employee))$/;

/** Whether a fixture path a check names is a user fixture: an active user, the inactive user, a user of a role. */
export function isUserFixture(path: string): boolean {
  return USER_FIXTURE.test(path);
}

/** Whether the profile declares any user fixture: an active user, the inactive user, a user of a role. */
export function declaresUserFixtures(profile: Profile): boolean {
  const { active_user_ids, inactive_user_id, role_user_ids } = profile.fixtures;
  return (active_user_ids?.length ?? 0) > 0 || inactive_user_id !== undefined || Object.values(role_user_ids ?? {}).some((ids) => (ids?.length ?? 0) > 0);
}

/**
 * The lists the census reads (one request each), from the planned checks' needs (all of them, the
 * ones that need no data too) and the profile; known before the run, so a plan can count them:
 * those the data needs walk or order; the users when a role, an active user or the inactive user
 * is not in the profile, and whenever the profile declares a user a planned check names (the
 * profile's user fixtures are checked against that list, fixture-check.ts); the breaks when a
 * break rule is not in the profile.
 */
export function censusLists(needs: readonly CheckNeeds[], profile: Profile): Set<CountableList> {
  const fixtures = profile.fixtures;
  const data = needs.filter(needsData);
  const lists = new Set<CountableList>(data.flatMap((n) => n.lists.map((l) => l.need.list)));
  const missingRole = data.some((n) => n.roles.some((role) => (fixtures.role_user_ids?.[role]?.length ?? 0) === 0));
  const missingActive = data.some((n) => n.activeUser) && (fixtures.active_user_ids?.length ?? 0) === 0;
  const missingInactive = data.some((n) => n.fixtures.includes('fixtures.inactive_user_id')) && fixtures.inactive_user_id === undefined;
  const checked = declaresUserFixtures(profile) && needs.some((n) => n.fixtures.some(isUserFixture));
  if (missingRole || missingActive || missingInactive || checked) lists.add('/users');
  if (data.some((n) => n.fixtures.includes('fixtures.break_rule_id')) && fixtures.break_rule_id === undefined) lists.add('/breaks');
  return lists;
}

/** Counts the lists the needs name (one GET of a page of 100 each), and reads users and break rules from them. Sends nothing else. */
export async function takeCensus(send: (request: TargetRequest) => Promise<Exchange>, lists: ReadonlySet<CountableList>, profile: Profile): Promise<Census> {
  const counted = new Map<CountableList, ListCount | null>();
  for (const list of lists) counted.set(list, await countList(send, list, profile));
  const reading = recordReading(profile);
  const users = counted.get('/users')?.items ?? [];
  const field = (item: unknown, name: string) => readField(item, name, reading.fields).value;
  const active = users.filter((u) => asBoolean(field(u, 'active')) !== false);
  const roleUsers: Partial<Record<Role, RecordId>> = {};
  for (const [role, roleId] of Object.entries(ROLE_IDS) as [Role, number][]) {
    const user = active.find((u) => asNumber(field(u, 'role_id')) === roleId && asBoolean(field(u, 'active')) === true);
    const id = user === undefined ? null : readId(field(user, 'id'));
    if (id !== null) roleUsers[role] = id;
  }
  const ids = (items: readonly unknown[]) => items.map((u) => readId(field(u, 'id'))).filter((id): id is RecordId => id !== null);
  const inactive = ids(users.filter((u) => asBoolean(field(u, 'active')) === false));
  const breakRule = (counted.get('/breaks')?.items ?? []).map((b) => readId((b as { break_rule_id?: unknown } | null)?.break_rule_id)).find((id) => id !== null) ?? null;
  return { lists: counted, roleUsers, activeUsers: ids(users.filter((u) => asBoolean(field(u, 'active')) === true)), inactiveUser: inactive[0] ?? null, breakRule };
}

/** One page of 100 of a list: its total from the §2.5 block when shown, else the items counted. */
async function countList(send: (request: TargetRequest) => Promise<Exchange>, list: CountableList, profile: Profile): Promise<ListCount | null> {
  const exchange = await send({ method: 'GET', path: list, query: { page_size: CENSUS_PAGE_SIZE } });
  const status = exchange.response?.status ?? 0;
  if (status < 200 || status >= 300) return null;
  const json = exchange.response?.json;
  const items = locateItems(json, recordReadingFor(profile, list));
  if (!items) return null;
  const shownTotal = asNumber((json as { meta_data?: { pagination?: { total?: unknown } } } | null)?.meta_data?.pagination?.total);
  if (shownTotal !== null && shownTotal >= items.length) return { total: shownTotal, atLeast: false, items, exchange };
  return { total: items.length, atLeast: items.length >= CENSUS_PAGE_SIZE, items, exchange };
}
