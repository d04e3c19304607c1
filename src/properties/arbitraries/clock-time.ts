import fc from 'fast-check';
import { formatClockMinutes } from './_internals/clock-minutes.ts';

/** A valid 24-hour `HH:mm` time from 00:00 to 23:59 (spec §2.1), biased toward 00:00, 12:00 and 23:59. */
export function clockTime(): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.integer({ min: 0, max: 24 * 60 - 1 }) },
      { weight: 1, arbitrary: fc.constantFrom(0, 59, 12 * 60, 13 * 60, 23 * 60, 24 * 60 - 1) },
    )
    .map(formatClockMinutes);
}
