import fc from 'fast-check';
import { zoneInstant, type ZoneInstantConstraints } from './zone-instant.ts';

/**
 * A valid `YYYY-MM-DDTHH:MM:SS±HH:MM` (spec §2.3, §2.4): an instant written in a real zone with that
 * zone's offset, so the offset is also right for the zone (see `zoneInstant` for the zone with it).
 */
export function offsetDateTime(constraints: ZoneInstantConstraints = {}): fc.Arbitrary<string> {
  return zoneInstant(constraints).map((instant) => instant.value);
}
