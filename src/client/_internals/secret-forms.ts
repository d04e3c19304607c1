/**
 * The spellings of a secret a server, a URL or a header may carry, as regular-expression sources,
 * for the Redactor. Line-wrapped base64 (MIME wraps at 76 characters) is found by the Redactor,
 * which joins a wrapped block before it looks (a line break allowed between any two characters of
 * every form would make the expression slow to build).
 *
 * Escaping is per character, as encoders differ in what they escape (`encodeURIComponent` escapes
 * `/`, Python's `quote` keeps it; Go's JSON writes `<` as `\u003c`, PHP's writes `/` as `\/`):
 * each character of the secret may come raw, in either letter case (a header name arrives
 * lower-cased), or as any of its escapes (characterForms), in any mix. Then hex in either case, and
 * base64 and base64url, padded or not, at each of the three byte offsets the secret may start at
 * inside a longer encoded text (so `base64("Authorization: " + token)` is found too), each of those
 * encoded again (base64 twice, as of `base64("Bearer " + token)`); a base64 form keeps its letter
 * case (another spells other bytes), and its `+ / = - _` may be escaped (percent-encoded in a query,
 * `\/` in PHP's JSON). The letter cases are spelled out (`[cC]`) rather than left to the `i` flag,
 * which makes the expression several times slower.
 */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  return [escapedPattern(secret, true), anyCase(bytes.toString('hex')), ...base64Set(bytes).map((form) => escapedPattern(form, false))];
}

/** The base64 and base64url forms of secretForms, raw: once, and each of them encoded again. */
function base64Set(bytes: Buffer): string[] {
  const once = base64Forms(bytes);
  // Encoded twice: the outer base64 spells whichever first-level form sat in the text it encoded, so
  // each of them (`Bearer <token>` puts the token at offset 1, not 0) is encoded again at every offset.
  const base64 = new Set<string>([...once, ...once.flatMap((form) => base64Forms(Buffer.from(form, 'utf8')))]);
  base64.delete('');
  return [...base64];
}

/**
 * What every match of secretForms holds when the text has no `%`, `&`, backslash or line break (no
 * escape, no wrapped block): the secret or its hex in some letter case (`lowered`: look in the
 * lower-cased text), or a base64 form as it is (`exact`). Null for a secret these cannot stand for:
 * one with a space (form encoding's `+`) or a character outside ASCII (its cases may differ in length).
 */
export function secretPlainForms(secret: string): { readonly lowered: readonly string[]; readonly exact: readonly string[] } | null {
  if (!/^[\x21-\x7e]*$/.test(secret)) return null;
  const bytes = Buffer.from(secret, 'utf8');
  return { lowered: [secret.toLowerCase(), bytes.toString('hex')], exact: base64Set(bytes) };
}

/**
 * A pattern of the text with each character raw (in either case) or escaped (characterForms): every
 * character when `every` (some encoders escape letters and digits too), else only those that are not
 * letters or digits, and the letters in their own case (the `+ / = - _` of a base64 form).
 */
function escapedPattern(text: string, every: boolean): string {
  return [...text].map((c) => (every || !/^[A-Za-z0-9]$/.test(c) ? `(?:${characterForms(c).join('|')})` : c)).join('');
}

const HTML_NAMED: Readonly<Record<string, readonly string[]>> = { '&': ['&amp;'], '<': ['&lt;'], '>': ['&gt;'], '"': ['&quot;'], "'": ['&apos;'] };
const JSON_SHORT: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/**
 * The common spellings of a secret as plain strings, for a cheap `includes` where a regex of every
 * mix (secretForms) costs milliseconds to build: as written, upper- and lower-cased, percent-encoded
 * (as encodeURIComponent does, and every byte), HTML-escaped, JSON `\uXXXX` escapes of every
 * character, hex in either case, and base64 and base64url at each byte offset (base64Forms).
 */
export function secretLiterals(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const html = secret.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const json = [...secret].map((c) => c.split('').map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')).join('');
  const forms = [secret, secret.toUpperCase(), secret.toLowerCase(), encodeURIComponent(secret), [...bytes].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''), html, json, bytes.toString('hex'), bytes.toString('hex').toUpperCase(), ...base64Forms(bytes)];
  return [...new Set(forms.filter((f) => f.length >= 4))];
}

/**
 * One character as regex sources: raw (a space also as form encoding's `+`); percent-encoded (its
 * UTF-8 bytes); an HTML character reference (decimal or hex, leading zeros allowed, or its name);
 * a JSON escape (`\uXXXX` of each UTF-16 unit, or the short escape) after one to seven backslashes
 * (a JSON text inside a JSON string escapes its escapes; bounded, so a long run of backslashes costs
 * no backtracking). Hex digits and letters in either case.
 */
function characterForms(c: string): string[] {
  const point = c.codePointAt(0) as number;
  const units = c.split('').map((u) => `\\\\{1,7}u${anyCase(u.charCodeAt(0).toString(16).padStart(4, '0'))}`).join('');
  const short = JSON_SHORT[c];
  return [
    anyCase(c),
    ...(c === ' ' ? ['\\+'] : []),
    [...Buffer.from(c, 'utf8')].map((b) => `%${anyCase(b.toString(16).padStart(2, '0'))}`).join(''),
    `&#0*${point};`,
    `&#[xX]0*${anyCase(point.toString(16))};`,
    ...(HTML_NAMED[c] ?? []).map(anyCase),
    units,
    ...(short === undefined ? [] : [`\\\\{1,7}${literalPattern(short)}`]),
  ];
}

/** The text as a pattern in any letter case: each letter that has another case as a class (`[cC]`). */
function anyCase(text: string): string {
  return [...text]
    .map((c) => {
      const lower = c.toLowerCase();
      const upper = c.toUpperCase();
      return lower !== upper && lower.length === 1 && upper.length === 1 ? `[${lower}${upper}]` : literalPattern(c);
    })
    .join('');
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
