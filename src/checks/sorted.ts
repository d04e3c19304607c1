import { jsonText } from '../contract/json-text.ts';
import { z } from 'zod';
import type { RuleId } from '../contract/rules.ts';
import { countableList } from './list-need.ts';
import { builtinCheck } from './context.ts';
import { requireServedList } from './list-baseline.ts';
import { itemsOf, pathArg, queryArg, queryOf, ruleArg } from './args.ts';
import { camelCase, readField } from '../records/field-name.ts';
import { meaningOrder } from '../records/same-meaning.ts';

const Args = z.strictObject({
  path: pathArg,
  keys: z.array(z.strictObject({ field: z.string(), descending: z.boolean().default(false) })).min(1),
  query: queryArg,
  page_size: z.number().int().positive().default(100),
  /** The items the list must hold for the order to be judged: 10 where an order of numbers shows only across digit counts. */
  min_items: z.number().int().min(2).max(100).default(2),
  rule: ruleArg.optional(),
});

type Order = 'before' | 'after' | 'tie' | 'ambiguous';

/**
 * Compares two record values the way any reasonable collation would: numbers (and numeric strings,
 * as src/records/same-meaning.ts reads them) numerically; strings by code point, case-insensitively
 * and by locale. Only when all three agree is the order certain; when they disagree the pair is
 * `ambiguous` and never counted against the target.
 */
export function tolerantOrder(a: unknown, b: unknown): Order {
  const byMeaning = meaningOrder(a, b);
  if (byMeaning !== null) return byMeaning < 0 ? 'before' : byMeaning > 0 ? 'after' : 'tie';
  if (typeof a !== 'string' || typeof b !== 'string') return 'ambiguous';
  if (a === b) return 'tie';
  const sign = (n: number) => Math.sign(n);
  const orders = [sign(a < b ? -1 : 1), sign(a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0), sign(a.localeCompare(b, 'en'))];
  if (orders.every((o) => o === 0)) return 'tie';
  if (orders.every((o) => o < 0)) return 'before';
  if (orders.every((o) => o > 0)) return 'after';
  return 'ambiguous';
}

/** The sort name the target uses for a record field: the profile's, else camelCase as §4.2 shows (`firstName`). */
export function sortName(field: string, names: Readonly<Record<string, string>>): string {
  return names[field] ?? camelCase(field);
}

/** SORT-ASCENDING / SORT-DESCENDING / SORT-MULTI (§4.6): the items come in the order `sort` asks for. */
export const sorted = builtinCheck(Args, async (ctx, args) => {
  const rule: RuleId = args.rule ?? (args.keys.length > 1 ? 'SORT-MULTI' : args.keys[0]!.descending ? 'SORT-DESCENDING' : 'SORT-ASCENDING');
  const sort = args.keys.map((k) => `${k.descending ? '-' : ''}${sortName(k.field, ctx.profile.sort_names)}`).join(',');
  const exchange = await ctx.send({ method: 'GET', path: args.path, query: { ...queryOf(args.query), sort, page_size: args.page_size } });
  await requireServedList(ctx, args.path, exchange, `GET ${args.path} with sort=${sort}`, 'the sort order');
  const response = exchange.response;
  if (response && response.status >= 400 && response.status < 500 && response.status !== 429) {
    // The target refused the names: the spelling is the profile's business (the spec shows firstName, roleId).
    ctx.fail('SORT-FIELD-NAMES', `sort=${sort} accepted (set sort_names in the profile if the target spells them otherwise)`, `status ${response.status}`);
    return;
  }
  if (!response || response.status < 200 || response.status >= 300) {
    ctx.fail(rule, `a 2xx list sorted by ${sort}`, response ? `status ${response.status}` : `no response: ${exchange.error?.code}`);
    return;
  }
  const items = itemsOf(response.json, ctx.profile, exchange.request.url);
  if (!items) return ctx.fail(rule, 'a list response with items', 'no items array');
  if (items.length < args.min_items) {
    return ctx.precondition(`GET ${args.path} with sort=${sort} listed ${items.length} item${items.length === 1 ? '' : 's'}: an order needs at least ${args.min_items} items to compare`);
  }
  const fields = ctx.profile.record_fields;
  const value = (record: unknown, field: string) => readField(record, field, fields).value;
  for (const key of args.keys) {
    if (!items.every((r) => readField(r, key.field, fields).found)) {
      return ctx.skip(`the items do not carry ${key.field} (the spec does not show the records); the order cannot be judged`);
    }
  }
  for (let i = 1; i < items.length; i++) {
    const [x, y] = [items[i - 1], items[i]];
    for (const key of args.keys) {
      let order = tolerantOrder(value(x, key.field), value(y, key.field));
      if (key.descending) order = order === 'before' ? 'after' : order === 'after' ? 'before' : order;
      if (order === 'tie') continue;
      if (order === 'after') {
        const show = (r: unknown) => args.keys.map((k) => `${k.field}=${jsonText(value(r, k.field))}`).join(' ');
        ctx.fail(rule, `items in the order sort=${sort}`, `item ${i} (${show(x)}) before item ${i + 1} (${show(y)})`);
        return;
      }
      break; // 'before' or 'ambiguous': this pair is fine
    }
  }
}, (args) => {
  // An order needs two items to compare; a list narrowed by a search or filter is the scenario's own.
  const list = countableList(args.path, args.query);
  const items = typeof args.min_items === 'number' ? args.min_items : 2;
  return list ? [{ list, items }] : [];
});
