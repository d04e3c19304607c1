import { DateTime } from 'luxon';

/**
 * Spec §2.3, §2.4: `YYYY-MM-DDTHH:MM:SS±HH:MM`, ISO 8601 with a numeric offset.
 * No fractional seconds, no `Z`, the offset written with a colon.
 */
const OFFSET_DATETIME_SHAPE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/** A datetime with offset, parsed: the instant, and the offset it was written with. */
export interface OffsetDateTime {
  /** The instant, in the offset it was written with. */
  readonly dateTime: DateTime;
  /** The written offset in minutes east of UTC (e.g. -300 for `-05:00`). */
  readonly offsetMinutes: number;
}

/** Parses `YYYY-MM-DDTHH:MM:SS±HH:MM`, or returns null when the text is not exactly that form. */
export function parseOffsetDateTime(value: string): OffsetDateTime | null {
  const match = OFFSET_DATETIME_SHAPE.exec(value);
  if (!match) return null;
  const [, , , , hour, minute, second, sign, offsetHours, offsetMins] = match;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return null;
  if (Number(offsetHours) > 23 || Number(offsetMins) > 59) return null;
  const dateTime = DateTime.fromISO(value, { setZone: true });
  if (!dateTime.isValid) return null;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMins));
  return { dateTime, offsetMinutes };
}

/** True when `value` is an ISO 8601 datetime with offset in the spec's exact form. */
export function isOffsetDateTime(value: string): boolean {
  return parseOffsetDateTime(value) !== null;
}

/** Formats an instant as `YYYY-MM-DDTHH:MM:SS±HH:MM` in the given luxon date's own zone. */
export function formatOffsetDateTime(dateTime: DateTime): string {
  return dateTime.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}
