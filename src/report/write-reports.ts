import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CurlTlsOptions } from './curl.ts';
import { harOfReport, renderHar, type HarOptions } from './har.ts';
import { renderHtmlReport } from './html-reporter.ts';
import { renderJsonReport } from './json-reporter.ts';
import { renderJunitReport } from './junit-reporter.ts';
import type { RunReport } from './model.ts';
import { LARGE_BODIES } from '../client/large-body-collector.ts';

/** Where writeReports put the files. */
export interface ReportPaths {
  readonly json: string;
  readonly html: string;
  readonly junit: string;
  /** exchanges.har, when asked for (`run --har`). */
  readonly har?: string;
  /** regressions.yaml, when the run had failing generated cases (written by the CLI, src/regressions). */
  readonly regressions?: string;
}

/** File names inside the report directory. */
export const REPORT_FILES = { json: 'report.json', html: 'report.html', junit: 'junit.xml', har: 'exchanges.har' } as const;

/** What writeReports writes besides the three reports. */
export interface ExtraReports {
  /** Also write exchanges.har (report/har.ts), with these options; absent: no HAR. */
  readonly har?: HarOptions;
}

/**
 * Writes report.json, report.html and junit.xml into `dir` (created when missing; existing files
 * are replaced), and exchanges.har when `extra.har` is given, and returns their paths. `options`
 * says how the curl commands in the HTML and JUnit reports trust the target's certificate.
 */
export async function writeReports(report: RunReport, dir: string, options: CurlTlsOptions, extra: ExtraReports = {}): Promise<ReportPaths> {
  await mkdir(dir, { recursive: true });
  const paths: ReportPaths = {
    json: join(dir, REPORT_FILES.json),
    html: join(dir, REPORT_FILES.html),
    junit: join(dir, REPORT_FILES.junit),
    ...(extra.har ? { har: join(dir, REPORT_FILES.har) } : {}),
  };
  // One at a time, with the garbage of the run (large bodies) and of each text collected before the
  // next is rendered: a report of a few thousand exchanges is megabytes of text three times over,
  // and its rendering several times that in garbage.
  await writeText(paths.json, () => renderJsonReport(report));
  await writeText(paths.html, () => renderHtmlReport(report, options));
  await writeText(paths.junit, () => renderJunitReport(report, options));
  if (paths.har !== undefined) await writeText(paths.har, () => renderHar(harOfReport(report, extra.har)));
  return paths;
}

async function writeText(path: string, render: () => string): Promise<void> {
  LARGE_BODIES.settle();
  const text = render();
  await writeFile(path, text, 'utf8');
  LARGE_BODIES.note(text.length);
}
