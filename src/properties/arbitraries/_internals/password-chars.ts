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

/** Every ASCII punctuation character: each is a special character as much as `!` is (§2.2 names no set). */
export const ASCII_PUNCTUATION = [...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'];

/** Letters outside ASCII: each one character, two or more bytes in UTF-8 (`ï` two, `ß` two, `ł` two, `李` three). */
export const NON_ASCII_LETTERS = ['é', 'ü', 'ß', 'ł', 'ø', 'ï', 'ñ', '李'];

/** A character outside the Basic Multilingual Plane: one character, two UTF-16 code units, four UTF-8 bytes. */
export const ASTRAL_CHARACTER = '🕒';
