import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckResult, RunReport } from '../../src/report/model.ts';
import { runClockcheck } from '../support/cli.ts';

/** The reports in `dir`, oldest first. */
async function reports(dir: string): Promise<RunReport[]> {
  const runs = await readdir(dir);
  const all = await Promise.all(runs.map(async (run) => JSON.parse(await readFile(join(dir, run, 'report.json'), 'utf8')) as RunReport));
  return all.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

const run = (...args: string[]) => runClockcheck(['run', '--quiet', ...args], process.env);

describe('clockcheck run --last-failed', () => {
  it('re-runs only what failed, with the same seed; a failed family replays its failing case alone, until the fix is confirmed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-last-failed-'));
    // A fault a scenario and a generated case both catch; the other checks of the selection pass.
    const first = await run('--fault', 'offset-dst-blind', '--only', 'properties/timesheet-offsets,timesheets,auth/raw-token-accepted', '--budget', '40', '--seed', '11', '--report-dir', dir);
    expect(first.code).toBe(1);
    const [original] = await reports(dir);
    const failed = original!.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
    expect(failed.map((c) => c.id)).toContain('properties/timesheet-offsets');
    expect(original!.checks.length).toBeGreaterThan(failed.length);

    const again = await run('--fault', 'offset-dst-blind', '--last-failed', '--report-dir', dir);
    expect(again.code).toBe(1);
    const rerun = (await reports(dir))[1]!;
    expect(rerun.options.rerunOf).toBe(original!.runId);
    expect(rerun.seed).toBe(11);
    expect(rerun.checks.map((c) => c.id).sort()).toEqual(failed.map((c) => c.id).sort());
    expect(rerun.notes.join('\n')).toContain(`re-ran the checks that failed, errored or were not run in run ${original!.runId}`);
    const family = (report: RunReport) => report.checks.find((c) => c.id === 'properties/timesheet-offsets')!;
    // The family replays the failing case its replay command named (the same seed and path), and
    // fails on the same counterexample; exchange IDs are each run's own numbering.
    const failingPath = /--path (\S+)/.exec(family(original!).replay)![1]!;
    const where = (c: CheckResult) => {
      if (c.source.kind !== 'property') return c.source;
      const { baselineExchangeId: _b, setupExchangeId: _s, counterexample, path: _p, ...rest } = c.source;
      return { ...rest, counterexample: counterexample && { label: counterexample.label, breaks: counterexample.breaks } };
    };
    expect(family(rerun).status).toBe('failed');
    expect(family(rerun).source).toMatchObject({ path: failingPath });
    expect(where(family(rerun))).toEqual(where(family(original!)));
    const sent = family(original!).exchanges.map((e) => e.request.body);
    expect(family(rerun).exchanges.length).toBeLessThanOrEqual(2); // the family's setup record, the failing case
    expect(sent).toContain(family(rerun).exchanges.at(-1)!.request.body);
    expect(rerun.requests.made).toBeLessThan(original!.requests.made / 2);

    // The fault fixed: the newest report of the embedded target is re-run, and passes.
    const fixed = await run('--last-failed', '--report-dir', dir);
    expect(fixed.code).toBe(0);
    const confirmed = (await reports(dir))[2]!;
    expect(confirmed.options.rerunOf).toBe(rerun.runId);
    expect(confirmed.checks.every((c) => c.status === 'passed')).toBe(true);
    expect(confirmed.requests.made).toBeLessThan(original!.requests.made);

    // Nothing left to re-run: said so, nothing sent.
    const nothing = await run('--last-failed', '--report-dir', dir);
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toContain('nothing to re-run');
    expect(await reports(dir)).toHaveLength(3);
  }, 120_000);

  it('refuses a report of another target, a missing one, and --only or --seed beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-last-failed-'));
    const none = await run('--last-failed', '--report-dir', dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no report of the embedded reference server');
    expect((await run('--last-failed', '--seed', '3')).code).toBe(2);
    expect((await run('--last-failed', '--only', 'auth')).code).toBe(2);
    expect((await run('--last-failed', join(dir, 'nope'))).code).toBe(2);
    expect((await run('stray-argument')).code).toBe(2);
  }, 60_000);
});
