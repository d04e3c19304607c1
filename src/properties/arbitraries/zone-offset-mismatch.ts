import fc from 'fast-check';
import { formatOffset } from '../../contract/formats/index.ts';
import { mismatchAt } from './_internals/mismatch-at.ts';
import { zoneInstant, type ZoneInstantConstraints } from './zone-instant.ts';

/** A local wall time of a zone written with an offset the zone does not have at that instant. */
export interface ZoneOffsetMismatch {
  readonly zone: string;
  readonly value: string;
  /** The instant of the wall time with the zone's real offset (what the writer meant), UTC ms. */
  readonly millis: number;
  readonly label: string;
}

/**
 * The wall time of a `zoneInstant` written with the zone's OTHER offset: standard instead of daylight
 * time or the reverse for a DST zone (30 minutes off for Australia/Lord_Howe), or the offset moved by
 * ±60 minutes for a zone without DST. Exactly what a DST-blind server accepts. Inherits zoneInstant's
 * bias toward transition days; wall times of a fall-back hour, where both offsets are right, are
 * filtered out with the spec model's `matchOffsetToZone`.
 */
export function zoneOffsetMismatch(constraints: ZoneInstantConstraints = {}): fc.Arbitrary<ZoneOffsetMismatch> {
  return fc
    .tuple(zoneInstant(constraints), fc.constantFrom(-60 as const, 60 as const))
    .map(([instant, shift]) => {
      const found = mismatchAt(instant.zone, instant.millis, shift);
      if (!found) return null;
      const near = instant.transition !== undefined ? ' near a DST transition' : '';
      const label = `${instant.zone} written ${formatOffset(found.written)} where it is ${formatOffset(found.real)}${near}`;
      return { zone: instant.zone, value: found.value, millis: instant.millis, label };
    })
    .filter((m): m is ZoneOffsetMismatch => m !== null);
}
