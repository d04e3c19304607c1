/**
 * Bounds on what a response body may parse into. No document of this API comes near them (a page
 * of 100 users is a few thousand values, nested four levels); a body past them is not a sound JSON
 * document for this API (JSON-RESPONSE, §1), and is never parsed, so no target can make the harness
 * build a tree that exhausts its memory or overflows a recursive walk.
 */
export const JSON_BOUNDS = { maxDepth: 64, maxValues: 100_000 } as const;

export type JsonBounds = { readonly maxDepth: number; readonly maxValues: number };

/** A body parsed within the bounds, or why not. */
export type BoundedJson =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'empty' }
  | { readonly kind: 'not-json' }
  /** Over a bound: `problem` says which, e.g. "nested deeper than 64 levels". */
  | { readonly kind: 'over-bounds'; readonly problem: string };

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COMMA = 0x2c; // ,
const COLON = 0x3a; // :

/**
 * Why `text` is over the bounds, or null. One pass over the characters, outside strings: each
 * bracket opens a level, and each value or key that starts (after `[`, `{`, `,`, `:` or at the
 * start) counts once. Malformed text is not judged here (JSON.parse does that).
 */
export function jsonBoundsProblem(text: string, bounds: JsonBounds = JSON_BOUNDS): string | null {
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
    if (expectValue && ++values > bounds.maxValues) return `more than ${bounds.maxValues} values`;
    expectValue = false;
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      expectValue = true;
      if (++depth > bounds.maxDepth) return `nested deeper than ${bounds.maxDepth} levels`;
    }
  }
  return null;
}

/** Parses a response body within the bounds (see JSON_BOUNDS). */
export function parseBoundedJson(text: string, bounds: JsonBounds = JSON_BOUNDS): BoundedJson {
  if (text.trim() === '') return { kind: 'empty' };
  const problem = jsonBoundsProblem(text, bounds);
  if (problem !== null) return { kind: 'over-bounds', problem };
  try {
    return { kind: 'json', value: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'not-json' };
  }
}

/** The JSON-RESPONSE finding of a body over the bounds, as every check words it. */
export function overBoundsFinding(response: { readonly bodyBytes: number; readonly jsonProblem?: string }): { ruleId: 'JSON-RESPONSE'; expected: string; actual: string } {
  return { ruleId: 'JSON-RESPONSE', expected: 'a sound JSON document for this API (§1)', actual: `a body of ${response.bodyBytes} bytes ${response.jsonProblem}: not parsed` };
}
