import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.ts';
import { REPORT_FILES } from '../report/write-reports.ts';

/** The part of a report.json that `--last-failed` reads (any schema version since 1.0). */
const ReportHead = z.object({
  runId: z.string(),
  seed: z.number().int().nonnegative(),
  startedAt: z.string(),
  target: z.object({ baseUrl: z.string(), embedded: z.boolean() }),
  options: z.object({ budget: z.number().int().nonnegative() }),
  checks: z.array(z.object({ id: z.string(), status: z.string(), source: z.object({ kind: z.string() }) })),
});
type ReportHead = z.infer<typeof ReportHead>;

/** What `clockcheck run --last-failed` re-runs, and from which report. */
export interface LastFailed {
  /** The report.json it read. */
  readonly reportPath: string;
  readonly runId: string;
  /** The seed of that run: generated cases are the same cases. */
  readonly seed: number;
  /** The checks that failed or errored there, by ID (for --only). */
  readonly checkIds: readonly string[];
  /** Generated cases each property family sent there, so a re-run family sends the same ones. */
  readonly casesPerFamily: number;
}

/** Which target a report must be of: an origin (`https://host:port`), or the embedded server (any port). */
export type ReportTarget = { readonly embedded: true } | { readonly embedded: false; readonly baseUrl: string };

/**
 * Reads the report a `--last-failed` run re-runs: `given` (a report.json or the run directory that
 * holds it), else the newest report in `reportDir` of the same target.
 * @throws UsageError when there is none, it is not a clockcheck report, or it is of another target.
 */
export async function readLastFailed(given: string | undefined, reportDir: string, target: ReportTarget): Promise<LastFailed> {
  const found = given === undefined ? await newestReport(reportDir, target) : await readReport(await reportFile(given));
  if (given !== undefined && !sameTarget(found.head, target)) {
    throw new UsageError(`--last-failed: ${found.path} is a report of ${describe(found.head)}, not of ${target.embedded ? 'the embedded reference server' : target.baseUrl}`);
  }
  const { head } = found;
  const families = head.checks.filter((c) => c.source.kind === 'property').length;
  return {
    reportPath: found.path,
    runId: head.runId,
    seed: head.seed,
    checkIds: [...new Set(head.checks.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => c.id))],
    casesPerFamily: families === 0 ? 0 : Math.floor(head.options.budget / families),
  };
}

async function reportFile(given: string): Promise<string> {
  const info = await stat(given).catch(() => null);
  if (info === null) throw new UsageError(`--last-failed: no report at ${given}`);
  return info.isDirectory() ? join(given, REPORT_FILES.json) : given;
}

async function readReport(path: string): Promise<{ path: string; head: ReportHead }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new UsageError(`--last-failed: cannot read ${path}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`--last-failed: ${path} is not JSON`);
  }
  const head = ReportHead.safeParse(json);
  if (!head.success) throw new UsageError(`--last-failed: ${path} is not a clockcheck report.json (${head.error.issues[0]?.path.join('.') ?? ''}: ${head.error.issues[0]?.message ?? ''})`);
  return { path, head: head.data };
}

async function newestReport(reportDir: string, target: ReportTarget): Promise<{ path: string; head: ReportHead }> {
  const runs = await readdir(reportDir, { withFileTypes: true }).catch(() => []);
  let newest: { path: string; head: ReportHead } | null = null;
  for (const run of runs) {
    if (!run.isDirectory()) continue;
    const path = join(reportDir, run.name, REPORT_FILES.json);
    const report = await readReport(path).catch(() => null);
    if (report === null || !sameTarget(report.head, target)) continue;
    if (newest === null || report.head.startedAt > newest.head.startedAt) newest = report;
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
