import { jsonText } from '../contract/json-text.ts';
import { z } from 'zod';
import { paginationBlock, type PaginationBlock } from '../contract/responses.ts';
import type { Exchange } from '../client/exchange.ts';
import { countableList } from './list-need.ts';
import { builtinCheck, type CheckContext } from './context.ts';
import { idOf, itemsOf, pathArg, queryArg, queryOf } from './args.ts';
import { linkForm } from './link-form.ts';
import { blockProblems, linkProblems } from './page-block.ts';
import { requireServedList } from './list-baseline.ts';

const Args = z.strictObject({
  path: pathArg,
  /** Sent as page_size; absent: the default must be 10 (§4.6). */
  page_size: z.number().int().positive().optional(),
  query: queryArg,
  body: z.unknown().optional(),
  max_pages: z.number().int().positive().default(30),
  /**
   * Walk at a page size that divides the list's total exactly (read from a first page at the
   * default size), so the last page is full: where an off-by-one in last_page or the links shows.
   */
  exact_pages: z.boolean().default(false),
});

/**
 * The largest page size from 2 to 100 that divides `total` into two pages or more; null when none
 * does (a total under 4, or a prime above 100's reach).
 */
export function exactPageSize(total: number): number | null {
  for (let size = Math.min(100, Math.floor(total / 2)); size >= 2; size--) if (total % size === 0) return size;
  return null;
}

interface Page {
  readonly exchange: Exchange;
  readonly block: PaginationBlock;
  readonly items: unknown[];
}

/**
 * Fetches one page and checks that it carries a §2.5 block; null (with a finding) when it does not.
 * The first page is the walk's baseline: a 5xx or no answer there, with the plain list not served
 * either, ends the walk errored (`requireServedList`), not failed under PAG-WALK.
 */
async function fetchPage(ctx: CheckContext, request: Parameters<CheckContext['send']>[0], what: string, first = false): Promise<Page | null> {
  const exchange = await ctx.send(request);
  if (first && request.path) await requireServedList(ctx, request.path, exchange, what, 'the walk');
  const response = exchange.response;
  if (!response || response.status < 200 || response.status >= 300) {
    ctx.fail('PAG-WALK', `a 2xx answer for ${what}`, response ? `status ${response.status}` : `no response: ${exchange.error?.code}`);
    return null;
  }
  const items = itemsOf(response.json, ctx.profile, exchange.request.url);
  const parsed = paginationBlock.safeParse((response.json as { meta_data?: { pagination?: unknown } } | undefined)?.meta_data?.pagination);
  if (!items || !parsed.success) {
    const issue = parsed.success ? null : parsed.error.issues[0];
    ctx.fail('PAG-BLOCK-FIELDS', 'items and a meta_data.pagination block with every §2.5 field', items ? `pagination.${issue?.path.join('.') || ''}: ${issue?.message}` : 'no items array');
    return null;
  }
  return { exchange, block: parsed.data, items };
}

/** Whether `link` asks for exactly what the walk's own request (`firstUrl`) asks with page=N: the same path and the same query. */
function sameAsPageQuery(link: URL, firstUrl: string, page: number): boolean {
  const own = new URL(firstUrl);
  own.searchParams.set('page', String(page));
  const query = (url: URL) => [...url.searchParams].map(([key, value]) => `${key}=${value}`).sort().join('&');
  return link.pathname === own.pathname && query(link) === query(own);
}

/** PAG-BLOCK-CONSISTENT: the block agrees with itself and the page it came with. */
function checkBlock(ctx: CheckContext, page: Page): void {
  for (const problem of blockProblems(page.block, page.items)) ctx.fail(problem.ruleId, problem.expected, problem.actual, [page.exchange]);
}

/** PAG-LINKS: next/prev are null exactly at the ends, and every link that names a page names the right one. */
function checkLinks(ctx: CheckContext, page: Page): void {
  for (const problem of linkProblems(page.block)) ctx.fail(problem.ruleId, problem.expected, problem.actual, [page.exchange]);
}

/**
 * PAG-LINKS, when the profile declares the link form (`page_links`): `keep-query` links repeat the
 * request's other query parameters (`page_size=7&page=2`), `page-only` links carry `page` alone.
 * §2.5 allows both; a profile that declares one holds the target to it.
 */
