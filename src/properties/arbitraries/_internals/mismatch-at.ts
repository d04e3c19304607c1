import { formatOffset, matchOffsetToZone } from '../../../contract/formats/index.ts';
import { formatInZone, wallTimeInZone } from './format-in-zone.ts';
import { otherOffset } from './other-offset.ts';

/**
 * The local wall time of `millis` in `zone` written with the zone's other offset (see otherOffset),
 * or null when that offset happens to be right too (the repeated hour of a fall-back).
 */
export function mismatchAt(zone: string, millis: number, fallbackShift: -60 | 60): { value: string; written: number; real: number } | null {
  const real = matchOffsetToZone(formatInZone(millis, zone), zone)?.zoneOffsetMinutes ?? 0;
  const written = otherOffset(zone, millis, real, fallbackShift);
  const value = `${wallTimeInZone(millis, zone)}${formatOffset(written)}`;
  return matchOffsetToZone(value, zone)?.matches === false ? { value, written, real } : null;
}
