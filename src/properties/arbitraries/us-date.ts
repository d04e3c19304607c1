import fc from 'fast-check';
import { formatUsDate } from '../../contract/formats/index.ts';
import { calendarDay } from './_internals/calendar-day.ts';

export interface UsDateConstraints {
  /** Default 1896: the range includes 1900 and 2100 (not leap years) and 2000 (one). */
  readonly minYear?: number;
  /** Default 2104. */
  readonly maxYear?: number;
}

/**
 * A valid `MM/DD/YYYY` date (spec §2.1): a real calendar day, biased toward February 29th of leap
 * years and the last day of each month.
 */
export function usDate(constraints: UsDateConstraints = {}): fc.Arbitrary<string> {
  return calendarDay({ minYear: constraints.minYear ?? 1896, maxYear: constraints.maxYear ?? 2104 }).map(formatUsDate);
}
