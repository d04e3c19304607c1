import fc from 'fast-check';

/** A valid kiosk employee code (spec §2.2, §8): exactly 4 ASCII digits, leading zeros included. */
export function employeeCode(): fc.Arbitrary<string> {
  // A quarter are the domain's edges: the first and last codes, and codes that start with 0 (a server storing a number loses it).
  return fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')) }, { weight: 1, arbitrary: fc.constantFrom('0000', '0001', '0123', '0999', '9999') });
}
