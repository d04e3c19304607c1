import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { EmbeddedProcess } from '../../../embedded/embedded-process.ts';
import type { Profile } from '../../../profile/profile.ts';
import type { RunReport } from '../../../report/model.ts';
import type { ExtraReports, ReportPaths } from '../../../report/write-reports.ts';
import { loadSuites } from '../../../scenarios/loader.ts';
import { BUILTIN_CHECK_NAMES } from '../../../checks/names.ts';
import type { RunInput } from './run-input.ts';

/** What failed in a run, as a suite, beside its reports (src/regressions). */
const REGRESSIONS_FILE = 'regressions.yaml';

/** report.json, report.html, junit.xml (and the embedded server's CA, and exchanges.har with --har) in <report-dir>/<run-id>/, and regressions.yaml when something failed. */
export async function writeRunReports(run: RunInput, report: RunReport, profile: Profile, server: EmbeddedProcess | null, extra: ExtraReports): Promise<ReportPaths> {
  const [{ writeReports }, { regressionSuite }] = await Promise.all([import('../../../report/write-reports.ts'), import('../../../regressions/regression-suite.ts')]);
  const { selection } = run;
  const dir = resolve(run.output.reportDir, report.runId);
  await mkdir(dir, { recursive: true });
  let caFile = run.access.ca ?? profile.tls.ca;
  if (server) {
    caFile = join(dir, 'ca.pem');
    await writeFile(caFile, server.caPem);
  }
  const paths = await writeReports(report, dir, { ...(caFile ? { caFile } : {}), insecure: run.access.insecure || profile.tls.insecure }, extra);
  // A failed scenario's definition goes into regressions.yaml: the suites as this run read them.
  const failedScenarios = report.checks.some((c) => c.status === 'failed' && c.source.kind === 'scenario');
  const regressions = regressionSuite(report, failedScenarios ? await loadSuites(selection.suitesDir, selection.suiteGlob, BUILTIN_CHECK_NAMES) : []);
  if (regressions === null) return paths;
  const file = join(dir, REGRESSIONS_FILE);
  await writeFile(file, regressions, 'utf8');
  return { ...paths, regressions: file };
}
