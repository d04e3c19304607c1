/** The lists whose items a run can count and, through the API, create. */
export const COUNTABLE_LISTS = ['/users', '/timesheets', '/breaks'] as const;
export type CountableList = (typeof COUNTABLE_LISTS)[number];

/**
 * What a built-in check needs of the target's data to judge at all: a list that holds at least
 * `items` items (a walk needs two pages, an order two items). Declared from the check's arguments
 * before the run (src/needs/needs.ts); the run counts the list after its preflight and meets the
 * need the cheapest sound way: a smaller `page_size` that makes two pages of what exists, else
 * items created through the API, else the check is skipped with the need named.
 */
export interface ListNeed {
  readonly list: CountableList;
  readonly items: number;
  /** The page size the check asks for, when a smaller one serves as well (two pages of fewer items). */
  readonly pageSize?: number;
}

/** Whether a check's list argument is one the run can count (a plain path, no filter that narrows it). */
export function countableList(path: unknown, query: unknown): CountableList | null {
  const narrowed = query !== undefined && query !== null && typeof query === 'object' && Object.keys(query).length > 0;
  return !narrowed && COUNTABLE_LISTS.includes(path as CountableList) ? (path as CountableList) : null;
}
