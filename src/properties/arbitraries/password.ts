import fc from 'fast-check';
import { ASCII_PUNCTUATION, NON_ASCII_LETTERS, passwordOf } from './_internals/password-chars.ts';

/**
 * A valid password (spec §2.2, §8): 6 to 20 ASCII characters with at least one lowercase letter,
 * one uppercase letter, one digit and one special character (`!@#$%^&*-_+=?`); lengths 6 and 7 are
 * frequent, for the boundary. A quarter are the domain's edges, one edge each (so a refusal names
 * it): 8 characters whose only special character is one of the 32 ASCII punctuation characters, or
 * 4 ASCII characters of all four classes and 2 letters outside ASCII (exactly 6 characters, more
 * bytes: only the length in characters decides).
 */
export function password(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 1, arbitrary: passwordOf(['lowercase', 'uppercase', 'digit', 'special'], { min: 2, max: 3 }) },
    { weight: 2, arbitrary: passwordOf(['lowercase', 'uppercase', 'digit', 'special'], { min: 2, max: 16 }) },
    { weight: 1, arbitrary: passwordEdge() },
  );
}

/** The valid edges of a password: each ASCII punctuation as the only special character (at a length off the minimum), or non-ASCII letters making up the minimum length. */
export function passwordEdge(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...ASCII_PUNCTUATION).map((special) => `Ab1${special}cdef`),
    fc.tuple(fc.constantFrom(...NON_ASCII_LETTERS), fc.constantFrom(...NON_ASCII_LETTERS)).map(([x, y]) => `Aa1!${x}${y}`),
  );
}
