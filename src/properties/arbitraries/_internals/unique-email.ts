import { jsonText } from '../../../contract/json-text.ts';
import { lowercaseDigest } from './stable-hash.ts';

/**
 * `${tag}.${10 lowercase letters}@example.com`. The letters are derived from a random nonce AND
 * the rest of the payload, so every distinct payload (a shrunk one included) gets its own address:
 * a target that keeps e-mails unique never refuses a case because an earlier one took its address.
 */
export function uniqueEmail(tag: string, nonce: number, rest: Readonly<Record<string, unknown>>): string {
  return `${tag}.${lowercaseDigest(`${nonce}|${jsonText(rest)}`, 10)}@example.com`;
}
