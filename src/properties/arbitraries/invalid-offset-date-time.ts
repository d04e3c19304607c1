import fc from 'fast-check';
import { brokenOffsetDateTime } from './_internals/broken-offset-date-time.ts';
import type { LabelledValue } from './_internals/labelled-value.ts';
import { zoneInstant, type ZoneInstantConstraints } from './zone-instant.ts';

/**
 * A string that is not `YYYY-MM-DDTHH:MM:SS±HH:MM` and that no conforming server may accept,
 * labelled with why: no offset (naive local time), an offset without its colon (`+0530`), a day the
 * calendar does not have, hour 25. `Z` and fractional seconds are NOT here: a conforming server may
 * take them (see `lenientOffsetDateTime`).
 */
export function invalidOffsetDateTime(constraints: ZoneInstantConstraints = {}): fc.Arbitrary<LabelledValue> {
  return zoneInstant(constraints).chain((instant) => brokenOffsetDateTime(instant.value));
}
