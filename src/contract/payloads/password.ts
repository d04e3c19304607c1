import type { RuleId } from '../rules.ts';

/** Spec §2.2, §8: at least 6 characters. Counted in Unicode code points. */
export const PASSWORD_MIN_LENGTH = 6;

/** The character classes a password must contain (§2.2): lowercase, uppercase, digit, special. */
export const PASSWORD_CLASSES = {
  lowercase: /[a-z]/,
  uppercase: /[A-Z]/,
  digit: /[0-9]/,
  special: /[^A-Za-z0-9\s]/,
} as const;

export type PasswordClass = keyof typeof PASSWORD_CLASSES;

/** Every class at least once, as one JSON Schema pattern (a lookahead per class, across lines too). */
export const PASSWORD_CLASSES_PATTERN = `^${Object.values(PASSWORD_CLASSES).map((re) => `(?=[\\s\\S]*${re.source})`).join('')}`;

/** The classes `password` lacks. */
export function missingPasswordClasses(password: string): PasswordClass[] {
  return (Object.keys(PASSWORD_CLASSES) as PasswordClass[]).filter((c) => !PASSWORD_CLASSES[c].test(password));
}

/** The password rules `password` breaks: length, classes, or both. */
export function passwordRuleBreaks(password: string): RuleId[] {
  const broken: RuleId[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) broken.push('USR-PASSWORD-LENGTH');
  if (missingPasswordClasses(password).length > 0) broken.push('USR-PASSWORD-CLASSES');
  return broken;
}
