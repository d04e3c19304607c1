import { IANAZone } from 'luxon';
import { parseOffsetDateTime } from './offset-datetime.ts';
import { isTimezoneName } from './timezone-name.ts';

/** The outcome of comparing a written offset with a zone's real offset at that instant (spec §4.3). */
export interface OffsetZoneMatch {
  readonly matches: boolean;
  /** Offset written in the value, minutes east of UTC. */
  readonly writtenOffsetMinutes: number;
  /** The zone's real UTC offset at the value's instant, DST included, minutes east of UTC. */
  readonly zoneOffsetMinutes: number;
}

/**
 * Spec §4.3: "when an ISO 8601 value carries an offset, that offset must match the timezone given for it".
 * The zone's offset is taken at the value's own instant, so DST is honoured: in America/Chicago
 * `2026-07-01T12:00:00-05:00` matches and `2026-07-01T12:00:00-06:00` does not.
 * Returns null when the value is not a datetime with offset or the zone is not an IANA name
 * (`isTimezoneName`: abbreviations such as `CST` or `EST`, which Intl resolves, are format errors, not zones).
 */
export function matchOffsetToZone(value: string, zoneName: string): OffsetZoneMatch | null {
  const parsed = parseOffsetDateTime(value);
  if (!parsed) return null;
  if (!isTimezoneName(zoneName)) return null;
  const zone = IANAZone.create(zoneName);
  if (!zone.isValid) return null;
  const zoneOffsetMinutes = zone.offset(parsed.dateTime.toMillis());
  return {
    matches: zoneOffsetMinutes === parsed.offsetMinutes,
    writtenOffsetMinutes: parsed.offsetMinutes,
    zoneOffsetMinutes,
  };
}

/** Formats an offset in minutes as `±HH:MM`. */
export function formatOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = String(abs % 60).padStart(2, '0');
  return `${sign}${hours}:${minutes}`;
}
