/**
 * The spellings of a secret a server, a URL or a header may carry, as regular-expression sources,
 * for the Redactor. Matching is case-insensitive (a header name arrives lower-cased; hex and
 * percent escapes come in either case), so each form is one literal. Line-wrapped base64 (MIME wraps
 * at 76 characters) is found by the Redactor, which joins a wrapped block before it looks (a line
 * break allowed between any two characters of every form would make the expression slow to build).
 *
 * The forms: raw; percent-encoded (`encodeURIComponent`, form encoding, every byte escaped); hex;
 * HTML character references (the five special characters escaped, every character as `&#N;`, every
 * character as `&#xH;`); JSON-escaped (as `JSON.stringify` writes it, PHP's `\/`, every character
 * as `\uXXXX`); base64 and base64url, padded or not, at each of the three byte offsets the secret
 * may start at inside a longer encoded text (so `base64("Authorization: " + token)` is found too),
 * and the base64 of the secret's base64 (encoded twice).
 */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const literal = new Set<string>([
    secret,
    encodeURIComponent(secret),
    new URLSearchParams({ t: secret }).toString().slice(2),
    [...bytes].map((b) => `%${hex(b)}`).join(''),
    bytes.toString('hex'),
    ...htmlForms(secret),
    ...jsonForms(secret),
  ]);
  const base64 = new Set<string>([...base64Forms(bytes), ...base64Forms(Buffer.from(bytes.toString('base64'), 'utf8'))]);
  literal.delete('');
  base64.delete('');
  return [...literal, ...[...base64].filter((f) => !literal.has(f))].map(literalPattern);
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0');
}

/** `&amp;`-style escaping of the five special characters, and every character as a decimal or hex reference. */
function htmlForms(secret: string): string[] {
  const special: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  const chars = [...secret];
  return [
    chars.map((c) => special[c] ?? c).join(''),
    chars.map((c) => `&#${c.codePointAt(0)};`).join(''),
    chars.map((c) => `&#x${(c.codePointAt(0) as number).toString(16)};`).join(''),
  ];
}

/** As JSON.stringify writes it, with PHP's escaped slashes and non-ASCII escapes, and every character as `\uXXXX`. */
function jsonForms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const unicode = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  return [json, json.replace(/\//g, '\\/').replace(/[^\x20-\x7e]/g, unicode), secret.split('').map(unicode).join('')];
}

/**
 * The base64 and base64url characters that spell `bytes` wherever they start in a longer text: for
 * each of the three offsets (0, 1 or 2 bytes before them in their group of three), the characters
 * that depend on the secret's bytes alone. Shorter than four characters, a form would match by
 * chance in any base64 text: such offsets are left out (offset 0 always stays).
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const encoded = padded.toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    // A character after the secret's last byte may mix in the next byte's bits: only whole ones stay.
    const last = Math.floor(((offset + bytes.length) * 8) / 6);
    const core = encoded.slice(first, last);
    if (offset === 0) forms.push(encoded, encoded.replace(/=+$/, ''), core);
    else if (core.length >= 4) forms.push(core);
  }
  return forms.flatMap((f) => [f, f.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]);
}

/** A literal regex source for a form. */
function literalPattern(form: string): string {
  return form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
