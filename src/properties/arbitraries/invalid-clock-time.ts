import fc from 'fast-check';
import type { LabelledValue } from './_internals/labelled-value.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const minute = fc.integer({ min: 0, max: 59 });

/**
 * A string that is not a 24-hour `HH:mm` time (spec §2.1), labelled with why: 24:00 and later hours,
 * minute 60, missing zero padding (7:5, 7:05), 12-hour with AM/PM, with seconds.
 */
export function invalidClockTime(): fc.Arbitrary<LabelledValue> {
  return fc.oneof(
    fc.constant({ value: '24:00', label: '24:00 (the day runs to 23:59)' }),
    fc.tuple(fc.integer({ min: 24, max: 29 }), minute).map(([h, m]) => ({ value: `${h}:${pad(m)}`, label: `hour ${h}` })),
    fc.integer({ min: 0, max: 23 }).map((h) => ({ value: `${pad(h)}:60`, label: 'minute 60' })),
    fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })).map(([h, m]) => ({ value: `${h}:${m}`, label: 'no zero padding (H:m)' })),
    fc.tuple(fc.integer({ min: 0, max: 9 }), minute).map(([h, m]) => ({ value: `${h}:${pad(m)}`, label: 'hour without zero padding (H:mm)' })),
    fc.tuple(fc.integer({ min: 1, max: 12 }), minute, fc.constantFrom(' AM', ' PM', 'am', 'pm', 'PM')).map(([h, m, suffix]) => ({
      value: `${pad(h)}:${pad(m)}${suffix}`,
      label: '12-hour time with AM/PM',
    })),
    fc.tuple(fc.integer({ min: 0, max: 23 }), minute, minute).map(([h, m, s]) => ({ value: `${pad(h)}:${pad(m)}:${pad(s)}`, label: 'with seconds (HH:mm:ss)' })),
  );
}
