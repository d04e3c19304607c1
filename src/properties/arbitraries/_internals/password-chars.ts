import fc from 'fast-check';

/** The four character classes of spec §2.2, ASCII only (specials from a keyboard's top row). */
export const PASSWORD_CHARS = {
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  digit: '0123456789',
  special: '!@#$%^&*-_+=?',
} as const;

export type PasswordCharClass = keyof typeof PASSWORD_CHARS;

/** One character of the given classes. */
export function charOf(classes: readonly PasswordCharClass[]): fc.Arbitrary<string> {
  return fc.constantFrom(...classes.flatMap((c) => [...PASSWORD_CHARS[c]]));
}

/**
 * A password of exactly the given classes: one character of each, then `extra` more of any of
 * them, shuffled so the required ones are not always in front.
 */
export function passwordOf(classes: readonly PasswordCharClass[], extra: { min: number; max: number }): fc.Arbitrary<string> {
  return fc
    .tuple(fc.tuple(...classes.map((c) => charOf([c]))), fc.array(charOf(classes), { minLength: extra.min, maxLength: extra.max }))
    .chain(([required, more]) => {
      const chars = [...required, ...more];
      return fc.shuffledSubarray(chars, { minLength: chars.length, maxLength: chars.length });
    })
    .map((chars) => chars.join(''));
}
