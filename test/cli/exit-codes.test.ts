import { describe, expect, it } from 'vitest';
import { EXIT_CODE_MEANINGS, EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { RUN_EXIT_CODES } from '../../src/report/model.ts';

describe('the exit-code table', () => {
  it('gives every code one meaning, named as its row is', () => {
    const codes = Object.values(EXIT_CODES).map(String);
    expect(Object.keys(EXIT_CODE_MEANINGS).sort()).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
    for (const [name, code] of Object.entries(EXIT_CODES)) {
      const word = name === 'terminated' ? 'interrupted' : name;
      expect(EXIT_CODE_MEANINGS[code], `${code} ${name}`).toMatch(new RegExp(`^${word}: `));
    }
  });

  it("holds every code a run's report can hold, with the same meaning", () => {
    expect(RUN_EXIT_CODES).toEqual({
      passed: EXIT_CODES.passed,
      failed: EXIT_CODES.failed,
      notMade: EXIT_CODES.usage,
      errored: EXIT_CODES.errored,
      internal: EXIT_CODES.internal,
      sigint: EXIT_CODES.interrupted,
      sigterm: EXIT_CODES.terminated,
    });
  });

  it('keeps 3 for errored checks and 128 + the signal number for an interrupted run', () => {
    expect(EXIT_CODES.errored).toBe(3);
    expect(EXIT_CODE_MEANINGS[130]).toContain('SIGINT');
    expect(EXIT_CODE_MEANINGS[143]).toContain('SIGTERM');
  });
});
