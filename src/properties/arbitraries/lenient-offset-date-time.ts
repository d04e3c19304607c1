import fc from 'fast-check';
import { zoneInstant, type ZoneInstantConstraints } from './zone-instant.ts';
import type { LabelledValue } from './_internals/labelled-value.ts';

/**
 * LENIENT, not invalid: ISO 8601 datetimes outside the spec's exact `YYYY-MM-DDTHH:MM:SS±HH:MM`
 * that a conforming server may nevertheless accept: `Z` for UTC, fractional seconds. The spec model
 * rejects them, but no property family sends them as must-reject; they are for exploring a target.
 */
export function lenientOffsetDateTime(constraints: ZoneInstantConstraints = {}): fc.Arbitrary<LabelledValue> {
  const instant = zoneInstant(constraints);
  return fc.oneof(
    instant.map((i) => ({ value: new Date(i.millis).toISOString().replace('.000Z', 'Z'), label: 'lenient: UTC written Z' })),
    fc.tuple(instant, fc.integer({ min: 0, max: 999 })).map(([i, ms]) => ({
      value: `${i.value.slice(0, 19)}.${String(ms).padStart(3, '0')}${i.value.slice(19)}`,
      label: 'lenient: fractional seconds',
    })),
  );
}
