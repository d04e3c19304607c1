import { parseJsonExact, scanJson, type JsonBounds } from '../contract/json-text.ts';

/**
 * Bounds on what a response body may parse into. No document of this API comes near them (a page
 * of 100 users is a few thousand values, nested four levels); a body past them is not a sound JSON
 * document for this API (JSON-RESPONSE, §1), and is never parsed, so no target can make the harness
 * build a tree that exhausts its memory or overflows a recursive walk.
 */
export const JSON_BOUNDS = { maxDepth: 64, maxValues: 100_000 } as const;

export type { JsonBounds };

/** A body parsed within the bounds, or why not. */
export type BoundedJson =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'empty' }
  | { readonly kind: 'not-json' }
  /** Over a bound: `problem` says which, e.g. "nested deeper than 64 levels". */
  | { readonly kind: 'over-bounds'; readonly problem: string };

/** Why `text` is over the bounds, or null (one pass over its characters: contract/json-text.ts scanJson). */
export function jsonBoundsProblem(text: string, bounds: JsonBounds = JSON_BOUNDS): string | null {
  return scanJson(text, bounds).problem;
}

/** Parses a response body within the bounds (see JSON_BOUNDS). */
export function parseBoundedJson(text: string, bounds: JsonBounds = JSON_BOUNDS): BoundedJson {
  if (text.trim() === '') return { kind: 'empty' };
  const scan = scanJson(text, bounds);
  if (scan.problem !== null) return { kind: 'over-bounds', problem: scan.problem };
  try {
    // Integers beyond 2^53 (an ID such as 9007199254740993) read exactly, as BigInt (contract/json-text.ts).
    return { kind: 'json', value: parseJsonExact(text, scan.unsafeIntegers) };
  } catch {
    return { kind: 'not-json' };
  }
}

/** The JSON-RESPONSE finding of a body over the bounds, as every check words it. */
export function overBoundsFinding(response: { readonly bodyBytes: number; readonly jsonProblem?: string }): { ruleId: 'JSON-RESPONSE'; expected: string; actual: string } {
  return { ruleId: 'JSON-RESPONSE', expected: 'a sound JSON document for this API (§1)', actual: `a body of ${response.bodyBytes} bytes ${response.jsonProblem}: not parsed` };
}
