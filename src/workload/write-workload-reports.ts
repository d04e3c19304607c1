import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LOAD_REPORT_FILES, type LoadReportPaths } from '../load/write-load-reports.ts';
import { renderWorkloadHtml } from './workload-html.ts';
import type { WorkloadReport } from './workload-report.ts';

/** Writes a workload run's load.json and load.html into `dir` (created when missing) and returns their paths. */
export async function writeWorkloadReports(report: WorkloadReport, dir: string): Promise<LoadReportPaths> {
  await mkdir(dir, { recursive: true });
  const paths: LoadReportPaths = { json: join(dir, LOAD_REPORT_FILES.json), html: join(dir, LOAD_REPORT_FILES.html) };
  await Promise.all([writeFile(paths.json, `${JSON.stringify(report, null, 2)}\n`, 'utf8'), writeFile(paths.html, renderWorkloadHtml(report), 'utf8')]);
  return paths;
}
