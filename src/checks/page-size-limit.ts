import { z } from 'zod';
import type { BuiltinCheck } from './context.ts';
import { itemsOf, parseArgs, pathArg } from './args.ts';

const Args = z.strictObject({ path: pathArg, sizes: z.array(z.union([z.number().int(), z.string()])).default([101, 1000]) });

/**
 * PAG-PAGE-SIZE-MAX (§4.6, §8): a page_size above 100 is clamped or rejected, never served.
 * A rejection is a 4xx other than 429; a clamp serves at most 100 items with `per_page` ≤ 100.
 * The profile's `page_size_over_max` may insist on one of the two. Sizes the spec leaves open
 * (0, negative, not a number) may be rejected or served, but never with a 5xx (ERR-NO-SERVER-ERROR)
 * nor with more than 100 items.
 */
export const pageSizeLimit: BuiltinCheck = async (ctx, raw) => {
  const args = parseArgs('page-size-limit', Args, raw);
  const policy = ctx.profile.page_size_over_max;
  for (const size of args.sizes) {
    const overMax = typeof size === 'number' && size > 100;
    const exchange = await ctx.send({ method: 'GET', path: args.path, query: { page_size: size } });
    const response = exchange.response;
    if (!response) {
      ctx.fail('PAG-PAGE-SIZE-MAX', `page_size=${size} clamped or rejected`, `no response: ${exchange.error?.code}`);
      continue;
    }
    const rejected = response.status >= 400 && response.status < 500 && response.status !== 429;
    if (rejected) {
      if (policy === 'clamp' && overMax) ctx.fail('PAG-PAGE-SIZE-MAX', `page_size=${size} clamped to 100 (profile)`, `status ${response.status}`);
      continue;
    }
    if (response.status < 200 || response.status >= 300) {
      ctx.fail(overMax ? 'PAG-PAGE-SIZE-MAX' : 'ERR-NO-SERVER-ERROR', `page_size=${size} ${overMax ? 'clamped' : 'served'} (2xx) or rejected (4xx)`, `status ${response.status}`);
      continue;
    }
    if (policy === 'reject' && overMax) ctx.fail('PAG-PAGE-SIZE-MAX', `page_size=${size} rejected (profile)`, `status ${response.status}`);
    const items = itemsOf(response.json);
    const perPage = (response.json as { meta_data?: { pagination?: { per_page?: unknown } } })?.meta_data?.pagination?.per_page;
    if (items && items.length > 100) ctx.fail('PAG-PAGE-SIZE-MAX', `at most 100 items for page_size=${size}`, `${items.length} items`);
    if (typeof perPage === 'number' && perPage > 100) ctx.fail('PAG-PAGE-SIZE-MAX', `per_page at most 100 for page_size=${size}`, `per_page ${perPage}`);
  }
};
