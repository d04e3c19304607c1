import type { Violation } from '../../src/contract/violation.ts';

/** A copy of `base` with `change` applied; a key set to `undefined` is removed, as JSON would drop it. */
export function edit(base: Readonly<Record<string, unknown>>, change: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete copy[key];
    else copy[key] = value;
  }
  return copy;
}

/** The violations reduced to `rule@field`, the part a test asserts on. */
export function broken(violations: readonly Violation[]): string[] {
  return violations.map((v) => `${v.ruleId}@${v.field}`);
}
