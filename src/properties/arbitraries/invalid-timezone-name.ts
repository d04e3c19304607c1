import fc from 'fast-check';
import type { LabelledValue } from './_internals/labelled-value.ts';

/**
 * A string that is not an IANA timezone name (spec §2.1, §2.3), labelled: an invented region/city,
 * an abbreviation (CST), a fixed offset (+05:00), a city with a space for its underscore.
 * Left out: case variants (america/chicago), which some zone databases look up case-insensitively,
 * and the empty string, which some frameworks turn into null (an omitted timezone).
 */
export function invalidTimezoneName(): fc.Arbitrary<LabelledValue> {
  return fc.oneof(
    fc.constantFrom('Mars/Olympus_Mons', 'Europe/Atlantis', 'America/Gotham').map((value) => ({ value, label: 'a region/city that does not exist' })),
    fc.constantFrom('CST', 'PST', 'CEST', 'IST').map((value) => ({ value, label: 'an abbreviation, not a zone name' })),
    fc.constantFrom('+05:00', '-03:30', 'UTC+2').map((value) => ({ value, label: 'a fixed offset, not a zone name' })),
    fc.constantFrom('America/New York', 'America/Los Angeles').map((value) => ({ value, label: 'a space instead of the underscore' })),
  );
}
