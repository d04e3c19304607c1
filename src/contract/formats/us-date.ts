import { DateTime } from 'luxon';

/** Spec §2.1: schedule dates are `MM/DD/YYYY` (zero-padded, a real calendar date). */
const US_DATE_SHAPE = /^(\d{2})\/(\d{2})\/(\d{4})$/;

/** Parses a `MM/DD/YYYY` date into a luxon date (UTC midnight), or null when it is not one. */
export function parseUsDate(value: string): DateTime | null {
  const match = US_DATE_SHAPE.exec(value);
  if (!match) return null;
  const [, month, day, year] = match;
  const date = DateTime.fromObject(
    { year: Number(year), month: Number(month), day: Number(day) },
    { zone: 'UTC' },
  );
  return date.isValid ? date : null;
}

/** True when `value` is a real calendar date written `MM/DD/YYYY` (leap years included). */
export function isUsDate(value: string): boolean {
  return parseUsDate(value) !== null;
}

/** Formats a luxon date as `MM/DD/YYYY`. */
export function formatUsDate(date: DateTime): string {
  return date.toFormat('MM/dd/yyyy');
}
