import fc from 'fast-check';
import { ASTRAL_CHARACTER, NON_ASCII_LETTERS, passwordOf, type PasswordCharClass } from './_internals/password-chars.ts';
import type { RuleBreakingValue } from './_internals/labelled-value.ts';

const ALL: readonly PasswordCharClass[] = ['lowercase', 'uppercase', 'digit', 'special'];
const NAMES: Record<PasswordCharClass, string> = {
  lowercase: 'a lowercase letter',
  uppercase: 'an uppercase letter',
  digit: 'a digit',
  special: 'a special character',
};

/**
 * A password that breaks exactly one password rule (spec §2.2, §8):
 * 6 to 16 characters missing exactly one class (USR-PASSWORD-CLASSES), or exactly 5 characters with
 * all four classes (USR-PASSWORD-LENGTH), a third of those with a fifth character outside ASCII
 * (more than 5 bytes or UTF-16 code units: the length counts characters). `rule` keeps to one of the two (default: either).
 */
export function invalidPassword(rule?: 'USR-PASSWORD-LENGTH' | 'USR-PASSWORD-CLASSES'): fc.Arbitrary<RuleBreakingValue> {
  const missingOne = fc.constantFrom(...ALL).chain((missing) =>
    passwordOf(
      ALL.filter((c) => c !== missing),
      { min: 3, max: 13 },
    ).map((value): RuleBreakingValue => ({ value, label: `password without ${NAMES[missing]}`, breaks: 'USR-PASSWORD-CLASSES' })),
  );
  const fiveAscii = passwordOf(ALL, { min: 1, max: 1 }).map(
    (value): RuleBreakingValue => ({ value, label: 'password of 5 characters with all four classes', breaks: 'USR-PASSWORD-LENGTH' }),
  );
  // The edge: 5 characters, the fifth outside ASCII, so 6 or more bytes (or UTF-16 units) but 5 characters.
  const fiveWide = fc
    .constantFrom(...NON_ASCII_LETTERS, ASTRAL_CHARACTER)
    .map((wide): RuleBreakingValue => ({ value: `Aa1!${wide}`, label: `password of 5 characters, the fifth ${wide === ASTRAL_CHARACTER ? 'outside the BMP (6 UTF-16 code units)' : 'a letter outside ASCII (6 or more bytes)'}`, breaks: 'USR-PASSWORD-LENGTH' }));
  const tooShort = fc.oneof({ weight: 2, arbitrary: fiveAscii }, { weight: 1, arbitrary: fiveWide });
  if (rule === 'USR-PASSWORD-CLASSES') return missingOne;
  if (rule === 'USR-PASSWORD-LENGTH') return tooShort;
  return fc.oneof(missingOne, tooShort);
}
