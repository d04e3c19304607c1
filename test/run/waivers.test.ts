import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certify } from '../../src/run/certify.ts';
import { embeddedProfile, startEmbeddedTarget } from '../../src/run/embedded-target.ts';

const SUITES = join(import.meta.dirname, '../../suites');

describe('a waiver in the profile', () => {
  it('runs the waived rule\'s checks, reports their failure as waived with the reason, and does not fail the run', async () => {
    const server = await startEmbeddedTarget(['break-duration-minutes']);
    try {
      const profile = { ...embeddedProfile(server), waivers: [{ rule: 'BRK-DURATION' as const, reason: 'durations in minutes until v3 (OPS-42)' }] };
      const report = await certify({
        origin: server.origin, embedded: true, profile, token: server.token, caPem: server.tls.caPem, insecure: false,
        suitesDir: SUITES, suiteGlob: '**/*.yaml', only: ['BRK-DURATION'], readOnly: false, seed: 4, budget: 0, progress: null, replayBase: 'clockcheck run',
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
    } finally {
      await server.close();
    }
  }, 60_000);
});
