import { DateTime } from 'luxon';

/** Spec §2.4: break `created_at`/`updated_at` are `YYYY-MM-DDTHH:MM:SS` without an offset. */
const NAIVE_DATETIME_SHAPE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** True when `value` is a real datetime written `YYYY-MM-DDTHH:MM:SS`, with no offset. */
export function isNaiveDateTime(value: string): boolean {
  if (!NAIVE_DATETIME_SHAPE.test(value)) return false;
  return DateTime.fromISO(value, { zone: 'UTC' }).isValid;
}

/** Formats a luxon datetime as `YYYY-MM-DDTHH:MM:SS` in its own zone, dropping the offset. */
export function formatNaiveDateTime(dateTime: DateTime): string {
  return dateTime.toFormat("yyyy-MM-dd'T'HH:mm:ss");
}
