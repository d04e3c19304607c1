import type { Exchange } from '../client/exchange.ts';
import { listView, isRefusal, isSuccess, shows, statusText } from './probe-tally.ts';
import { namesNothingOwn, type Direction, type Known } from './cross-lists.ts';

const ITEMS = 'isolation/items' as const;

/** An ID no record has: the one an `as-missing` target must answer a foreign ID as. */
export const NEVER_ID = 2_147_483_647;

/**
 * A user body valid under every reading of §4.2's edit (all four fields the sample marks required),
 * for a change that must not land: the owner's first name kept (its mark, so its own search still
 * finds the user), last_name `Changed`, a fresh e-mail and password.
 */
export interface ChangeValues {
  readonly email: string;
  readonly password: string;
}

/** ISO-FOREIGN-ID: the refusal of a foreign ID as the profile reads it (any 4xx; 403; or exactly as an ID that never existed). */
async function judgeForeignId(d: Direction, foreign: Exchange, body: Record<string, unknown>): Promise<void> {
  const reading = d.profile.second_company?.foreign_ids ?? 'either';
  if (!isRefusal(foreign)) return;
  // Under `either` any 4xx is the reading, which ISO-ITEM-SCOPED's refusal already is: nothing of its own to judge.
  if (reading === 'either') return d.tally.skip(ITEMS, 'ISO-FOREIGN-ID: second_company.foreign_ids is either (any 4xx), which the refusal of ISO-ITEM-SCOPED already judges; declare as-missing or refused to hold the target to one');
  if (reading === 'refused') return d.tally.judge(ITEMS, 'ISO-FOREIGN-ID', foreign.response?.status === 403, "403 for an ID of another company (second_company.foreign_ids: refused)", `status ${statusText(foreign)}`, [foreign]);
  const missing = await d.caller.company.send({ method: 'PUT', path: `/users/${NEVER_ID}`, json: body });
  const keys = (e: Exchange) => {
    const json = e.response?.json;
    return json !== null && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json).sort().join(',') : typeof json;
  };
  const same = missing.response?.status === foreign.response?.status && keys(missing) === keys(foreign);
  d.tally.judge(ITEMS, 'ISO-FOREIGN-ID', same, `another company's user answered exactly as an ID that never existed, ${NEVER_ID} (status and body keys; second_company.foreign_ids: as-missing)`, `status ${statusText(foreign)} with keys [${keys(foreign)}] for the other company's, ${statusText(missing)} with keys [${keys(missing)}] for ${NEVER_ID}`, [foreign, missing]);
}

/**
 * PUT /users/{the owner's user} as the caller (only where a read showed that ID names no user of the
 * caller's own): refused with a 4xx, its answer shows none of the owner's user, and the owner's read
 * back (its search for its mark, returned for the lists' total) still shows the user as it wrote it.
 */
export async function changeUser(d: Direction, known: Known, change: ChangeValues, foreignIdReading: boolean): Promise<Exchange> {
  const id = d.owner.userId;
  // The default page: the mark matches one user (no page size at the edge of §4.6's range).
  const readBack = () => d.owner.company.send({ method: 'GET', path: '/users', query: { search: d.owner.mark } });
  if (!namesNothingOwn(known, 'users', id)) {
    d.tally.skip(ITEMS, `the change of ${d.owner.company.name}'s user ${id}: no read showed that ID names no user of ${d.caller.company.name}'s own (its user list did not fit one page of 100, and second_company.ids is not global)`);
    return readBack();
  }
  const body = { first_name: d.owner.mark, last_name: 'Changed', email: change.email, password: change.password };
  const put = await d.caller.company.send({ method: 'PUT', path: `/users/${id}`, json: body });
  const refused = isRefusal(put);
  // Its e-mail, which the request does not carry (an answer may echo what was sent: the mark is in the body).
  const leaked = shows(put, d.owner.email);
  d.tally.judge(ITEMS, 'ISO-ITEM-SCOPED', refused && !leaked, `PUT /users/${id} (${d.owner.company.name}'s user) with ${d.caller.company.name}'s token refused with a 4xx, showing none of that user`, `status ${statusText(put)}${leaked ? `, and the answer shows the user (its e-mail ${d.owner.email})` : ''}`, [put]);
  if (foreignIdReading) await judgeForeignId(d, put, body);
  const after = await readBack();
  const view = listView(after, d.profile, 10);
  if (view === undefined || !isSuccess(after)) {
    d.tally.skip(ITEMS, `the read back of ${d.owner.company.name}'s user ${id} after the other's PUT: its own search for its mark was not served a list (status ${statusText(after)}, exchange ${after.id})`);
    return after;
  }
  const listed = view.items.find((item) => item !== null && typeof item === 'object' && String((item as { id?: unknown }).id) === String(id));
  if (listed === undefined) {
    d.tally.skip(ITEMS, `the read back of ${d.owner.company.name}'s user ${id} after the other's PUT: its own search for its mark (exchange ${after.id}) does not list it`);
    return after;
  }
  const text = JSON.stringify(listed);
  const unchanged = !text.includes(change.email) && !text.includes('"Changed"');
  d.tally.judge(ITEMS, 'ISO-ITEM-SCOPED', unchanged, `${d.owner.company.name}'s user ${id} reads back as it wrote it after ${d.caller.company.name}'s PUT`, unchanged ? 'unchanged' : `it shows the other company's change (last_name Changed, e-mail ${change.email})`, [put, after]);
  return after;
}

/**
 * PUT /schedules/{the owner's schedule} as the caller, with the caller's own schedule's body (and an
 * event_pid, which an update requires): refused with a 4xx and showing none of the owner's schedule.
 * Only where IDs are global (second_company.ids): no read of §4 shows a schedule ID names none of the
 * caller's own, and a PUT of one of them would change it.
 */
export async function changeSchedule(d: Direction, known: Known): Promise<void> {
  const id = d.owner.scheduleId;
  if (!known.global) return d.tally.skip(ITEMS, `the change of ${d.owner.company.name}'s schedule: §4.1 has no schedule read to show its ID names none of ${d.caller.company.name}'s own (second_company.ids: global allows it)`);
  const put = await d.caller.company.send({ method: 'PUT', path: `/schedules/${id}`, json: { ...d.caller.bodies.schedule, event_pid: String(id) } });
  const leaked = shows(put, d.owner.mark);
  d.tally.judge(ITEMS, 'ISO-ITEM-SCOPED', isRefusal(put) && !leaked, `PUT /schedules/${id} (${d.owner.company.name}'s schedule) with ${d.caller.company.name}'s token refused with a 4xx, showing none of it`, `status ${statusText(put)}${leaked ? `, and the answer shows its title ${d.owner.mark}` : ''}`, [put]);
}
