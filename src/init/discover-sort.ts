import { tolerantOrder } from '../checks/sorted.ts';
import { camelCase, readField } from '../records/field-name.ts';
import type { RecordReading } from '../records/record-reading.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import { readList, type ListAnswer } from './list-answer.ts';

/** The record fields the suites sort users by (§4.2 shows firstName and roleId). */
const SORTED_FIELDS = ['first_name', 'role_id'] as const;

type Verdict = 'honored' | 'refused' | 'ignored' | 'unclear';

/** Whether `items` are in descending order of `field` with at least one strict step: none out of order. */
function descending(items: readonly unknown[], field: string, reading: RecordReading): 'yes' | 'no' | 'unclear' {
  const values = items.map((item) => readField(item, field, reading.fields));
  if (values.length < 2 || !values.every((v) => v.found)) return 'unclear';
  let strict = false;
  for (let i = 1; i < values.length; i++) {
    const order = tolerantOrder(values[i - 1]!.value, values[i]!.value);
    if (order === 'before') return 'no';
    if (order === 'after') strict = true;
  }
  return strict ? 'yes' : 'unclear';
}

/**
 * One spelling of one sort name: `sort=-NAME`. Honored when the answer is in descending order of
 * the field while the unsorted list was not (so the order is the sort's doing); refused on a 4xx;
 * ignored when the answer is not in that order; unclear when the data cannot show an order.
 */
async function trySpelling(send: (r: TargetRequest) => Promise<Exchange>, unsorted: ListAnswer, field: string, name: string, reading: RecordReading): Promise<{ verdict: Verdict; said: string; served: boolean }> {
  const answer = readList(await send({ method: 'GET', path: '/users', query: { sort: `-${name}`, page_size: 100 } }));
  const status = answer.status ?? 0;
  const served = status >= 200 && status < 300;
  if (status >= 400 && status < 500 && status !== 429) return { verdict: 'refused', said: answer.said, served };
  if (!answer.items || !unsorted.items) return { verdict: 'unclear', said: answer.said, served };
  const sorted = descending(answer.items, field, reading);
  const before = descending(unsorted.items, field, reading);
  if (before !== 'no' || sorted === 'unclear') return { verdict: 'unclear', said: answer.said, served };
  return { verdict: sorted === 'yes' ? 'honored' : 'ignored', said: answer.said, served };
}

/**
 * Which spelling of the sort names the target takes (SORT-FIELD-NAMES): for each field the suites
 * sort by, the camelCase that §4.2 shows, then snake_case when camelCase was not honored; a
 * snake_case served where camelCase was refused is the target's even when too few users show an
 * order; then `id` (not shown by §4.2), kept only when shown to sort. At most five requests. A field whose order cannot be told apart (too few users, the records do not show
 * it, the unsorted list is already in that order) is left for the user.
 */
export async function discoverSortNames(send: (r: TargetRequest) => Promise<Exchange>, unsorted: ListAnswer, reading: RecordReading): Promise<Discovery<Record<string, string>>> {
  const names: Record<string, string> = {};
  const how: string[] = [];
  const unclear: string[] = [];
  for (const field of SORTED_FIELDS) {
    let chosen: string | null = null;
    let refused = false;
    for (const name of [camelCase(field), field]) {
      const tried = await trySpelling(send, unsorted, field, name, reading);
      const outcome = { honored: 'sorted descending', refused: 'refused', ignored: 'not sorted', unclear: 'order not shown' }[tried.verdict];
      how.push(`${tried.said} (${outcome})`);
      // Honored; or served where the other spelling was refused (too few users to show an order, but the name is the target's).
      if (tried.verdict === 'honored' || (tried.verdict === 'unclear' && refused && tried.served)) {
        chosen = name;
        break;
      }
      if (tried.verdict === 'unclear') break; // a spelling the answer cannot judge: the other would not be judged either
      refused = tried.verdict === 'refused';
    }
    if (chosen === null) unclear.push(field);
    else names[field] = chosen;
  }
  // A numeric sort name §4.2 does not show: `id`, taken where it is shown to sort (query/sort-numeric-id runs where declared); else left out, not asked of the user.
  const byId = await trySpelling(send, unsorted, 'id', 'id', reading);
  how.push(`${byId.said} (${{ honored: 'sorted descending', refused: 'refused', ignored: 'not sorted', unclear: 'order not shown' }[byId.verdict]})`);
  if (byId.verdict === 'honored') names.id = 'id';
  if (unclear.length > 0) {
    return notFound(`${how.join('; ')}: no spelling of ${unclear.join(', ')} could be shown to sort the list (§4.2 shows firstName, roleId; the records must show the field and the unsorted list must be in another order); name the spellings your server takes`);
  }
  return found(names, how.join('; '));
}
