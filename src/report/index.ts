/** The report layer: the result model and the writers that render it. Reporters only read. */
export * from './model.ts';
export { curlCommand, TOKEN_VARIABLE, type CurlTlsOptions } from './curl.ts';
export { renderJsonReport } from './json-reporter.ts';
export { renderHtmlReport } from './html-reporter.ts';
export { renderJunitReport } from './junit-reporter.ts';
export { summaryTable, verdictSummary, type SummaryTableOptions } from './terminal-reporter.ts';
export { writeReports, REPORT_FILES, type ReportPaths } from './write-reports.ts';
