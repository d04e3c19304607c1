import { formatDuration } from '../duration.ts';
import { oneLine, painter } from '../report/terminal-text.ts';
import { LATENCY_PERCENTILES, notJudgedBeyondVerdict, type LoadReport } from './load-report.ts';
import type { LoadCheckStatus } from './load-verdict.ts';
import type { LoadReportPaths } from './write-load-reports.ts';

const MARK: Readonly<Record<LoadCheckStatus, readonly ['green' | 'red' | 'dim', string]>> = { passed: ['green', '✓'], failed: ['red', '✗'], skipped: ['dim', '-'] };

/** `10 sent   1 answered   9 unanswered (9 held until the run stopped)`, and the calls a timed run cut off. */
function requestsLine(report: LoadReport, paint: ReturnType<typeof painter>): string {
  const r = report.requests;
  const by = r.unansweredBy;
  const parts = [
    ...(by.timedOut > 0 ? [`${by.timedOut} timed out`] : []),
    ...(by.lostWithConnection > 0 ? [`${by.lostWithConnection} lost with their connection`] : []),
    ...(by.heldToEnd > 0 ? [`${by.heldToEnd} held until the run stopped`] : []),
  ];
  const unanswered = r.unanswered > 0 ? paint('red', `${r.unanswered} unanswered (${parts.join(', ')})`) : '0 unanswered';
  const cut = r.cutOffAtEnd > 0 ? `   ${r.cutOffAtEnd} cut off when the time was up (not judged)` : '';
  return `${r.sent} sent   ${r.completed} answered   ${unanswered}${cut}`;
}

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
    `Requests  ${requestsLine(report, paint)}   ${report.throughput.requestsPerSecond.toFixed(0)} req/s`,
    `Latency   ${LATENCY_PERCENTILES.flatMap((p) => (l[p.key] === null ? [] : [`${p.label} ${l[p.key]}`])).join('  ')}  max ${l.max}  (ms, every response)`,
    ...(report.latencyServedMs ? [`Served    ${(['p50', 'p90', 'p95', 'p99', 'max', 'mean'] as const).map((k) => `${k} ${report.latencyServedMs?.[k]}`).join('  ')}  (ms, the ${report.latencyServedMs.count} 2xx, ${report.source === 'artillery' ? "Artillery's http.response_time.2xx" : 'each timed'})`] : []),
    ...(report.latencyByStatus.length > 1 ? [`By answer ${report.latencyByStatus.map((s) => `${s.kind} p50 ${s.p50} p99 ${s.p99}`).join('   ')}  (ms)`] : []),
    ...(report.cappedByDuration ? [paint('red', 'Stopped at the hard cap on time: the target stopped answering?')] : []),
    `Statuses  ${report.statuses.length > 0 ? report.statuses.map((s) => `${s.status} ×${s.count}`).join('   ') : 'none'}${counts.non2xx > 0 ? `   (${counts.non2xx} non-2xx, ${counts.non2xxExcept429} besides 429)` : ''}`,
    `Errors    ${counts.errors > 0 ? paint('red', `${counts.errors} (${counts.timeouts} timeouts)`) : '0 (0 timeouts)'}`,
    ...(report.source === 'artillery' ? [`Source    Artillery's report (load --from-artillery)`, ...notJudgedBeyondVerdict(report).map((line) => paint('dim', `          not judged: ${line}`))] : []),
    '',
    ...report.verdict.checks.map((c) => `  ${paint(MARK[c.status][0], MARK[c.status][1])} ${c.title.padEnd(checkWidth)}  ${paint('dim', c.detail)}`),
    '',
    ...(options.paths ? ['Reports', `  JSON  ${options.paths.json}`, `  HTML  ${options.paths.html}`, ''] : []),
    report.verdict.status === 'passed' ? paint('green', paint('bold', 'PASSED')) : paint('red', paint('bold', 'FAILED')),
  ];
  return `${lines.join('\n')}\n`;
}
