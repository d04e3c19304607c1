import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLastFailed } from '../../src/plan/last-failed.ts';
import { renderJsonReport } from '../../src/report/json-reporter.ts';
import type { CheckResult, CheckStatus } from '../../src/report/model.ts';
import { SAMPLE_BASE_URL, sampleReport, sampleReportOf } from '../report/sample-report.ts';

const target = (baseUrl: string) => ({ embedded: false as const, baseUrl });

describe('readLastFailed', () => {
  it('re-runs the failed, errored and not-run checks of a report, not the passed, skipped or waived ones', async () => {
    const base = sampleReport().checks;
    const extra = (id: string, status: CheckStatus, reason: string): CheckResult => ({ ...base[0]!, id, status, reason, findings: [], exchanges: [] });
    const report = sampleReportOf([...base, extra('users/after-stop', 'not-run', 'not run: the token was refused'), extra('users/cut', 'not-run', 'not run: budget (--within 6m): a full run sends it')]);
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-last-failed-'));
    const file = join(dir, 'report.json');
    await writeFile(file, renderJsonReport(report));
    const last = await readLastFailed(file, dir, target(SAMPLE_BASE_URL));
    expect(last.checkIds).toEqual(['schedules/date-format-rejects-feb-30', 'timesheets/offset-matches-zone', 'breaks/list-by-ids', 'users/after-stop', 'users/cut']);
  });

  it('takes the failing case of each family that failed from its replay command; a family that errored sends its cases again', async () => {
    const base = sampleReport().checks[0]!;
    const family = (name: string, status: CheckStatus, replay: string): CheckResult => ({
      ...base,
      id: `properties/${name}`,
      status,
      source: { kind: 'property', generator: name, seed: 5, path: '' },
      replay,
      findings: [],
      exchanges: [],
    });
    const report = sampleReportOf([
      family('user-password', 'failed', 'clockcheck run --budget 10 --only properties/user-password --seed 3 --path 5:0:0:1:0'),
      family('user-edit', 'errored', 'clockcheck run --budget 10 --only properties/user-edit --seed 3'),
      family('schedule-dates', 'passed', 'clockcheck run --budget 10 --only properties/schedule-dates --seed 3 --path 2:1'),
    ]);
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-last-failed-'));
    const file = join(dir, 'report.json');
    await writeFile(file, renderJsonReport(report));
    const last = await readLastFailed(file, dir, target(SAMPLE_BASE_URL));
    expect(last.checkIds).toEqual(['properties/user-password', 'properties/user-edit']);
    expect(last.casePaths).toEqual({ 'user-password': '5:0:0:1:0' });
  });

  it("reads a 1.7.0 report's checks as 2.0.0 does: what a budget left out (skipped then) is re-run too", async () => {
    const file = fileURLToPath(new URL('../diff/fixtures/report-1.7.0.json', import.meta.url));
    const last = await readLastFailed(file, tmpdir(), target('https://api.example.com'));
    expect(last.checkIds).toEqual(['transport/head-parity-users', 'breaks/list-by-ids', 'schedules/create-minimal', 'schedules/date-format', 'users/password-classes', 'pagination/walk']);
    expect(last.seed).toBe(7);
  });
});
