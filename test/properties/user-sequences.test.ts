import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { regressionSuite } from '../../src/regressions/regression-suite.ts';
import { certifyEmbedded, type EmbeddedCertification } from '../../src/embedded/embedded-target.ts';
import { USER_SEQUENCES_ID } from '../../src/properties/user-sequences.ts';
import type { RunReport } from '../../src/report/model.ts';

const SUITES = join(import.meta.dirname, '../../suites');
const options: EmbeddedCertification = { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 3, budget: 550, bursts: false, only: [USER_SEQUENCES_ID] };
const sequences = (report: RunReport) => report.checks.find((c) => c.id === USER_SEQUENCES_ID)!;
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe('properties/user-sequences: random sequences of user calls against a model of what they wrote', () => {
  it('passes a server that stores every write, within its request cap', async () => {
    const check = sequences(await certifyEmbedded([], options));
    expect(check).toMatchObject({ status: 'passed', findings: [] });
    expect(check.reason).toMatch(/^16 sequences of up to 8 calls agreed with the model \(\d+ requests\)$/);
    expect(Number(/\((\d+) requests\)/.exec(check.reason!)![1])).toBeLessThanOrEqual(64);
  });

  it('finds an edit that is not stored, shrinks it to create → edit → a read, and writes a regression that fails on that server and passes on a clean one', async () => {
    const report = await certifyEmbedded(['user-edit-fillable'], options);
    const check = sequences(report);
    expect(check.status).toBe('failed');
    expect(check.findings.map((f) => f.ruleId)).toEqual(['STORE-EDIT']);
    // The shortest sequence that shows it: two calls are needed (an edit, then a read), and the user the edit needs.
    expect(check.reason).toMatch(/^shrunk to 3 calls: create user 1 → edit user 1 → (read user 1|filter by role \d: user 1 (not )?listed) \(\d+ requests in \d+ sequences\)$/);
    expect(check.source).toMatchObject({ kind: 'property', generator: 'user-sequences', sequence: [{ name: 'create user 1' }, { name: 'edit user 1' }, {}] });

    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-sequence-'));
    dirs.push(dir);
    await writeFile(join(dir, 'regressions.yaml'), regressionSuite(report)!);
    const replay: EmbeddedCertification = { ...options, suitesDir: dir, suiteGlob: 'regressions.yaml', only: ['regressions'] };
    const [onFault, onClean] = [await certifyEmbedded(['user-edit-fillable'], replay), await certifyEmbedded([], replay)];
    const regression = (r: RunReport) => r.checks.filter((c) => c.id.startsWith('regressions/'));
    expect(regression(onFault).map((c) => c.status)).toEqual(['failed']);
    expect(regression(onClean).map((c) => c.status)).toEqual(['passed']);
  });

  it('finds a date_range that leaves out its end date after a timesheet create, and its regression replays it with a membership check', async () => {
    const seeded = { ...options, seed: 2 };
    const report = await certifyEmbedded(['date-range-end-exclusive'], seeded);
    const check = sequences(report);
    expect(check.status).toBe('failed');
    expect(check.findings.map((f) => f.ruleId)).toEqual(['DATE-RANGE']);
    // The embedded profile reads the ends as inclusive: a timesheet on the range's end date must be listed.
    expect(check.findings[0]!.expected).toMatch(/^date_range=(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2}) lists timesheet 1 \(\d+, on (\1|\2)\): an end date, and the profile reads the ends as inclusive \(§4\.6\)$/);
    expect(check.reason).toMatch(/^shrunk to 3 calls: create user 1 → create timesheet 1 for user 1 on \d{4}-\d{2}-\d{2} → list timesheets with date_range /);

    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-sequence-'));
    dirs.push(dir);
    await writeFile(join(dir, 'regressions.yaml'), regressionSuite(report)!);
    const replay: EmbeddedCertification = { ...seeded, suitesDir: dir, suiteGlob: 'regressions.yaml', only: ['regressions'] };
    const [onFault, onClean] = [await certifyEmbedded(['date-range-end-exclusive'], replay), await certifyEmbedded([], replay)];
    const regression = (r: RunReport) => r.checks.filter((c) => c.id.startsWith('regressions/'));
    expect(regression(onFault).map((c) => [c.status, c.findings.map((f) => f.ruleId)])).toEqual([['failed', ['DATE-RANGE']]]);
    expect(regression(onClean).map((c) => c.status)).toEqual(['passed']);
  });
});
