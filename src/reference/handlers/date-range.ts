import type { ListDateRange } from '../list-query.ts';

/**
 * §4.6 `date_range`: "items between the two dates". The reference takes the local calendar date of
 * the item's start as written (its first 10 characters) and includes both ends.
 */
export function withinDateRange(start: string, range: ListDateRange): boolean {
  const day = start.slice(0, 10);
  return day >= range.from && (range.lastDayLeftOut ? day < range.to : day <= range.to);
}
