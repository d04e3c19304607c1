import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import { regressionSuite } from '../../src/regressions/regression-suite.ts';
import { loadSuites } from '../../src/scenarios/loader.ts';
import { sampleReport } from '../report/sample-report.ts';

describe('regressionSuite', () => {
  it('is null for a run without a failure it can write', () => {
    const report = sampleReport();
    expect(regressionSuite({ ...report, checks: report.checks.filter((c) => c.status !== 'failed') })).toBeNull();
  });

  it('writes a failing case with no accepted baseline as one request with its expectation, and the file loads as a suite', async () => {
    const text = regressionSuite(sampleReport())!;
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-regression-unit-'));
    await writeFile(join(dir, 'regressions.yaml'), text);
    const [scenario, ...more] = await loadSuites(dir, 'regressions.yaml', BUILTIN_CHECK_NAMES);
    // The sample's scenario failure has no loaded definition here: only the generated case is written.
    expect(more).toEqual([]);
    expect(scenario!.id).toBe('regressions/timesheet-with-wrong-offset-1234567');
    expect(scenario!.scenario.rules).toEqual(['ERR-NO-SERVER-ERROR']);
    expect(scenario!.scenario.steps).toEqual([
      expect.objectContaining({ request: expect.objectContaining({ method: 'POST', path: '/timesheets' }), expect: { status: 'rejected', rule: 'ERR-NO-SERVER-ERROR' } }),
    ]);
    expect(text).toContain('# timesheets/offset-matches-zone, seed 1234567, path 12:0:3');
  });
});
