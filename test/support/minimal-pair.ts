import { expect } from 'vitest';
import { violationPairs, violationRules, type Reply } from './reference-client.ts';

/** A baseline payload with one change applied; a key set to undefined is removed (the minimal pair). */
export function withChange(baseline: Record<string, unknown>, change: Record<string, unknown> = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...baseline };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

/** The reference server refused the request with 422, naming `rule` (on `field`, when given). */
export function expectRejected(reply: Reply, rule: string, field?: string): void {
  expect(reply.status, reply.text).toBe(422);
  expect(violationRules(reply)).toContain(rule);
  if (field !== undefined) expect(violationPairs(reply)).toContain(`${rule}@${field}`);
}
