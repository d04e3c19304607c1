/**
 * Record values by meaning, not representation. The spec does not show the records of users,
 * schedules and timesheets (§2.1–§2.3), and real servers write the same value in several ways: a
 * Laravel server answers `pay_rate: "15.00"` and `active: 1`. Wherever the spec does not fix the
 * representation, a value is compared by what it means:
 *
 * - a number and a numeric string are the same number (`"15.00"` = 15, `"3"` = 3);
 * - a boolean and `1`/`0` or `"1"`/`"0"` are the same truth value (`1` = true);
 * - expected null is met by null or by an absent field (judged where the path is read);
 * - strings are otherwise compared exactly, arrays element by element, objects key by key.
 *
 * Where the spec fixes a shape (the break records of §2.4, the pagination block of §2.5) values are
 * compared exactly instead: see the `exact` assertion key (docs/scenario-format.md).
 */

const NUMERIC = /^\s*[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;
const INTEGER = /^\s*[-+]?\d{1,400}\s*$/;

/** The number a value means: a finite number, a BigInt (an integer beyond 2^53, as a number: near), or a numeric string; null otherwise. */
export function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  return null;
}

/** The integer a value means, exactly: an integer number, a BigInt, or a string of digits; null otherwise. */
export function asExactInteger(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : null;
  if (typeof value === 'string' && INTEGER.test(value)) return BigInt(value.trim());
  return null;
}

/** The truth value a value means: a boolean, `1`/`0`, or `"1"`/`"0"`; null otherwise. */
export function asBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1') return true;
  if (value === 0 || value === '0') return false;
  return null;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether `actual` means what `expected` means (see the module doc). Symmetric. */
export function sameMeaning(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (actual === null || expected === null || actual === undefined || expected === undefined) return (actual ?? null) === (expected ?? null);
  if (typeof actual === 'boolean' || typeof expected === 'boolean') {
    const [a, b] = [asBoolean(actual), asBoolean(expected)];
    return a !== null && a === b;
  }
  if (typeof actual === 'bigint' || typeof expected === 'bigint') {
    // An integer beyond 2^53 is compared exactly: 9007199254740993 is not 9007199254740992.
    const [a, b] = [asExactInteger(actual), asExactInteger(expected)];
    return a !== null && a === b;
  }
  if (typeof actual === 'number' || typeof expected === 'number') {
    const [a, b] = [asNumber(actual), asNumber(expected)];
    return a !== null && a === b;
  }
  if (typeof actual === 'string' && typeof expected === 'string') {
    if (actual === expected) return true;
    const [a, b] = [asNumber(actual), asNumber(expected)];
    return a !== null && a === b;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.length === expected.length && actual.every((item, i) => sameMeaning(item, expected[i]));
  }
  if (isObject(actual) && isObject(expected)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    return [...keys].every((key) => sameMeaning(actual[key], expected[key]));
  }
  return false;
}

export type MeaningType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

/** Whether a value means a value of `type`: `"15"` is an integer, `1` is a boolean, `"15.5"` a number. */
export function hasMeaningType(value: unknown, type: MeaningType): boolean {
  switch (type) {
    case 'integer': {
      if (typeof value === 'bigint') return true;
      const n = asNumber(value);
      return n !== null && Number.isInteger(n);
    }
    case 'number':
      return asNumber(value) !== null;
    case 'boolean':
      return asBoolean(value) !== null;
    case 'string':
      return typeof value === 'string';
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'null':
      return value === null;
  }
}

/**
 * The order of two record values by meaning: numbers (and numeric strings) numerically, truth
 * values false before true, other strings left to the caller (null). Used by sort checks.
 */
export function meaningOrder(a: unknown, b: unknown): -1 | 0 | 1 | null {
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const [i, j] = [asExactInteger(a), asExactInteger(b)];
    if (i !== null && j !== null) return i < j ? -1 : i > j ? 1 : 0;
  }
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== null && y !== null) return x < y ? -1 : x > y ? 1 : 0;
  if (typeof a === 'boolean' || typeof b === 'boolean') {
    const [p, q] = [asBoolean(a), asBoolean(b)];
    if (p !== null && q !== null) return p === q ? 0 : p ? 1 : -1;
  }
  return null;
}
