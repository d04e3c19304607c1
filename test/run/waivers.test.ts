import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyEmbedded } from '../../src/embedded/embedded-target.ts';

const SUITES = join(import.meta.dirname, '../../suites');

describe('a waiver in the profile', () => {
  it("runs the waived rule's checks, reports their failure as waived with the reason, and does not fail the run", async () => {
    const report = await certifyEmbedded(['break-duration-minutes'], {
      suitesDir: SUITES,
      suiteGlob: '**/*.yaml',
      seed: 4,
      budget: 0,
      only: ['BRK-DURATION'],
      waivers: [{ rule: 'BRK-DURATION', reason: 'durations in minutes until v3 (OPS-42)' }],
    });
    const waived = report.checks.filter((c) => c.status === 'waived');
    expect(waived.length).toBeGreaterThan(0);
    for (const check of waived) {
      expect(check.waiver).toEqual({ rule: 'BRK-DURATION', reason: 'durations in minutes until v3 (OPS-42)' });
      expect(check.findings.every((f) => f.ruleId === 'BRK-DURATION')).toBe(true);
    }
    expect(report.summary.failed).toBe(0);
    expect(report.exitCode).toBe(0);
    expect(report.coverage.find((c) => c.rule.id === 'BRK-DURATION')?.outcome).toBe('waived');
  }, 60_000);
});
