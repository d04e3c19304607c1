import { shiftYmdDate } from '../contract/formats/ymd-date.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { readField } from '../records/field-name.ts';
import type { RecordReading } from '../records/record-reading.ts';
import { asNumber } from '../records/same-meaning.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import { readList, type ListAnswer } from './list-answer.ts';

/** The page size init reads a range at: §4.6's maximum. */
const PAGE_SIZE = 100;


/** A timesheet of the list with an ID and a start that begins with its date (`YYYY-MM-DD`, with an offset or without): its ID and that date, as written. */
function dated(list: ListAnswer, reading: RecordReading): { id: number; day: string; start: string } | null {
  for (const item of list.items ?? []) {
    const id = asNumber((item as { id?: unknown } | null)?.id);
    // §2.3's start, or the clock_in_time some servers list it as (discover-records.ts).
    const start = [readField(item, 'start', reading.fields), readField(item, 'clock_in_time', reading.fields)].find((f) => f.found)?.value;
    if (id !== null && Number.isSafeInteger(id) && id > 0 && typeof start === 'string' && /^\d{4}-\d{2}-\d{2}[T ]/.test(start)) return { id, day: start.slice(0, 10), start };
  }
  return null;
}

/** Whether a range's answer lists the timesheet: yes, no (the whole answer, on one page, leaves it out), or unclear (no list, or more pages than read). */
function lists(answer: ListAnswer, id: number): 'yes' | 'no' | 'unclear' {
  if (!answer.items) return 'unclear';
  if (answer.items.some((item) => asNumber((item as { id?: unknown } | null)?.id) === id)) return 'yes';
  return answer.complete && answer.items.length < PAGE_SIZE ? 'no' : 'unclear';
}

/**
 * Whether `date_range` lists the records on its two end dates (§4.6 says "between"; the profile's
 * `date_range_ends`). A timesheet the list shows, on day D as its start writes it, is asked for
 * three times: D-1..D+1 (strictly inside: it must be listed, else the filter reads its date another
 * way and nothing is concluded), D..D+1 (D the first end) and D-1..D (D the last end). Listed on both
 * ends: inclusive; on neither: exclusive; on one only: left at either. A target that reads the date
 * in another zone (D±1) is not listed strictly inside by an exclusive reading, nor on both ends by an
 * inclusive one, so neither is concluded from a shifted date. Three requests; none without a timesheet.
 */
export async function discoverDateRangeEnds(send: (r: TargetRequest) => Promise<Exchange>, timesheets: ListAnswer, reading: RecordReading): Promise<Discovery<'inclusive' | 'exclusive'>> {
  const sheet = dated(timesheets, reading);
  if (!sheet) return notFound(`${timesheets.said}: no timesheet with an ID and a dated start to read the range's ends with; left at either (the date-range-ends checks run once you declare inclusive or exclusive)`);
  const range = async (from: number, to: number) => readList(await send({ method: 'GET', path: '/timesheets', query: { date_range: `${shiftYmdDate(sheet.day, from)},${shiftYmdDate(sheet.day, to)}`, page_size: PAGE_SIZE } }));
  const inside = await range(-1, 1);
  const what = `timesheet ${sheet.id} (start ${sheet.start})`;
  if (lists(inside, sheet.id) !== 'yes') return notFound(`${inside.said}: ${what} is not shown listed strictly inside the range, so its ends cannot be read; left at either`);
  const [first, last] = [await range(0, 1), await range(-1, 0)];
  const [onFirst, onLast] = [lists(first, sheet.id), lists(last, sheet.id)];
  const how = `${inside.said} lists ${what}; ${first.said} ${onFirst === 'yes' ? 'lists' : onFirst === 'no' ? 'leaves out' : 'does not show'} it on its first day; ${last.said} ${onLast === 'yes' ? 'lists' : onLast === 'no' ? 'leaves out' : 'does not show'} it on its last`;
  if (onFirst === 'yes' && onLast === 'yes') return found('inclusive', how);
  if (onFirst === 'no' && onLast === 'no') return found('exclusive', how);
  return notFound(`${how}: not one reading of both ends; left at either`);
}
