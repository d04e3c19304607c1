import { resolve } from 'node:path';
import { Redactor } from '../../../client/redaction.ts';
import { readJsonFile, type JsonFileRole } from '../../../input/json-file.ts';
import { artilleryEndpoint } from '../../../load/artillery-endpoint.ts';
import { artilleryReportSchema } from '../../../load/artillery-report.ts';
import { buildArtilleryLoadReport } from '../../../load/from-artillery.ts';
import type { LoadOptions } from '../../../load/load-options.ts';
import { loadRunId } from '../../../load/load-run.ts';
import { loadSummary } from '../../../load/load-summary.ts';
import { writeLoadReports } from '../../../load/write-load-reports.ts';
import type { Profile } from '../../../profile/profile.ts';
import { toolVersion } from '../../../version.ts';
import { useColor } from '../../color.ts';
import { judgedRateLimit, refuseEmbeddedOptions } from './load-target.ts';
import type { LoadValues } from './load-values.ts';
import type { ResolvedWorkload } from './resolve-workload.ts';
import { scriptOrigin } from './script-origin.ts';

/** How `--from-artillery` names its file in every error about it (exit 2, one line). */
const ARTILLERY_REPORT_ROLE: JsonFileRole = {
  reader: 'load --from-artillery',
  what: 'an Artillery JSON report',
  hint: 'give the file `artillery run --output FILE` wrote',
  code: 'CLOCKCHECK_REPORT',
  // What is kept is counters and summaries, never the serialized histograms: a few kilobytes a period.
  maxKeptBytes: 64 * 1024 * 1024,
};

/**
 * `--from-artillery REPORT.json`: Artillery's report as load.json and load.html, judged as load judges; nothing is sent.
 * @returns the exit code of the verdict: 0 every check and threshold met, 1 otherwise.
 * @throws UsageError with an embedded server's option; ClockcheckError naming the file when it cannot be read (CLOCKCHECK_INPUT_FILE) or is not an Artillery report (CLOCKCHECK_REPORT).
 */
export async function fromArtillery(values: LoadValues, options: LoadOptions, profile: Profile): Promise<number> {
  refuseEmbeddedOptions(values, '--from-artillery');
  const file = values['from-artillery'] as string;
  const report = await readJsonFile(file, artilleryReportSchema, ARTILLERY_REPORT_ROLE);
  const given = values.endpoint === undefined ? undefined : options.endpoint;
  const endpoint = artilleryEndpoint(report.aggregate, given, profile.api_prefix, file);
  const target = values.target ?? profile.target;
  // As for a run: a token pasted into the endpoint (here, into a request's name) is redacted wherever it is shown.
  const envToken = process.env[profile.token_env];
  const redact = envToken ? (text: string) => new Redactor(envToken).text(text) : (text: string) => text;
  const runId = loadRunId(new Date(report.aggregate.firstMetricAt));
  const loadReport = buildArtilleryLoadReport(report, {
    runId,
    toolVersion: toolVersion(),
    origin: target ? scriptOrigin(target, profile, true) : 'unknown',
    apiPrefix: profile.api_prefix,
    options: { ...options, endpoint: { ...endpoint, path: redact(endpoint.path) } },
    rateLimit: judgedRateLimit(values, profile, false),
  });
  const paths = await writeLoadReports(loadReport, resolve(values['report-dir'], runId));
  process.stdout.write(redact(loadSummary(loadReport, { color: useColor(process.stdout), paths })));
  return loadReport.exitCode;
}

/**
 * `load --workload … --from-artillery REPORT.json`: an exported workload's Artillery run, per operation, judged as a workload run; nothing is sent.
 * @returns the exit code of the verdict: 0 every check and threshold met, 1 otherwise.
 * @throws UsageError with an embedded server's option; ClockcheckError naming the file when it cannot be read (CLOCKCHECK_INPUT_FILE) or is not an Artillery report (CLOCKCHECK_REPORT).
 */
export async function workloadFromArtillery(values: LoadValues, profile: Profile, { workload, ensure }: ResolvedWorkload): Promise<number> {
  refuseEmbeddedOptions(values, '--from-artillery');
  const report = await readJsonFile(values['from-artillery'] as string, artilleryReportSchema, ARTILLERY_REPORT_ROLE);
  // The workload's modules load only with --workload: a one-endpoint report does without them.
  const { buildArtilleryWorkloadReport } = await import('../../../workload/from-artillery-workload.ts');
  const { writeWorkloadReports } = await import('../../../workload/write-workload-reports.ts');
  const { workloadSummary } = await import('../../../workload/workload-summary.ts');
  const target = values.target ?? profile.target;
  const runId = loadRunId(new Date(report.aggregate.firstMetricAt));
  const built = buildArtilleryWorkloadReport(report, {
    runId,
    toolVersion: toolVersion(),
    origin: target ? scriptOrigin(target, profile, true) : 'unknown',
    apiPrefix: profile.api_prefix,
    embedded: false,
    workload,
    seed: values.seed ?? 0,
    readOnly: values['read-only'],
    ensure,
    rateLimit: null,
    startedAtMs: report.aggregate.firstMetricAt,
    finishedAtMs: report.aggregate.lastMetricAt,
  });
  const paths = await writeWorkloadReports(built, resolve(values['report-dir'], runId));
  const envToken = process.env[profile.token_env];
  const text = workloadSummary(built, { color: useColor(process.stdout), paths });
  process.stdout.write(envToken ? new Redactor(envToken).text(text) : text);
  return built.exitCode;
}
