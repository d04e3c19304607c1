import { itemsOf } from '../checks/args.ts';
import { blockProblems, linkProblems } from '../checks/page-block.ts';
import { pageSizeProblems } from '../checks/page-size-verdict.ts';
import { tolerantOrder } from '../checks/sorted.ts';
import { selectedBreakIds } from '../contract/payloads/break.ts';
import { isJsonObject } from '../contract/payloads/validate.ts';
import { paginationBlock } from '../contract/responses.ts';
import type { RuleId } from '../contract/rules.ts';
import { readField, snakeCase } from '../records/field-name.ts';
import { sameMeaning } from '../records/same-meaning.ts';
import { isSuccess, judged, statusOf, type Judgement } from './judgement.ts';
import { breakRecordJudgements } from './record-judges.ts';
import type { GradeReading } from './request-judges.ts';
import type { Observed } from './traffic.ts';

/** The lists the spec pages (§2.5, §4.6). */
const LISTS = new Set(['/users', '/breaks', '/timesheets']);

/** A served list answer with a readable body: its items (null when it has none). */
function servedList(o: Observed, reading: GradeReading): { items: unknown[] | null } | null {
  if (o.exchange.request.method !== 'GET' || !LISTS.has(o.path) || !isSuccess(statusOf(o)) || !o.responseBody.known || o.responseJson === undefined) return null;
  return { items: itemsOf(o.responseJson, reading.profile) };
}

/**
 * What one served page of a list shows (§2.5, §4.6): the block's fields, its consistency with the
 * items, its links, the default page and page size when none was asked, the page size when one
 * was, and on GET /breaks the list response and every break in it.
 */
export function listJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const list = servedList(o, reading);
  if (list === null) return o.exchange.request.method === 'GET' && LISTS.has(o.path) ? pageSizeJudgements(o, reading) : [];
  const block = paginationBlock.safeParse((o.responseJson as { meta_data?: { pagination?: unknown } })?.meta_data?.pagination);
  const issue = block.success ? null : block.error.issues[0];
  const out: Judgement[] = [judged(o, 'PAG-BLOCK-FIELDS', block.success && list.items !== null, 'items and a meta_data.pagination block with every §2.5 field', list.items === null ? 'no items array' : issue ? `pagination.${issue.path.join('.')}: ${issue.message}` : 'all there')];
  if (o.path === '/breaks') out.push(...breakListJudgements(o));
  out.push(...pageSizeJudgements(o, reading), ...sortJudgements(o, list.items, reading), ...roleFilterJudgements(o, list.items, reading));
  if (!block.success || list.items === null) return out;
  const b = block.data;
  const consistency = blockProblems(b, list.items);
  const links = linkProblems(b);
  out.push(...consistency.map((p) => judged(o, p.ruleId, false, p.expected, p.actual)), ...links.map((p) => judged(o, p.ruleId, false, p.expected, p.actual)));
  if (consistency.length === 0) out.push(judged(o, 'PAG-BLOCK-CONSISTENT', true, 'the block agrees with its items', `page ${b.current_page} of ${b.last_page}, ${list.items.length} items`));
  if (links.length === 0) out.push(judged(o, 'PAG-LINKS', true, 'links naming the right pages', `page ${b.current_page} of ${b.last_page}`));
  const page = o.query.get('page');
  if (page === null) out.push(judged(o, 'PAG-PAGE-DEFAULT', b.current_page === 1, 'current_page 1 when no page is given', `current_page ${b.current_page}`));
  else if (/^[1-9][0-9]*$/.test(page)) out.push(judged(o, 'PAG-PAGE-DEFAULT', b.current_page === Number(page), `current_page ${page} for page=${page} (1-based)`, `current_page ${b.current_page}`));
  if (o.query.get('page_size') === null) out.push(judged(o, 'PAG-PAGE-SIZE-DEFAULT', b.per_page === 10, 'per_page 10 when no page_size is given', `per_page ${b.per_page}`));
  return out;
}

/** PAG-PAGE-SIZE-MAX (and a 5xx to an odd size, ERR-NO-SERVER-ERROR): a page_size asked is answered as §8 allows. */
function pageSizeJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const asked = o.query.get('page_size');
  const status = statusOf(o);
  if (asked === null || status === null || status === 401 || status === 403 || status === 429 || !o.responseBody.known) return [];
  const size = /^-?[0-9]+$/.test(asked) ? Number(asked) : asked;
  const problems = pageSizeProblems(size, o.exchange, reading.profile);
  if (problems.length > 0) return problems.map((p) => judged(o, p.rule, false, p.expected, p.actual));
  return [judged(o, 'PAG-PAGE-SIZE-MAX', true, `page_size=${asked} clamped, served within 100 or rejected`, `status ${status}`)];
}

