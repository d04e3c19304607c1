import { z } from 'zod';
import { naiveDateTime, offsetDateTime } from './primitives.ts';

/** An ID in a response: an integer, read exactly where it is beyond 2^53 (a BigInt, json-text.ts). */
const responseId = z.union([z.number().int(), z.bigint()]);

/**
 * zod schemas of the response fragments the spec shows (§2.4, §2.5, §4.4). Records are loose:
 * a server may return more fields than the spec shows. Everything the spec leaves "not shown"
 * (schedule, user and timesheet records, error bodies) has no schema here.
 */

/** §2.4: a break as returned by GET /breaks. */
export const breakListed = z.looseObject({
  id: responseId,
  start: offsetDateTime,
  end: offsetDateTime,
  break_rule_id: responseId,
  duration_in_seconds: z.number().int(),
  created_at: naiveDateTime,
  updated_at: naiveDateTime,
});
export type BreakListed = z.infer<typeof breakListed>;

/** §2.4: a break as returned by POST /breaks: `duration` instead of `duration_in_seconds`, plus `timesheet_id`. */
export const breakCreated = z.looseObject({
  id: responseId,
  timesheet_id: responseId,
  start: offsetDateTime,
  end: offsetDateTime,
  break_rule_id: responseId,
  duration: z.number().int(),
  created_at: naiveDateTime,
  updated_at: naiveDateTime,
});
export type BreakCreated = z.infer<typeof breakCreated>;

/**
 * §4.4: the create response `{items, message}`. "items (one break)": the spec does not say whether
 * that is the object or a one-element array, so both are accepted.
 */
export function createResponse<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z.union([item, z.tuple([item])]),
    message: z.string(),
  });
}

/** The single created record of a `{items, message}` response, whichever form `items` took. */
export function createdItem<T>(items: T | [T]): T {
  return Array.isArray(items) ? (items[0] as T) : items;
}

/** A URL as a pagination field; next/prev are null (or absent in value) at the ends, as Laravel does. */
const pageUrl = z.string().min(1);

/** §2.5: `meta_data.pagination`. `from`/`to` are null on an empty page; next/prev URLs null at the ends. */
export const paginationBlock = z.looseObject({
  current_page: z.number().int(),
  first_page_url: pageUrl,
  from: z.number().int().nullable(),
  last_page: z.number().int(),
  last_page_url: pageUrl,
  next_page_url: pageUrl.nullable(),
  path: pageUrl,
  per_page: z.number().int(),
  prev_page_url: pageUrl.nullable(),
  to: z.number().int().nullable(),
  total: z.number().int(),
  options: z.boolean(),
});
export type PaginationBlock = z.infer<typeof paginationBlock>;

/** §4.4, §2.5: a list response `{meta_data: {pagination}, items}`. */
export function listResponse<T extends z.ZodType>(item: T) {
  return z.looseObject({
    meta_data: z.looseObject({ pagination: paginationBlock }),
    items: z.array(item),
  });
}

export const breakListResponse = listResponse(breakListed);
export const breakCreateResponse = createResponse(breakCreated);
