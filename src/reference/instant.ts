import { DateTime } from 'luxon';
import { parseOffsetDateTime } from '../contract/formats/index.ts';

/**
 * The instant (epoch ms) of a stored datetime. Values carry an offset; a naive value exists only
 * under the `*-naive-datetime` faults and is read in the company timezone.
 */
export function instantOf(value: string, companyTimezone: string): number {
  return parseOffsetDateTime(value)?.dateTime.toMillis() ?? DateTime.fromISO(value, { zone: companyTimezone }).toMillis();
}
