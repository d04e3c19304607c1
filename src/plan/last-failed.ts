import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { REPORT_FILES } from '../report/write-reports.ts';
import { readReportFile, readReportJson, type ReadReport } from './read-report.ts';
import { checksUnder2 } from '../report/legacy-statuses.ts';

/** The part of a report.json that `--last-failed` reads (any schema version since 1.0). */
const ReportHead = z.object({
  schemaVersion: z.string(),
  runId: z.string(),
  seed: z.number().int().nonnegative(),
  startedAt: z.string(),
  target: z.object({ baseUrl: z.string(), embedded: z.boolean() }),
  options: z.object({ budget: z.number().int().nonnegative() }),
  notes: z.array(z.string()).optional(),
  checks: z.array(z.object({ id: z.string(), status: z.string(), reason: z.string().optional(), source: z.object({ kind: z.string(), generator: z.string().optional() }), replay: z.string().optional() })),
});
type ReportHead = z.infer<typeof ReportHead>;

/** The statuses `--last-failed` re-runs: the checks without a pass that the run meant to judge. */
const RERUN: ReadonlySet<string> = new Set(['failed', 'errored', 'not-run']);

/** What `clockcheck run --last-failed` re-runs, and from which report. */
export interface LastFailed {
  /** The report.json it read. */
  readonly reportPath: string;
  readonly runId: string;
  /** The seed of that run: generated cases are the same cases. */
  readonly seed: number;
  /** The checks that failed, errored or were not run there, by ID (for --only). */
  readonly checkIds: readonly string[];
  /** Generated cases each property family sent there, so a re-run family sends the same ones. */
  readonly casesPerFamily: number;
  /**
   * The failing case of each property family that failed there (its path, from the check's replay
   * command), by family name: the re-run replays that case alone, which is what its verdict needs. A
   * family that errored or was not run sends its generated cases again.
   */
  readonly casePaths: Readonly<Record<string, string>>;
}

/** The fast-check path a failed family's replay command names (`--path 5:0:1`), if any. */
function casePathOf(check: ReportHead['checks'][number]): [string, string] | null {
  const path = check.status === 'failed' && check.source.kind === 'property' ? /--path ([0-9]+(?::[0-9]+)*)(?: |$)/.exec(check.replay ?? '')?.[1] : undefined;
  return path !== undefined && check.source.generator !== undefined ? [check.source.generator, path] : null;
}

/** Which target a report must be of: an origin (`https://host:port`), or the embedded server (any port). */
export type ReportTarget = { readonly embedded: true } | { readonly embedded: false; readonly baseUrl: string };

/**
 * Reads the report a `--last-failed` run re-runs: `given` (a report.json or the run directory that
 * holds it), else the newest report in `reportDir` of the same target.
 * @throws UsageError when there is none, it is not a clockcheck report, or it is of another target.
 */
export async function readLastFailed(given: string | undefined, reportDir: string, target: ReportTarget): Promise<LastFailed> {
  const found = given === undefined ? await newestReport(reportDir, target) : await readReportFile(given, ReportHead, '--last-failed');
  if (given !== undefined && !sameTarget(found.report, target)) {
    throw new UsageError(`--last-failed: ${found.path} is a report of ${describe(found.report)}, not of ${target.embedded ? 'the embedded reference server' : target.baseUrl}`);
  }
  const head = found.report;
  const families = head.checks.filter((c) => c.source.kind === 'property').length;
  return {
    reportPath: found.path,
    runId: head.runId,
    seed: head.seed,
    // A 1.x report's checks not run (errored or skipped "over budget" then) are not-run here too.
    checkIds: [...new Set(checksUnder2(head).filter((c) => RERUN.has(c.status)).map((c) => c.id))],
    casesPerFamily: families === 0 ? 0 : Math.floor(head.options.budget / families),
    casePaths: Object.fromEntries(head.checks.map(casePathOf).filter((entry) => entry !== null)),
  };
}

async function newestReport(reportDir: string, target: ReportTarget): Promise<ReadReport<ReportHead>> {
  const runs = await readdir(reportDir, { withFileTypes: true }).catch(() => []);
  let newest: ReadReport<ReportHead> | null = null;
  for (const run of runs) {
    if (!run.isDirectory()) continue;
    const path = join(reportDir, run.name, REPORT_FILES.json);
    const read = await readReportJson(path, ReportHead, '--last-failed').catch(() => null);
    if (read === null || !sameTarget(read.report, target)) continue;
    if (newest === null || read.report.startedAt > newest.report.startedAt) newest = read;
  }
  if (newest === null) {
    throw new UsageError(`--last-failed: no report of ${target.embedded ? 'the embedded reference server' : target.baseUrl} in ${reportDir}; name one: --last-failed REPORT`);
  }
  return newest;
}

function sameTarget(head: ReportHead, target: ReportTarget): boolean {
  return target.embedded ? head.target.embedded : !head.target.embedded && head.target.baseUrl === target.baseUrl;
}

function describe(head: ReportHead): string {
  return head.target.embedded ? 'the embedded reference server' : head.target.baseUrl;
}
