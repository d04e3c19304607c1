import fc from 'fast-check';
import { passwordOf, type PasswordCharClass } from './_internals/password-chars.ts';
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
 * all four classes (USR-PASSWORD-LENGTH). `rule` keeps to one of the two (default: either).
 */
export function invalidPassword(rule?: 'USR-PASSWORD-LENGTH' | 'USR-PASSWORD-CLASSES'): fc.Arbitrary<RuleBreakingValue> {
  const missingOne = fc.constantFrom(...ALL).chain((missing) =>
    passwordOf(
      ALL.filter((c) => c !== missing),
      { min: 3, max: 13 },
    ).map((value): RuleBreakingValue => ({ value, label: `password without ${NAMES[missing]}`, breaks: 'USR-PASSWORD-CLASSES' })),
  );
  const tooShort = passwordOf(ALL, { min: 1, max: 1 }).map(
    (value): RuleBreakingValue => ({ value, label: 'password of 5 characters with all four classes', breaks: 'USR-PASSWORD-LENGTH' }),
  );
  if (rule === 'USR-PASSWORD-CLASSES') return missingOne;
  if (rule === 'USR-PASSWORD-LENGTH') return tooShort;
  return fc.oneof(missingOne, tooShort);
}
