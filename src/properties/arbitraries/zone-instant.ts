import fc from 'fast-check';
import { formatInZone } from './_internals/format-in-zone.ts';
import { zoneTransitions } from './_internals/transitions.ts';
import { DST_ZONES, ZONES } from './_internals/zones.ts';

/** An instant written in a zone with the zone's real offset at that instant. */
export interface ZoneInstant {
  readonly zone: string;
  /** `YYYY-MM-DDTHH:MM:SS±HH:MM`, the offset being the zone's at that instant (DST included). */
  readonly value: string;
  /** The instant, UTC milliseconds (whole seconds). */
  readonly millis: number;
  /** When drawn near an offset change of the zone: that change, UTC milliseconds. */
  readonly transition?: number;
}

export interface ZoneInstantConstraints {
  /** Zones to draw from (default: ZONES, 48 zones of both hemispheres). */
  readonly zones?: readonly string[];
  /** Default 2015. */
  readonly fromYear?: number;
  /** Default 2030 (inclusive). */
  readonly toYear?: number;
}

const BEFORE_S = 20 * 3600;
const AFTER_S = 24 * 3600;

/**
 * `{zone, value}` where value is an instant written with the zone's real offset. About 60% of the
 * instants lie on a DST transition day: from 20 h before to 24 h after an offset change of a DST
 * zone (found with luxon in the year range), the hours a day-granular or DST-blind check gets wrong.
 * Instants are drawn in UTC and then written in the zone, so a local time inside a spring-forward
 * gap, which does not exist, is never produced, and both readings of a fall-back hour are.
 */
export function zoneInstant(constraints: ZoneInstantConstraints = {}): fc.Arbitrary<ZoneInstant> {
  const zones = constraints.zones ?? ZONES;
  const fromYear = constraints.fromYear ?? 2015;
  const toYear = constraints.toYear ?? 2030;
  const first = Date.UTC(fromYear, 0, 1) / 1000;
  const last = Date.UTC(toYear + 1, 0, 1) / 1000 - 1;
  const anywhere = (zone: string) =>
    fc.integer({ min: first, max: last }).map((s): ZoneInstant => ({ zone, value: formatInZone(s * 1000, zone), millis: s * 1000 }));
  const nearTransition = (zone: string) => {
    const transitions = zoneTransitions(zone, fromYear, toYear);
    if (transitions.length === 0) return anywhere(zone);
    return fc
      .tuple(fc.integer({ min: 0, max: transitions.length - 1 }), fc.integer({ min: -BEFORE_S, max: AFTER_S }))
      .map(([index, shift]): ZoneInstant => {
        const transition = transitions[index] as number;
        const millis = Math.min(Math.max(transition + shift * 1000, first * 1000), last * 1000);
        return { zone, value: formatInZone(millis, zone), millis, transition };
      });
  };
  // With explicit zones, every one is tried near its transitions (a zone without any falls back to anywhere).
  const changing: readonly string[] = constraints.zones ?? DST_ZONES;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...changing).chain(nearTransition) },
    { weight: 2, arbitrary: fc.constantFrom(...zones).chain(anywhere) },
  );
}
