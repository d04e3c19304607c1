import fc from 'fast-check';
import { ZONES } from './_internals/zones.ts';

/** A valid IANA timezone name (spec §2.1, §2.3), from 48 real zones of both hemispheres, UTC included. */
export function timezoneName(): fc.Arbitrary<string> {
  return fc.constantFrom(...ZONES);
}
