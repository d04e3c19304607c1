import { randomBytes } from 'node:crypto';

/** Fresh values for the requests a run sends: an e-mail, a letters-only name, a token. */
export interface UniqueValues {
  /** This run's tag (`cc` and the nonce), in every value it makes. */
  readonly tag: string;
  /** The nonce alone: in every e-mail the run makes (a search for it lists the run's users where search matches e-mails). */
  readonly nonce: string;
  readonly next: () => { email: string; name: string; token: string };
}

/** A value generator unique within the run and across runs (e-mails must not collide on a real target). */
export function uniqueValues(): UniqueValues {
  const nonce = randomBytes(4).readUInt32BE(0).toString(36);
  const letters = (n: number) => {
    let s = '';
    do {
      s = String.fromCharCode(97 + (n % 26)) + s;
      n = Math.floor(n / 26);
    } while (n > 0);
    return s;
  };
  const nonceLetters = letters(Number.parseInt(nonce, 36));
  let counter = 0;
  return {
    tag: `cc${nonce}`,
    nonce,
    next: () => {
      counter++;
      return {
        email: `clockcheck.${nonce}.${counter}@example.com`,
        name: `Cc${nonceLetters}${letters(counter)}`,
        token: `${nonce}-${counter}`,
      };
    },
  };
}
