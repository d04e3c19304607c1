import { DateTime } from 'luxon';

/** Spec §2.4: break `created_at`/`updated_at` are `YYYY-MM-DDTHH:MM:SS` without an offset. */
const NAIVE_DATETIME_SHAPE = /^\d{4}-\d{2}-\d{2}T(\d{2}):\d{2}:\d{2}$/;

/** True when `value` is a real datetime written `YYYY-MM-DDTHH:MM:SS`, with no offset. */
export function isNaiveDateTime(value: string): boolean {
  const match = NAIVE_DATETIME_SHAPE.exec(value);
  if (!match) return false;
  // luxon reads hour 24 (`T24:00:00`) as the next midnight; HH runs from 00 to 23.
  if (Number(match[1]) > 23) return false;
  return DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}

/** Formats a luxon datetime as `YYYY-MM-DDTHH:MM:SS` in its own zone, dropping the offset. */
export function formatNaiveDateTime(dateTime: DateTime): string {
  return dateTime.toFormat("yyyy-MM-dd'T'HH:mm:ss");
}
