import { DateTime } from 'luxon';
import { formatOffsetDateTime } from '../../../contract/formats/index.ts';

/** `YYYY-MM-DDTHH:MM:SS±HH:MM` of the instant `millis` in `zone`, with the zone's real offset then. */
export function formatInZone(millis: number, zone: string): string {
  return formatOffsetDateTime(DateTime.fromMillis(millis, { zone }));
}

/** The local wall time `YYYY-MM-DDTHH:MM:SS` of the instant `millis` in `zone`, without an offset. */
export function wallTimeInZone(millis: number, zone: string): string {
  return DateTime.fromMillis(millis, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
}
