import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderLoadHtml } from './load-html.ts';
import type { LoadReport } from './load-report.ts';

/** File names inside a load run's report directory. */
export const LOAD_REPORT_FILES = { json: 'load.json', html: 'load.html' } as const;

export interface LoadReportPaths {
  readonly json: string;
  readonly html: string;
}

/** load.json: the report as pretty JSON (two-space indent, trailing newline). */
export function renderLoadJson(report: LoadReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** Writes load.json and load.html into `dir` (created when missing) and returns their paths. */
export async function writeLoadReports(report: LoadReport, dir: string): Promise<LoadReportPaths> {
  await mkdir(dir, { recursive: true });
  const paths: LoadReportPaths = { json: join(dir, LOAD_REPORT_FILES.json), html: join(dir, LOAD_REPORT_FILES.html) };
  await Promise.all([writeFile(paths.json, renderLoadJson(report), 'utf8'), writeFile(paths.html, renderLoadHtml(report), 'utf8')]);
  return paths;
}
