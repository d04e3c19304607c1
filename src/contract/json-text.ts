/**
 * JSON text with its integers kept exact. JSON.parse reads every number as a double, so an integer
 * beyond 2^53 (an ID such as 9007199254740993) comes back rounded, and JSON.stringify cannot write a
 * BigInt at all. Here an integer literal outside the safe range parses into a BigInt, and a BigInt
 * is written back as its bare digits: an ID the target wrote is carried back exactly as it wrote it.
 * Every other value reads and writes as JSON.parse and JSON.stringify do.
 */

const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c; // ,
const COLON = 0x3a; // :

/** Bounds on what a text may parse into: how deep it nests, how many values it holds. */
export type JsonBounds = { readonly maxDepth: number; readonly maxValues: number };

/** What one pass over a JSON text shows before it is parsed. */
export interface JsonScan {
  /** Why the text is over the bounds (e.g. "nested deeper than 64 levels"), or null. */
  readonly problem: string | null;
  /** The integer literals JSON.parse would round (outside ±(2^53 − 1), no fraction, no exponent), as `[start, end)`. */
  readonly unsafeIntegers: ReadonlyArray<readonly [number, number]>;
}

/** Whether a character can be part of a JSON number literal: a digit, `.`, `e`, `E`, `+`, `-`. */
function isNumberCharacter(c: number): boolean {
  return (c >= ZERO && c <= NINE) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;
}

/** Whether the digits of an integer literal (sign included) are outside ±(2^53 − 1). */
function unsafe(literal: string): boolean {
  const digits = literal.charCodeAt(0) === MINUS ? literal.length - 1 : literal.length;
  return digits >= 16 && !Number.isSafeInteger(Number(literal));
}

/**
 * One pass over the characters of `text`, outside strings: each bracket opens a level, each value
 * or key that starts (after `[`, `{`, `,`, `:` or at the start) counts once, and each integer
 * literal JSON.parse would round is noted. Stops at the first bound passed. Malformed text is not
 * judged here (JSON.parse does that).
 */
export function scanJson(text: string, bounds: JsonBounds = { maxDepth: Infinity, maxValues: Infinity }): JsonScan {
  const unsafeIntegers: Array<readonly [number, number]> = [];
  let depth = 0;
  let values = 0;
  let inString = false;
  let expectValue = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c <= 0x20) continue;
    if (c === COMMA || c === COLON) {
      expectValue = true;
      continue;
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      continue;
    }
    if (expectValue && ++values > bounds.maxValues) return { problem: `more than ${bounds.maxValues} values`, unsafeIntegers };
    expectValue = false;
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      expectValue = true;
      if (++depth > bounds.maxDepth) return { problem: `nested deeper than ${bounds.maxDepth} levels`, unsafeIntegers };
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      let end = i + 1;
      while (end < text.length && isNumberCharacter(text.charCodeAt(end))) end++;
      // Only a literal of 16 digits or more can be unsafe: most numbers are never sliced.
      if (end - i >= 16) {
        const literal = text.slice(i, end);
        if (/^-?\d+$/.test(literal) && unsafe(literal)) unsafeIntegers.push([i, end]);
      }
      i = end - 1;
    }
  }
  return { problem: null, unsafeIntegers };
}

/**
 * JSON.parse, with the integers it would round read as BigInt. Throws SyntaxError as JSON.parse
 * does. A body without such integers (nearly all) costs one extra scan and JSON.parse itself.
 */
export function parseJsonExact(text: string, spans: JsonScan['unsafeIntegers'] = scanJson(text).unsafeIntegers): unknown {
  if (spans.length === 0) return JSON.parse(text) as unknown;
  // Each such literal is quoted behind a marker no string of the text can hold (a fresh nonce),
  // and turned into a BigInt on the way out of JSON.parse.
  const nonce = Math.random().toString(36).slice(2);
  const marker = `\u0000int:${nonce}:`;
  let quoted = '';
  let at = 0;
  for (const [start, end] of spans) {
    quoted += `${text.slice(at, start)}"\\u0000int:${nonce}:${text.slice(start, end)}"`;
    at = end;
  }
  quoted += text.slice(at);
  return JSON.parse(quoted, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value)) as unknown;
}

/**
 * JSON.stringify, with a BigInt written as its bare digits (JSON.stringify throws on one). `space`
 * as JSON.stringify's. Text a BigInt cannot be confused with: the placeholder carries a fresh nonce.
 */
export function jsonText(value: unknown, space?: number): string {
  // Nearly every value holds no BigInt: JSON.stringify as it is, with no replacer on the hot path.
  try {
    return JSON.stringify(value, null, space);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/.test(error.message)) throw error;
  }
  let big: Map<string, string> | null = null;
  const nonce = Math.random().toString(36).slice(2);
  const text = JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v !== 'bigint') return v;
      big ??= new Map();
      const key = `\u0000big:${nonce}:${big.size}`;
      big.set(key, v.toString());
      return key;
    },
    space,
  ) as string | undefined;
  if (text === undefined || big === null) return text as string;
  const digits: Map<string, string> = big;
  return text.replace(new RegExp(`"\\\\u0000big:${nonce}:(\\d+)"`, 'g'), (whole) => digits.get(JSON.parse(whole) as string) ?? whole);
}
