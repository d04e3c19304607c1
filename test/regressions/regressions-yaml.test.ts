import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_CHECK_NAMES } from '../../src/checks/names.ts';
import type { RunReport } from '../../src/report/model.ts';
import { loadSuites } from '../../src/scenarios/loader.ts';
import { runClockcheck } from '../support/cli.ts';

const FAULTS = ['--fault', 'password-special-not-required', '--fault', 'password-unchecked-on-edit'];
const run = (...args: string[]) => runClockcheck(['run', '--quiet', ...args], process.env);

function onlyRun(dir: string): { dir: string; report: RunReport } {
  const [name] = readdirSync(dir);
  const runDir = join(dir, name!);
  return { dir: runDir, report: JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')) as RunReport };
}

/**
 * A run with two injected faults that two property families catch (one of them edits a user it
 * creates first) writes regressions.yaml; that suite, run as it is, fails on the faulty server and
 * passes on the clean one.
 */
describe('regressions.yaml', () => {
  let work: string;
  let suiteFile: string;
  let failedRun: { dir: string; report: RunReport };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'clockcheck-regressions-'));
    const result = await run(...FAULTS, '--only', 'properties/user-password,properties/user-edit', '--budget', '40', '--seed', '3', '--report-dir', join(work, 'faulty'));
    expect(result.code).toBe(1);
    failedRun = onlyRun(join(work, 'faulty'));
    suiteFile = join(failedRun.dir, 'regressions.yaml');
  }, 90_000);

  it('holds one minimal pair per failing generated case, with its rule, seed and path', async () => {
    expect(existsSync(suiteFile)).toBe(true);
    const scenarios = await loadSuites(failedRun.dir, 'regressions.yaml', BUILTIN_CHECK_NAMES);
    const failed = failedRun.report.checks.filter((c) => c.status === 'failed');
    expect(scenarios).toHaveLength(failed.length);
    const text = readFileSync(suiteFile, 'utf8');
    for (const check of failed) {
      const source = check.source;
      if (source.kind !== 'property') throw new Error('expected property checks');
      const scenario = scenarios.find((s) => s.id === `regressions/${source.generator}-${source.seed}`)!;
      expect(scenario.scenario.rules).toEqual([check.findings[0]!.ruleId]);
      expect(scenario.scenario.title).toContain(`seed ${source.seed}, path ${source.path}`);
      expect(text).toContain(`# ${check.id}, seed ${source.seed}, path ${source.path}`);
      // A minimal pair: the valid baseline, then exactly the password changed.
      const [variant, ...more] = scenario.scenario.pair!.variants;
      expect(more).toEqual([]);
      expect(Object.keys(variant!.set ?? {})).toEqual(['password']);
      expect(variant!.unset).toBeUndefined();
      expect(variant!.expect).toEqual({ status: 'rejected' });
      expect((scenario.scenario.pair!.request.json as Record<string, unknown>).email).toBe('{{ unique.email }}');
    }
    // The edit family's user is created again first, and the edit goes to the new user.
    const edit = scenarios.find((s) => s.id.startsWith('regressions/user-edit-'))!;
    expect(edit.scenario.setup[0]).toMatchObject({ request: { method: 'POST', path: '/users' }, capture: { resource_id: { from: 'created_id' } } });
    expect(edit.scenario.pair!.request.path).toBe('/users/{{ vars.resource_id }}');
  });

  it('fails, run as it is, on the server that still has the faults', async () => {
    const result = await run(...FAULTS, '--suite', suiteFile, '--only', 'regressions', '--report-dir', join(work, 'again'));
    expect(result.code).toBe(1);
    const { report } = onlyRun(join(work, 'again'));
    expect(report.checks.map((c) => [c.id.split('-')[0], c.status])).toEqual([
      ['regressions/user', 'failed'],
      ['regressions/user', 'failed'],
    ]);
    // Each replayed case fails the rule its run found (user-edit's first failure, with the edges sent first, is a 5-character password).
    const found = failedRun.report.checks.filter((c) => c.status === 'failed').map((c) => c.findings[0]!.ruleId);
    expect(report.checks.flatMap((c) => c.findings.map((f) => f.ruleId)).sort()).toEqual(found.sort());
    expect(found.sort()).toEqual(['USR-PASSWORD-CLASSES', 'USR-PASSWORD-LENGTH']);
  }, 60_000);

  it('passes on the fixed server, and a run without failures writes no regressions.yaml', async () => {
    const result = await run('--suite', suiteFile, '--only', 'regressions', '--report-dir', join(work, 'fixed'));
    expect(result.code).toBe(0);
    const { dir, report } = onlyRun(join(work, 'fixed'));
    expect(report.checks.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect(existsSync(join(dir, 'regressions.yaml'))).toBe(false);
  }, 60_000);
});

describe('regressions.yaml of a failed scenario', () => {
  it('keeps the baseline and only the variants that failed, and runs as it is: fails with the fault, passes without', async () => {
    const work = await mkdtemp(join(tmpdir(), 'clockcheck-regressions-variant-'));
    const fault = ['--fault', 'date-format-lenient'];
    expect((await run(...fault, '--only', 'schedules/date-format', '--budget', '0', '--seed', '4', '--report-dir', join(work, 'a'))).code).toBe(1);
    const { dir, report } = onlyRun(join(work, 'a'));
    const original = (await loadSuites(join(import.meta.dirname, '../../suites'), '**/*.yaml', BUILTIN_CHECK_NAMES)).find((s) => s.id === 'schedules/date-format')!;
    const [regression, ...more] = await loadSuites(dir, 'regressions.yaml', BUILTIN_CHECK_NAMES);
    expect(more).toEqual([]);
    expect(regression!.id).toBe('regressions/schedules-date-format');
    expect(regression!.scenario.pair!.request).toEqual(original.scenario.pair!.request);
    const failedWhys = report.checks[0]!.findings.map((f) => /\(([^()]*)\)$/.exec(f.expected)![1]);
    expect(regression!.scenario.pair!.variants.map((v) => v.why).sort()).toEqual([...new Set(failedWhys)].sort());
    expect(regression!.scenario.pair!.variants.length).toBeLessThan(original.scenario.pair!.variants.length);
    const file = join(dir, 'regressions.yaml');
    expect((await run(...fault, '--suite', file, '--only', 'regressions', '--report-dir', join(work, 'b'))).code).toBe(1);
    expect((await run('--suite', file, '--only', 'regressions', '--report-dir', join(work, 'c'))).code).toBe(0);
  }, 90_000);
});