function checkLinkForm(ctx: CheckContext, page: Page, query: Readonly<Record<string, string | number>>): void {
  const form = ctx.profile.page_links;
  if (form === 'either') return;
  const { block } = page;
  const links: Array<[string, string | null]> = [
    ['first_page_url', block.first_page_url],
    ['last_page_url', block.last_page_url],
    ['next_page_url', block.next_page_url],
    ['prev_page_url', block.prev_page_url],
  ];
  for (const [name, url] of links) {
    const found = url === null ? null : linkForm(url, query);
    if (found === null) continue; // none, or not an absolute URL: the walk reports that when it follows the link
    if (form === 'keep-query' && found.missing.length > 0) {
      return ctx.fail('PAG-LINKS', `${name} repeating the request's ${found.missing.join('&')} (profile: page_links keep-query)`, `${name} ${url}`, [page.exchange]);
    }
    if (form === 'page-only' && !found.pageOnly) {
      return ctx.fail('PAG-LINKS', `${name} with page alone (profile: page_links page-only)`, `${name} ${url}`, [page.exchange]);
    }
  }
}

/**
 * The page size an `exact_pages` walk asks for, from the total a first page at the default size
 * gives (its block judged too). A total no size from 2 divides into two pages (a prime) is judged
 * without a walk (`judged`): up to 100 asked for whole, on one page of exactly that size; above,
 * at page_size 1, its first and its last page (each page is full at that size).
 */
async function exactSizeFor(ctx: CheckContext, args: z.output<typeof Args>): Promise<number | 'judged'> {
  const request = (query: Record<string, string | number>) => ({ method: 'GET' as const, path: args.path, query, json: args.body });
  const page = await fetchPage(ctx, request(queryOf(args.query)), `GET ${args.path}`, true);
  if (!page) return ctx.precondition(`GET ${args.path} gave no total to divide into pages`);
  checkBlock(ctx, page);
  const { total } = page.block;
  const size = exactPageSize(total);
  if (size !== null) {
    ctx.note(`walked at page_size ${size}, which divides the total of ${total} into ${total / size} full pages`);
    return size;
  }
  if (total < 1) return ctx.precondition(`GET ${args.path} listed no items: a page size that divides the total needs items`);
  const pages: Record<string, number>[] = total <= 100 ? [{ page_size: total }] : [{ page_size: 1 }, { page_size: 1, page: total }];
  for (const query of pages) {
    const judged = await fetchPage(ctx, request({ ...queryOf(args.query), ...query }), `GET ${args.path} with ${Object.entries(query).map(([k, v]) => `${k}=${v}`).join('&')}`);
    if (judged) {
      checkBlock(ctx, judged);
      checkLinks(ctx, judged);
    }
  }
  ctx.note(`${total} items, which no page size from 2 to 100 divides into two pages: ${total <= 100 ? `asked for on one page of page_size ${total}, which must be the last` : `the first and the last of ${total} pages of page_size 1`}`);
  return 'judged';
}

/**
 * Walks a collection from its first page (§2.5, §4.6): every block is complete and consistent, the
 * links name and lead to the right pages, the first page is page 1 with the default page_size of
 * 10 when none is sent, and the walk yields `total` items, each exactly once.
 *
 * Without page_size the walk follows `next_page_url`. With page_size it asks for page=N itself,
 * because a link need not repeat the other query parameters (URLs with or without query strings
 * are both valid); it still follows the first next link once, which must lead to page 2.
 */
