import fc from 'fast-check';
import { passwordOf } from './_internals/password-chars.ts';

/**
 * A valid password (spec §2.2, §8): 6 to 20 ASCII characters with at least one lowercase letter,
 * one uppercase letter, one digit and one special character (`!@#$%^&*-_+=?`); lengths 6 and 7 are
 * frequent, for the boundary.
 */
export function password(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: passwordOf(['lowercase', 'uppercase', 'digit', 'special'], { min: 2, max: 3 }) },
    { weight: 2, arbitrary: passwordOf(['lowercase', 'uppercase', 'digit', 'special'], { min: 2, max: 16 }) },
  );
}
