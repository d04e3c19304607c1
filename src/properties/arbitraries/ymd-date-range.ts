import fc from 'fast-check';
import { formatYmdDate } from '../../contract/formats/index.ts';
import { calendarDay, type CalendarDayConstraints } from './_internals/calendar-day.ts';

/**
 * A valid `date_range` (spec §4.6): two `YYYY-MM-DD` dates joined by a comma, the earlier first
 * (both may be the same day); days biased toward leap days and month ends.
 */
export function ymdDateRange(constraints: CalendarDayConstraints = { minYear: 2015, maxYear: 2030 }): fc.Arbitrary<string> {
  const day = calendarDay(constraints);
  return fc.tuple(day, day).map(([a, b]) => (a <= b ? [a, b] : [b, a]).map(formatYmdDate).join(','));
}