export const paginationWalk = builtinCheck(Args, async (ctx, args) => {
  if (args.exact_pages) {
    const size = await exactSizeFor(ctx, args);
    if (size === 'judged') return;
    args = { ...args, page_size: size };
  }
  const query = { ...queryOf(args.query), ...(args.page_size ? { page_size: args.page_size } : {}) };
  const first = await fetchPage(ctx, { method: 'GET', path: args.path, query, json: args.body }, `GET ${args.path}`, true);
  if (!first) return;
  if (first.block.current_page !== 1) ctx.fail('PAG-PAGE-DEFAULT', 'current_page 1 when no page is given', `current_page ${first.block.current_page}`, [first.exchange]);
  const wantPerPage = args.page_size !== undefined ? Math.min(args.page_size, 100) : 10;
  if (first.block.per_page !== wantPerPage) {
    ctx.fail(args.page_size === undefined ? 'PAG-PAGE-SIZE-DEFAULT' : 'PAG-BLOCK-CONSISTENT', `per_page ${wantPerPage}${args.page_size === undefined ? ' (the default)' : ''}`, `per_page ${first.block.per_page}`, [first.exchange]);
  }
  const seen = new Map<string, number>();
  const total = first.block.total;
  let page: Page = first;
  let walked = 0;
  for (;;) {
    checkBlock(ctx, page);
    checkLinks(ctx, page);
    checkLinkForm(ctx, page, query);
    walked++;
    page.items.forEach((item, index) => {
      const key = idOf(item) ?? jsonText(item);
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        ctx.fail('PAG-WALK', 'every item on exactly one page', `item ${key} on page ${earlier} and again on page ${page.block.current_page} (position ${index + 1})`, [page.exchange]);
      } else seen.set(key, page.block.current_page);
    });
    const next = page.block.next_page_url;
    if (next === null || page.block.current_page >= page.block.last_page) break;
    if (walked >= args.max_pages) return; // a long collection: the walk stops, the totals are not judged
    const wantPage = page.block.current_page + 1;
    const followLink = args.page_size === undefined || walked === 1;
    if (followLink) {
      let url: URL;
      try {
        url = new URL(next);
      } catch {
        return ctx.fail('PAG-LINKS', 'next_page_url an absolute URL', jsonText(next), [page.exchange]);
      }
      if (url.origin !== new URL(ctx.origin).origin) return ctx.fail('PAG-LINKS', `next_page_url on ${ctx.origin}`, next, [page.exchange]);
      const linked = await fetchPage(ctx, { method: 'GET', url: next, json: args.body }, `next_page_url ${next}`);
      if (!linked) return;
      if (linked.block.current_page !== wantPage) {
        return ctx.fail('PAG-LINKS', `next_page_url of page ${page.block.current_page} leads to page ${wantPage}`, `it leads to page ${linked.block.current_page}`, [page.exchange, linked.exchange]);
      }
      // Without a page_size the walk follows the links; with one, it asks page=N itself after the
      // first link, unless that link was already exactly that request (its answer is then that page's).
      if (args.page_size === undefined || sameAsPageQuery(url, first.exchange.request.url, wantPage)) {
        page = linked;
        continue;
      }
    }
    const following = await fetchPage(ctx, { method: 'GET', path: args.path, query: { ...query, page: wantPage }, json: args.body }, `page ${wantPage}`);
    if (!following) return;
    if (following.block.current_page !== wantPage) {
      return ctx.fail('PAG-BLOCK-CONSISTENT', `current_page ${wantPage} for page=${wantPage}`, `current_page ${following.block.current_page}`, [following.exchange]);
    }
    page = following;
  }
  if (walked === 1) {
    // One page: no link was followed and no page boundary crossed, so the walk showed nothing of
    // PAG-WALK or PAG-LINKS (the block checks above still count as findings).
    ctx.precondition(`GET ${args.path}${args.page_size ? ` with page_size=${args.page_size}` : ''} holds ${total} item${total === 1 ? '' : 's'} on one page: the walk needs at least two pages`);
  }
  if (seen.size !== total) {
    ctx.fail('PAG-WALK', `${total} distinct items over ${walked} pages (total)`, `${seen.size} distinct items`, [first.exchange, page.exchange]);
  }
}, (args) => {
  // A walk judges nothing on one page: the list must hold more than a page of the size it asks for.
  const list = countableList(args.path, args.query);
  const pageSize = typeof args.page_size === 'number' ? args.page_size : undefined;
  // A walk at a size that divides the total exactly needs a few items to divide (it picks the size itself).
  if (args.exact_pages === true) return list ? [{ list, items: 4 }] : [];
  return list ? [{ list, items: (pageSize ?? 10) + 1, ...(pageSize === undefined ? {} : { pageSize }) }] : [];
});
