import { formatDuration } from '../duration.ts';
import { oneLine, painter } from '../report/terminal-text.ts';
import { LATENCY_PERCENTILES, type LoadReport } from './load-report.ts';
import type { LoadCheckStatus } from './load-verdict.ts';
import type { LoadReportPaths } from './write-load-reports.ts';

const MARK: Readonly<Record<LoadCheckStatus, readonly ['green' | 'red' | 'dim', string]>> = { passed: ['green', '✓'], failed: ['red', '✗'], skipped: ['dim', '-'] };

/**
 * The lines printed at the end of a load run: what was sent, throughput, latency percentiles, the
 * status histogram, the verdict's checks, the report paths, and PASSED or FAILED last.
 */
export function loadSummary(report: LoadReport, options: { readonly color: boolean; readonly paths?: LoadReportPaths }): string {
  const paint = painter(options.color);
  const { options: o, latencyMs: l, counts } = report;
  const shape = `${o.connections} connections · ${o.amount !== null ? `${o.amount} requests` : `${o.durationSeconds} s`} · ${o.rate !== null ? `${o.rate} req/s` : 'unpaced'}`;
  const checkWidth = Math.max(...report.verdict.checks.map((c) => c.title.length));
  const lines = [
    `${paint('bold', `${report.tool.name} ${report.tool.version} load`)}  ${report.endpoint.method} ${oneLine(report.target.origin + report.target.apiPrefix + report.endpoint.path, 120)}` +
      (report.target.embedded ? paint('dim', '  (embedded reference server)') : ''),
    `${shape}  ${formatDuration(report.durationMs)}`,
    '',
    `Requests  ${report.requests.sent} sent   ${report.requests.completed} answered   ${report.requests.unanswered} unanswered   ${report.throughput.requestsPerSecond.toFixed(0)} req/s`,
    `Latency   ${LATENCY_PERCENTILES.map((p) => `${p.label} ${l[p.key]}`).join('  ')}  max ${l.max}  (ms)`,
    ...(report.latencyByStatus.length > 1 ? [`By answer ${report.latencyByStatus.map((s) => `${s.kind} p50 ${s.p50} p99 ${s.p99}`).join('   ')}  (ms)`] : []),
    ...(report.cappedByDuration ? [paint('red', 'Stopped at the hard cap on time: the target stopped answering?')] : []),
    `Statuses  ${report.statuses.length > 0 ? report.statuses.map((s) => `${s.status} ×${s.count}`).join('   ') : 'none'}`,
    `Errors    ${counts.errors > 0 ? paint('red', `${counts.errors} (${counts.timeouts} timeouts)`) : '0'}`,
    '',
    ...report.verdict.checks.map((c) => `  ${paint(MARK[c.status][0], MARK[c.status][1])} ${c.title.padEnd(checkWidth)}  ${paint('dim', c.detail)}`),
    '',
    ...(options.paths ? ['Reports', `  JSON  ${options.paths.json}`, `  HTML  ${options.paths.html}`, ''] : []),
    report.verdict.status === 'passed' ? paint('green', paint('bold', 'PASSED')) : paint('red', paint('bold', 'FAILED')),
  ];
  return `${lines.join('\n')}\n`;
}
