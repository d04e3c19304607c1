import fc from 'fast-check';
import { calendarDay, nonLeapYears } from './_internals/calendar-day.ts';
import type { LabelledValue } from './_internals/labelled-value.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const year = fc.integer({ min: 1990, max: 2040 });
const day = calendarDay({ minYear: 1990, maxYear: 2040 });

/**
 * A string that is not a `MM/DD/YYYY` date (spec §2.1), labelled with why: a day the month does not
 * have (02/30, 02/29 of a non-leap year, 04/31), month 13 or 00, day 00 or 32, DD/MM order with a
 * day above 12, ISO `YYYY-MM-DD`, missing zero padding (2/9/2024), a two-digit year.
 * Each is rejected by every reading of the spec: none is a date a lenient-but-conforming server may take.
 */
export function invalidUsDate(): fc.Arbitrary<LabelledValue> {
  return fc.oneof(
    fc.tuple(fc.constantFrom(30, 31), year).map(([d, y]) => ({ value: `02/${d}/${y}`, label: `February ${d === 31 ? '31st' : '30th'}` })),
    fc.constantFrom(...nonLeapYears(1890, 2110)).map((y) => ({ value: `02/29/${y}`, label: `February 29th of ${y}, not a leap year` })),
    fc.tuple(fc.constantFrom(4, 6, 9, 11), year).map(([m, y]) => ({ value: `${pad(m)}/31/${y}`, label: `day 31 of a 30-day month` })),
    fc.tuple(fc.constantFrom(13, 14, 19, 20, 31, 99), fc.integer({ min: 1, max: 28 }), year).map(([m, d, y]) => ({ value: `${m}/${pad(d)}/${y}`, label: `month ${m}` })),
    fc.tuple(fc.integer({ min: 1, max: 28 }), year).map(([d, y]) => ({ value: `00/${pad(d)}/${y}`, label: 'month 00' })),
    fc.tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 32), year).map(([m, d, y]) => ({ value: `${pad(m)}/${pad(d)}/${y}`, label: `day ${pad(d)}` })),
    day.filter((d) => d.day > 12).map((d) => ({ value: d.toFormat('dd/MM/yyyy'), label: 'DD/MM/YYYY order (day above 12 in the month place)' })),
    day.map((d) => ({ value: d.toFormat('yyyy-MM-dd'), label: 'ISO YYYY-MM-DD instead of MM/DD/YYYY' })),
    day
      .filter((d) => d.month < 10 || d.day < 10)
      .map((d) => ({ value: d.toFormat('M/d/yyyy'), label: 'without zero padding (M/D/YYYY)' })),
    day.map((d) => ({ value: d.toFormat('MM/dd/yy'), label: 'two-digit year (MM/DD/YY)' })),
  );
}

