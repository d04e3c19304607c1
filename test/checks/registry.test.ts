import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { BUILTIN_CHECKS, estimateCheckRequests } from '../../src/checks/registry.ts';

describe('the built-in check registry', () => {
  it('has one check, with its declared arguments, for every name scenarios may use, and no other', () => {
    expect(Object.keys(BUILTIN_CHECKS).sort()).toEqual([...BUILTIN_CHECK_NAMES].sort());
    expect(Object.values(BUILTIN_CHECKS).every((check) => typeof check.run === 'function' && check.args instanceof z.ZodType)).toBe(true);
  });

  it('estimates the requests of each check for the plan', () => {
    expect(estimateCheckRequests('page-size-limit', {})).toBe(2);
    expect(estimateCheckRequests('page-size-limit', { sizes: [101, 500, 1000] })).toBe(3);
    expect(estimateCheckRequests('head-parity', {})).toBe(2);
    expect(estimateCheckRequests('sorted', {})).toBe(1);
    expect(estimateCheckRequests('duration-matches', {})).toBe(0);
    expect(estimateCheckRequests('no-such-check', {})).toBe(0);
  });
});
