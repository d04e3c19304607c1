import { z } from 'zod';
import { builtinCheck } from './context.ts';
import { requireServedList } from './list-baseline.ts';
import type { Exchange } from '../client/exchange.ts';
import { idList, idOf, itemsOf, pathArg, queryArg, queryOf, ruleArg } from './args.ts';

const Args = z.strictObject({
  path: pathArg,
  query: queryArg,
  /** A JSON body to send with every GET (GET /breaks takes `ids`). */
  body: z.unknown().optional(),
  include: idList,
  exclude: idList,
  page_size: z.number().int().positive().default(100),
  max_pages: z.number().int().positive().default(10),
  rule: ruleArg.optional(),
});

/** ` with active=1&role=3`, for a reason. */
function describeQuery(query: Readonly<Record<string, unknown>>): string {
  const parts = Object.entries(query).map(([k, v]) => `${k}=${String(v)}`);
  return parts.length > 0 ? ` with ${parts.join('&')}` : '';
}

/**
 * Filters, search, `ids` and `date_range` (§4.4, §4.6): walks the list (page=1,2,… with page_size)
 * and checks that every `include` ID appears and no `exclude` ID does (items compared by `id`).
 */
export const listMembership = builtinCheck(Args, async (ctx, args) => {
  const rule = args.rule ?? ctx.defaultRule;
  const seen = new Map<string, Exchange>();
  const shown: Exchange[] = [];
  let complete = false;
  for (let page = 1; page <= args.max_pages; page++) {
    // The first page is asked for without `page` (its default is PAG-PAGE-DEFAULT's business, not this check's).
    const query = { ...queryOf(args.query), ...(page > 1 ? { page } : {}), page_size: args.page_size };
    const exchange = await ctx.send({ method: 'GET', path: args.path, query, json: args.body });
    shown.push(exchange);
    if (page === 1) await requireServedList(ctx, args.path, exchange, `GET ${args.path}${describeQuery(args.query)}`, 'membership');
    const response = exchange.response;
    if (!response || response.status < 200 || response.status >= 300) {
      ctx.fail(rule, `a 2xx list for ${args.path}`, response ? `status ${response.status}` : `no response: ${exchange.error?.code}`);
      return;
    }
    const items = itemsOf(response.json, ctx.profile, args.path);
    if (!items) return ctx.fail(rule, 'a list response with items', 'no items array');
    for (const item of items) {
      const id = idOf(item);
      if (id !== null && !seen.has(id)) seen.set(id, exchange);
    }
    const lastPage = (response.json as { meta_data?: { pagination?: { last_page?: unknown } } }).meta_data?.pagination?.last_page;
    if (items.length < args.page_size || (typeof lastPage === 'number' && page >= lastPage)) {
      complete = true;
      break;
    }
  }
  if (seen.size === 0 && args.include.length === 0) {
    // Nothing listed and nothing required: "not listed" holds of every ID, and shows nothing.
    ctx.precondition(`GET ${args.path}${describeQuery(args.query)} listed no items: membership needs a list with items (or an ID to include)`);
  }
  const missing = args.include.map(String).filter((id) => !seen.has(id));
  if (missing.length > 0 && complete) ctx.fail(rule, `IDs ${args.include.join(', ')} in the list`, `missing ${missing.join(', ')} (${seen.size} items listed)`, shown);
  const present = args.exclude.map(String).filter((id) => seen.has(id));
  if (present.length > 0) ctx.fail(rule, `IDs ${args.exclude.join(', ')} not in the list`, `listed: ${present.join(', ')}`, present.map((id) => seen.get(id)!));
  else if (missing.length > 0 && !complete) ctx.skip(`the list is longer than ${args.max_pages} pages of ${args.page_size}; ${missing.join(', ')} not reached`);
});
