import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.ts';
import { filesUnder, runClockcheck } from '../support/cli.ts';

async function onlyReport(dir: string): Promise<RunReport> {
  const files = (await filesUnder(dir)).filter((f) => f.endsWith('report.json'));
  expect(files).toHaveLength(1);
  return JSON.parse(await readFile(files[0]!, 'utf8')) as RunReport;
}

describe('clockcheck run against the embedded server: the exit code and the verdict line', () => {
  it('exits 1 with one line when a run judged fewer rules than --min-rules, though nothing failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-min-rules-'));
    const run = await runClockcheck(['run', '--only', 'auth', '--min-rules', '90', '--quiet', '--seed', '3', '--report-dir', dir], process.env);
    const report = await onlyReport(dir);
    expect(report.summary.failed).toBe(0);
    const judged = report.summary.rulesCovered;
    expect(judged).toBeGreaterThan(0);
    expect(judged).toBeLessThan(90);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr.trim().split('\n').filter((line) => line.startsWith('clockcheck:'))).toEqual([`clockcheck: judged ${judged} rules, fewer than --min-rules 90`]);
    expect(run.stdout).toMatch(new RegExp(`^NOT JUDGED ENOUGH  ${judged} of ${report.summary.rulesTotal} rules judged, fewer than --min-rules 90`));
    expect(report).toMatchObject({ exitCode: 1, status: 'complete', options: { minRules: 90 } });
  }, 120_000);

  it('exits 0 for a clean run of the users suite, --min-rules met', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-users-'));
    const run = await runClockcheck(['run', '--only', 'users', '--min-rules', '3', '--quiet', '--seed', '3', '--report-dir', dir], process.env);
    const report = await onlyReport(dir);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^PASSED  ${report.summary.rulesCovered} of ${report.summary.rulesTotal} rules judged`));
    expect(report.summary.rulesCovered).toBeGreaterThanOrEqual(3);
    expect(report.summary.coveredRules).toHaveLength(report.summary.rulesCovered);
    expect(report.exitCode).toBe(0);
  }, 120_000);

  it('refuses a --min-rules that is not a positive whole number', async () => {
    const run = await runClockcheck(['run', '--min-rules', '0'], process.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^clockcheck: .*--min-rules/);
  });
});
