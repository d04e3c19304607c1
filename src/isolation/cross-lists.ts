import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { RecordId } from '../records/created-id.ts';
import type { CompanyRecords } from './company-records.ts';
import { isSuccess, listView, sameId, statusText, type IsolationTally, type ListView } from './probe-tally.ts';

/** One way of the probes: the caller's token on the owner's records. */
export interface Direction {
  readonly caller: CompanyRecords;
  readonly owner: CompanyRecords;
  readonly profile: Profile;
  readonly tally: IsolationTally;
}

const LIST = 'isolation/lists' as const;
const EXPECTED = (d: Direction) => `${d.caller.company.name}'s token shows none of ${d.owner.company.name}'s records (§1, §5.5: a token is its company administrator's)`;

/** Which IDs a read showed to name nothing of the caller's own: every ID where IDs are global, else the ones a whole list of the caller's did not hold. */
export interface Known {
  readonly global: boolean;
  /** The caller's whole user list, when one page held it. */
  users?: readonly RecordId[];
  /** The caller's whole timesheet list, when one page held it. */
  timesheets?: readonly RecordId[];
}

/** Whether a probe may name `id` as the caller: it names nothing of the caller's own. */
export function namesNothingOwn(known: Known, list: 'users' | 'timesheets', id: RecordId): boolean {
  const own = known[list];
  return known.global || (own !== undefined && !own.some((o) => sameId(o, id)));
}

/** Judges one list answer of the caller: none of the owner's records (by ID with its mark, or the mark anywhere) on it. */
function noneShown(d: Direction, exchange: Exchange, what: string, ownerIds: readonly RecordId[], view: ListView | undefined): void {
  // The items only: a page's links repeat its query, and a search for the mark names it there.
  const text = view === undefined ? (exchange.response?.body ?? '') : JSON.stringify(view.items);
  const leaked = text.includes(d.owner.mark) || text.includes(d.owner.email);
  const byId = view?.ids.filter((id) => ownerIds.some((o) => sameId(o, id))) ?? [];
  const ok = !leaked;
  d.tally.judge(LIST, 'ISO-LIST-SCOPED', ok, EXPECTED(d), ok ? `${what}: none of them` : `${what} (status ${statusText(exchange)}) shows ${d.owner.company.name}'s record${byId.length > 0 ? ` ${byId.join(', ')}` : ''} (its mark ${d.owner.mark})`, [exchange]);
}

/**
 * The caller's user list (one page of 100): shows none of the owner's users, and, when it holds the
 * caller's whole list, which user IDs are the caller's own (so a probe by ID names none of them).
 */
export async function userList(d: Direction, known: Known): Promise<void> {
  const exchange = await d.caller.company.send({ method: 'GET', path: '/users', query: { page_size: 100 } });
  const view = isSuccess(exchange) ? listView(exchange, d.profile, 100) : undefined;
  noneShown(d, exchange, `${d.caller.company.name}'s GET /users?page_size=100`, [d.owner.userId], view);
  if (view?.complete) known.users = view.ids;
}

/** The caller's timesheet list, read only to show which timesheet IDs are its own (IDs not global). */
export async function timesheetList(d: Direction, known: Known): Promise<void> {
  const exchange = await d.caller.company.send({ method: 'GET', path: '/timesheets', query: { page_size: 100 } });
  const view = isSuccess(exchange) ? listView(exchange, d.profile, 100) : undefined;
  noneShown(d, exchange, `${d.caller.company.name}'s GET /timesheets?page_size=100`, [d.owner.timesheetId], view);
  if (view?.complete) known.timesheets = view.ids;
}

/**
 * A search for the owner's mark as the caller: shows none of the owner's users; and where the owner's
 * own search for it (`baseline`, its read back) listed its user alone, so the search filters, the
 * caller's totals 0.
 */
export async function searchForMark(d: Direction, baseline: Exchange): Promise<void> {
  const exchange = await d.caller.company.send({ method: 'GET', path: '/users', query: { search: d.owner.mark } });
  const view = listView(exchange, d.profile, 10);
  noneShown(d, exchange, `${d.caller.company.name}'s search for ${d.owner.company.name}'s mark`, [d.owner.userId], view);
  const owners = isSuccess(baseline) ? listView(baseline, d.profile, 10) : undefined;
  if (owners === undefined || owners.ids.length !== 1 || !sameId(owners.ids[0]!, d.owner.userId)) {
    d.tally.skip(LIST, `the total of a search only ${d.owner.company.name}'s records match: its own search for its mark (exchange ${baseline.id}) did not list its user alone, so the search does not show it filters`);
    return;
  }
  if (view?.total === undefined) return d.tally.skip(LIST, `the total of a search only the other company's records match: the answer (exchange ${exchange.id}) states no total`);
  d.tally.judge(LIST, 'ISO-LIST-SCOPED', view.total === 0 && view.ids.length === 0, `a total of 0 for a search only ${d.owner.company.name}'s user matches (its own search lists that user alone, exchange ${baseline.id})`, `total ${view.total}, ${view.ids.length} item(s)`, [baseline, exchange]);
}

/** A date_range around the owner's timesheet as the caller: shows none of the owner's timesheets (the caller's own that day may show). */
export async function dateRangeAround(d: Direction): Promise<void> {
  const exchange = await d.caller.company.send({ method: 'GET', path: '/timesheets', query: { date_range: `${d.owner.date},${d.owner.date}` } });
  noneShown(d, exchange, `${d.caller.company.name}'s GET /timesheets?date_range=${d.owner.date},${d.owner.date}`, [d.owner.timesheetId], listView(exchange, d.profile, 10));
}

/**
 * GET /breaks with the owner's break in `ids` (§4.4) as the caller: lists no break with its ID and
 * its instants; where the ID names nothing of the caller's own (IDs global), the total is 0 too.
 */
export async function breakIds(d: Direction, known: Known): Promise<void> {
  const breakId = d.owner.breakId;
  if (breakId === undefined) return d.tally.skip(LIST, `the \`ids\` read of ${d.owner.company.name}'s break: it has no break (no break rule known: the profile's fixtures.break_rule_id or second_company.break_rule_id, or a break it lists)`);
  const exchange = await d.caller.company.send({ method: 'GET', path: '/breaks', json: { ids: [breakId] } });
  const view = listView(exchange, d.profile, 10);
  const start = Date.parse(String(d.owner.bodies.break?.start));
  const theirs = (view?.items ?? []).filter((item) => {
    const b = item as { id?: unknown; start?: unknown };
    return b !== null && typeof b === 'object' && String(b.id) === String(breakId) && Date.parse(String(b.start)) === start;
  });
  const what = `${d.caller.company.name}'s GET /breaks with ids [${breakId}]`;
  d.tally.judge(LIST, 'ISO-LIST-SCOPED', theirs.length === 0, EXPECTED(d), theirs.length === 0 ? `${what}: none of them` : `${what} (status ${statusText(exchange)}) lists ${d.owner.company.name}'s break ${breakId}`, [exchange]);
  if (known.global && view?.total !== undefined) d.tally.judge(LIST, 'ISO-LIST-SCOPED', view.total === 0, `a total of 0 for \`ids\` that name only ${d.owner.company.name}'s break (IDs are global: second_company.ids)`, `total ${view.total}`, [exchange]);
}
