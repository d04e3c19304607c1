/**
 * Quotes a word for a POSIX shell: single quotes, inside which nothing is special; a single quote
 * inside is written `'\''` (close, escaped quote, reopen).
 */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
