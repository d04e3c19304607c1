import fc from 'fast-check';
import { DateTime } from 'luxon';

export interface CalendarDayConstraints {
  readonly minYear: number;
  readonly maxYear: number;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Leap years of a range (2000 is one, 1900 and 2100 are not). */
export function leapYears(minYear: number, maxYear: number): number[] {
  const years: number[] = [];
  for (let y = minYear; y <= maxYear; y++) if (isLeap(y)) years.push(y);
  return years;
}

/** Years of a range that are not leap years, century years first. */
export function nonLeapYears(minYear: number, maxYear: number): number[] {
  const years: number[] = [];
  for (let y = minYear; y <= maxYear; y++) if (!isLeap(y)) years.push(y);
  return years.sort((a, b) => (b % 100 === 0 ? 1 : 0) - (a % 100 === 0 ? 1 : 0));
}

/**
 * A real calendar day (UTC midnight), biased toward the days date handling gets wrong: about a
 * quarter are February 29th of a leap year and another quarter the last day of a month.
 */
export function calendarDay({ minYear, maxYear }: CalendarDayConstraints): fc.Arbitrary<DateTime> {
  const year = fc.integer({ min: minYear, max: maxYear });
  const month = fc.integer({ min: 1, max: 12 });
  const anyDay = fc
    .tuple(year, month, fc.integer({ min: 1, max: 31 }))
    .map(([y, m, d]) => DateTime.utc(y, m, Math.min(d, DateTime.utc(y, m, 1).daysInMonth as number)));
  const monthEnd = fc.tuple(year, month).map(([y, m]) => DateTime.utc(y, m, 1).endOf('month').startOf('day'));
  const leaps = leapYears(minYear, maxYear);
  const arbitraries = [
    { weight: 2, arbitrary: anyDay },
    { weight: 1, arbitrary: monthEnd },
    ...(leaps.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...leaps).map((y) => DateTime.utc(y, 2, 29)) }] : []),
  ];
  return fc.oneof(...arbitraries);
}
