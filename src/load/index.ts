/** The load layer: autocannon runs with the harness's trust, and the `clockcheck load` run, verdict and reports. */
export { runAutocannon, type AutocannonRun, type AutocannonRunOptions, type LoadRequest } from './autocannon-run.ts';
export { describeLoad, parseEndpoint, resolveLoadOptions, type LoadEndpoint, type LoadOptions, type LoadStop } from './load-options.ts';
export { isLoopbackHost } from './loopback.ts';
export { loadRunId, runLoad, type LoadRunOptions } from './load-run.ts';
export { buildLoadReport, LATENCY_PERCENTILES, LOAD_REPORT_SCHEMA_VERSION, type LoadReport } from './load-report.ts';
export { loadVerdict, maxServedCalls, type LoadCheck, type LoadVerdict, type RateLimitWindow } from './load-verdict.ts';
export { renderLoadHtml } from './load-html.ts';
export { loadSummary } from './load-summary.ts';
export { LOAD_REPORT_FILES, renderLoadJson, writeLoadReports, type LoadReportPaths } from './write-load-reports.ts';
