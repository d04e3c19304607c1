import fc from 'fast-check';
import { nonLeapYears } from './calendar-day.ts';
import type { LabelledValue } from './labelled-value.ts';

/**
 * The valid `YYYY-MM-DDTHH:MM:SS±HH:MM` `value` broken one way no conforming server may accept:
 * its offset dropped (naive local time), its offset's colon dropped, its day made February 29th of
 * a non-leap year, its hour made 25.
 */
export function brokenOffsetDateTime(value: string): fc.Arbitrary<LabelledValue> {
  const local = value.slice(0, 19);
  const offset = value.slice(19);
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant({ value: local, label: 'no offset (naive local time)' }) },
    { weight: 2, arbitrary: fc.constant({ value: `${local}${offset.replace(':', '')}`, label: 'offset without its colon (±HHMM)' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...nonLeapYears(2015, 2030)).map((year) => ({ value: `${year}-02-29${value.slice(10)}`, label: `February 29th of ${year}, not a leap year` })),
    },
    { weight: 1, arbitrary: fc.constant({ value: `${value.slice(0, 11)}25${value.slice(13)}`, label: 'hour 25' }) },
  );
}
