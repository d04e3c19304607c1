import { IANAZone } from 'luxon';

/**
 * The offset (minutes) a DST-blind or day-granular check would expect instead of `current`: the
 * zone's other offset of that year (standard vs daylight) when it has two, else `current` shifted
 * by `fallbackShift` (±60).
 */
export function otherOffset(zone: string, millis: number, current: number, fallbackShift: -60 | 60): number {
  const tz = IANAZone.create(zone);
  const year = new Date(millis).getUTCFullYear();
  const candidates = [Date.UTC(year, 0, 1), Date.UTC(year, 6, 1), millis - 86_400_000 * 2, millis + 86_400_000 * 2].map((t) => tz.offset(t));
  return candidates.find((o) => o !== current) ?? current + fallbackShift;
}
