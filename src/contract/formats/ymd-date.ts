import { DateTime } from 'luxon';

/** Spec §4.6: `date_range` holds two `Y-m-d` dates (PHP notation: `YYYY-MM-DD`) joined by a comma. */
const YMD_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses a `YYYY-MM-DD` date (UTC midnight), or null when it is not a real calendar date. */
export function parseYmdDate(value: string): DateTime | null {
  const match = YMD_SHAPE.exec(value);
  if (!match) return null;
  const date = DateTime.fromObject(
    { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) },
    { zone: 'UTC' },
  );
  return date.isValid ? date : null;
}

/** True when `value` is a real calendar date written `YYYY-MM-DD`. */
export function isYmdDate(value: string): boolean {
  return parseYmdDate(value) !== null;
}

/** A parsed `date_range`: both ends as `YYYY-MM-DD` strings, inclusive. */
export interface DateRange {
  readonly from: string;
  readonly to: string;
}

/**
 * Parses `date_range` (`YYYY-MM-DD,YYYY-MM-DD`). Returns null when either side is not a date.
 * The order of the two dates is not checked here: the spec does not say a reversed range is invalid.
 */
export function parseDateRange(value: string): DateRange | null {
  const parts = value.split(',');
  if (parts.length !== 2) return null;
  const [from, to] = parts as [string, string];
  if (!isYmdDate(from) || !isYmdDate(to)) return null;
  return { from, to };
}

/** Formats a luxon date as `YYYY-MM-DD`. */
export function formatYmdDate(date: DateTime): string {
  return date.toFormat('yyyy-MM-dd');
}

/** A `YYYY-MM-DD` date moved by `by` calendar days (`2026-02-28`, 1 → `2026-03-01`). */
export function shiftYmdDate(day: string, by: number): string {
  return DateTime.fromISO(day, { zone: 'UTC' }).plus({ days: by }).toFormat('yyyy-MM-dd');
}
