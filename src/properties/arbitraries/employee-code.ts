import fc from 'fast-check';

/** A valid kiosk employee code (spec §2.2, §8): exactly 4 ASCII digits, leading zeros included. */
export function employeeCode(): fc.Arbitrary<string> {
  return fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0'));
}
