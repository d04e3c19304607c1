import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runClockcheck } from '../support/cli.ts';

/** `selftest --max-requests N`: each fault certified with the checks a run within N requests chooses, and the share caught. */
async function selftestWithin(budget: readonly string[], faults: readonly string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'clockcheck-selftest-'));
  // Bursts at 60 per 3 s: their timing stays certain while other tests keep the cores busy (at 60 per second it errored under a loaded npm test).
  const args = ['selftest', '--dialect', 'standard', ...budget, '--burst-window', '3s', '--report-dir', dir, ...faults.flatMap((f) => ['--fault', f])];
  const result = await runClockcheck(args, process.env);
  const [file] = (await readdir(dir)).filter((f) => f.startsWith('selftest-'));
  const report = JSON.parse(await readFile(join(dir, file!), 'utf8')) as {
    passed: boolean;
    dialects: { budget: { maxRequests?: number; withinMs?: number; checks: number; requests: number; etaMs: number }; detections: { fault: string; verdict: string; ruleChecks?: string[] }[] }[];
  };
  return { result, report };
}

describe('selftest --max-requests', () => {
  it('certifies each fault with what the budget chose: 360 requests keep the rate-limit phase, one minute leaves it out and its fault is missed, not failed', async () => {
    const [wide, narrow] = await Promise.all([selftestWithin(['--max-requests', '360'], ['rate-limit-off', 'malformed-json-500']), selftestWithin(['--within', '1m'], ['rate-limit-off'])]);
    expect(wide.result.code, wide.result.stderr).toBe(0);
    expect(wide.report.dialects[0]!.budget).toMatchObject({ maxRequests: 360 });
    expect(wide.report.dialects[0]!.budget.requests).toBeLessThanOrEqual(360);
    expect(Object.fromEntries(wide.report.dialects[0]!.detections.map((d) => [d.fault, d.verdict]))).toEqual({ 'rate-limit-off': 'caught', 'malformed-json-500': 'caught' });
    expect(wide.result.stdout).toContain('Within --max-requests 360 (as a run at 60 a minute chooses):');
    expect(wide.result.stdout).toMatch(/fault certifications caught: 2 of 2 \(100\.0 %\)/);
    // rate-limit-off is the first fault of the catalog (the fitted half), malformed-json-500 the 14th (held out).
    expect(wide.result.stdout).toMatch(/on the half the budget's order is fitted on: 1 of 1/);
    expect(wide.result.stdout).toMatch(/on the held-out half: 1 of 1/);

    // A missed fault is the measure within a budget: the clean server passed, so the selftest did.
    expect(narrow.result.code, narrow.result.stderr).toBe(0);
    expect(narrow.report.passed).toBe(true);
    expect(narrow.report.dialects[0]!.budget).toMatchObject({ withinMs: 60_000 });
    expect(narrow.report.dialects[0]!.budget.etaMs).toBeLessThanOrEqual(60_000);
    expect(narrow.result.stdout).toContain('Within --within 1 min 00 s (as a run at 60 a minute chooses):');
    // No check of the phase ran (the run-wide monitor, which judges the paced calls only, passed them).
    expect(narrow.report.dialects[0]!.detections).toEqual([expect.objectContaining({ fault: 'rate-limit-off', verdict: 'missed' })]);
    expect((narrow.report.dialects[0]!.detections[0]?.ruleChecks ?? []).filter((c: string) => /^rate-limit\/(boundary|reset|sliding)/.test(c))).toEqual([]);
    expect(narrow.result.stdout).toMatch(/fault certifications caught: 0 of 1 \(0\.0 %\)/);
  }, 120_000);
});
