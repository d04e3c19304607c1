import { IANAZone } from 'luxon';

/**
 * Spec §2.1, §2.3: a timezone is an IANA-style name such as `America/Chicago`.
 * Fixed offsets (`+05:00`) and abbreviations (`CST`) are not IANA names even where Intl accepts them.
 */
const IANA_NAME_SHAPE = /^(?:[A-Z][A-Za-z_-]*(?:\/[A-Za-z0-9_+-]+){1,2}|UTC|Etc\/[A-Za-z0-9_+-]+)$/;

/** True when `name` is a timezone name of the IANA database that this Node runtime knows. */
export function isTimezoneName(name: string): boolean {
  return IANA_NAME_SHAPE.test(name) && IANAZone.isValidZone(name);
}