/** BRK-LIST-RESPONSE and each listed break (§2.4, §4.4). */
function breakListJudgements(o: Observed): Judgement[] {
  const top = isJsonObject(o.responseJson) && Array.isArray(o.responseJson.items) && isJsonObject((o.responseJson.meta_data as { pagination?: unknown } | undefined)?.pagination);
  const out = [judged(o, 'BRK-LIST-RESPONSE', top, '{meta_data: {pagination}, items: [...]}', top ? 'so' : JSON.stringify(o.responseJson).slice(0, 80))];
  if (!top) return out;
  const items = (o.responseJson as { items: unknown[] }).items;
  out.push(...items.flatMap((item) => breakRecordJudgements(o, item, 'listed')), ...idsFilterJudgements(o, items));
  return out;
}

/** BRK-IDS-FILTER (§4.4): a GET /breaks with a body naming `ids` lists only those breaks. */
function idsFilterJudgements(o: Observed, items: readonly unknown[]): Judgement[] {
  const ids = o.requestJson === undefined ? null : selectedBreakIds(o.requestJson);
  if (ids === null || ids.length === 0) return [];
  const strays = items.map((item) => (item as { id?: unknown }).id).filter((id) => !ids.some((wanted) => sameMeaning(id, wanted)));
  return [judged(o, 'BRK-IDS-FILTER', strays.length === 0, `only the breaks ${ids.join(', ')}`, strays.length === 0 ? `${items.length} of them` : `also break ${strays.slice(0, 5).join(', ')}`)];
}

/** POST /breaks answered 2xx: the create response (§4.4) and the break in it. */
export function breakCreateJudgements(o: Observed): Judgement[] {
  if (o.operation?.operationId !== 'createBreak' || !isSuccess(statusOf(o)) || !o.responseBody.known) return [];
  const json = o.responseJson;
  const top = isJsonObject(json) && json.items !== undefined && typeof json.message === 'string';
  const out = [judged(o, 'BRK-CREATE-RESPONSE', top, '{items: <the break>, message: "..."}', top ? 'so' : (JSON.stringify(json) ?? 'no JSON').slice(0, 80))];
  if (!top) return out;
  // `items` is the break or a one-element array of it (§4.4 does not say which); its fields are judged one by one.
  return [...out, ...breakRecordJudgements(o, Array.isArray(json.items) ? json.items[0] : json.items, 'created')];
}

/** The record field a sort name orders by: the profile's sort_names read backwards, else the name in snake_case (§4.2 shows firstName). */
function sortField(name: string, names: Readonly<Record<string, string>>): string {
  return Object.entries(names).find(([, spelled]) => spelled === name)?.[0] ?? snakeCase(name);
}

/** SORT-ASCENDING / SORT-DESCENDING / SORT-MULTI (§4.6): a page asked sorted comes in that order (pairs whose order any collation agrees on). */
function sortJudgements(o: Observed, items: readonly unknown[] | null, reading: GradeReading): Judgement[] {
  const sort = o.query.get('sort');
  if (sort === null || items === null || items.length < 2) return [];
  const keys = sort.split(',').filter(Boolean).map((k) => ({ field: sortField(k.replace(/^-/, ''), reading.profile.sort_names), descending: k.startsWith('-') }));
  const rule: RuleId = keys.length > 1 ? 'SORT-MULTI' : keys[0]?.descending ? 'SORT-DESCENDING' : 'SORT-ASCENDING';
  const value = (item: unknown, field: string) => readField(item, field, reading.profile.record_fields);
  if (keys.length === 0 || !items.every((item) => keys.every((k) => value(item, k.field).found))) return [];
  let certain = 0;
  for (let i = 1; i < items.length; i++) {
    for (const key of keys) {
      const order = tolerantOrder(value(items[i - 1], key.field).value, value(items[i], key.field).value);
      if (order === 'tie') continue;
      if (order === 'ambiguous') break;
      certain++;
      if ((order === 'after') !== key.descending) {
        return [judged(o, rule, false, `items in the order sort=${sort} asks`, `item ${i} (${key.field} ${JSON.stringify(value(items[i - 1], key.field).value)}) before item ${i + 1} (${JSON.stringify(value(items[i], key.field).value)})`)];
      }
      break;
    }
  }
  return certain === 0 ? [] : [judged(o, rule, true, `items in the order sort=${sort} asks`, `${items.length} items in order`)];
}

/** USR-LIST-FILTER-ROLE (§4.2): GET /users?role=N lists only users of role N. */
function roleFilterJudgements(o: Observed, items: readonly unknown[] | null, reading: GradeReading): Judgement[] {
  const role = o.query.get('role');
  if (o.path !== '/users' || role === null || !/^[123]$/.test(role) || items === null || items.length === 0) return [];
  const others = items.filter((item) => {
    const found = readField(item, 'role_id', reading.profile.record_fields);
    return found.found && !sameMeaning(found.value, Number(role));
  });
  return [judged(o, 'USR-LIST-FILTER-ROLE', others.length === 0, `only users with role_id ${role}`, others.length === 0 ? `${items.length} users` : `user ${String((others[0] as { id?: unknown }).id)} of another role`)];
}

