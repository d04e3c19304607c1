import type { ServerContext } from './context.ts';
import type { ListQuery } from './list-query.ts';
import type { ApiRequest } from './http/router.ts';

/**
 * One page of a collection with the §2.5 pagination block. Links keep the request's other query
 * parameters and set `page`. An empty page (past the end) has from/to null, as Laravel's paginator does.
 * `present` turns a stored record into its response form; it runs on the page's items only.
 * `total` is the number of items overall (§2.5), as the company's scope counted it (company-scope.ts `listed`).
 */
export function paginate<T, R>(
  items: readonly T[],
  list: ListQuery,
  request: ApiRequest,
  ctx: ServerContext,
  present: (item: T) => R,
  total: number = items.length,
) {
  const perPage = list.pageSize;
  // Under `last-page-extra-when-exact`: floor + 1, one too many (an empty page) when the pages divide the total exactly.
  const lastPage = ctx.fault('last-page-extra-when-exact') ? Math.floor(total / perPage) + 1 : Math.max(1, Math.ceil(total / perPage));
  const index = ctx.fault('page-zero-based') ? list.page : list.page - 1;
  const offset = Math.max(0, index * perPage - (ctx.fault('pages-overlap') && index > 0 ? 1 : 0));
  const pageItems = items.slice(offset, offset + perPage).map(present);
  const from = pageItems.length > 0 ? offset + 1 : null;
  const to = from === null ? null : from + pageItems.length - 1;

  const base = `${request.origin}${request.path}`;
  const pageUrl = (page: number) => {
    const query = ctx.dialect.linksKeepQuery ? new URLSearchParams(request.query) : new URLSearchParams();
    query.set('page', String(page));
    return `${base}?${query.toString()}`;
  };
  const current = list.page;
  const next = current < lastPage ? pageUrl(ctx.fault('next-page-url-stuck') ? current : current + 1) : null;
  const pagination: Record<string, unknown> = {
    current_page: current,
    first_page_url: pageUrl(1),
    from,
    last_page: lastPage,
    last_page_url: pageUrl(lastPage),
    next_page_url: next,
    path: base,
    per_page: perPage,
    prev_page_url: current > 1 ? pageUrl(current - 1) : null,
    to,
    total: ctx.fault('pagination-total-of-page') ? pageItems.length : total,
    options: false,
  };
  if (ctx.fault('pagination-field-missing')) delete pagination.last_page_url;
  return { meta_data: { pagination }, items: pageItems };
}
