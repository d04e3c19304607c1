import { formatDuration } from '../duration.ts';
import { oneLine, painter } from '../report/terminal-text.ts';
import type { OperationFigures } from './operation-stats.ts';
import type { WorkloadReport } from './workload-report.ts';

const MARK = { passed: ['green', '✓'], failed: ['red', '✗'], skipped: ['dim', '-'] } as const;

const ms = (n: number | undefined) => (n === undefined ? '-' : n >= 100 ? n.toFixed(0) : n.toFixed(1));

/** One row of the per-operation table. */
function row(name: string, share: string, f: OperationFigures): string[] {
  const l = f.latencyServedMs;
  return [name, share, String(f.sent), String(f.counts.status2xx), String(f.counts.status4xx), String(f.counts.status429), String(f.counts.status5xx), String(f.counts.errors), ms(l?.p50), ms(l?.p99), ms(l?.max), f.requestsPerSecond.toFixed(1)];
}

/** Columns padded to their widest cell; the first left-aligned, the rest right-aligned. */
function table(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
}

/**
 * The lines printed at the end of a workload run: the arrival, a table per operation (share, sent,
 * statuses, errors, latency of the 2xx, throughput) and the total, each scenario's flows, what was
 * written, the verdict's checks, the report paths, and PASSED or FAILED last.
 */
export function workloadSummary(report: WorkloadReport, options: { readonly color: boolean; readonly paths?: { readonly json: string; readonly html: string } }): string {
  const paint = painter(options.color);
  const w = report.workload;
  const header = ['operation', 'share', 'sent', '2xx', '4xx', '429', '5xx', 'errors', 'p50', 'p99', 'max', 'req/s'];
  const rows = [header, ...report.operations.map((o) => row(o.operation, `${o.share.toFixed(1)}%`, o)), row('total', '100%', report.total)];
  const a = report.arrivals;
  const created = Object.entries(report.written.created).map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  const edited = Object.entries(report.written.edited).map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  // Per operation, the default checks that passed are counted, not listed: the failures and every threshold are.
  const checks = report.verdict.checks.filter((c) => c.operation === null || c.id === 'ensure' || c.status !== 'passed');
  const quiet = report.verdict.checks.length - checks.length;
  const width = Math.max(...checks.map((c) => c.title.length));
  const lines = [
    `${paint('bold', `${report.tool.name} ${report.tool.version} load`)}  workload ${oneLine(w.name, 60)} against ${oneLine(report.target.origin + report.target.apiPrefix, 100)}` + (report.target.embedded ? paint('dim', '  (embedded reference server)') : ''),
    `${w.arrivalText}  ${formatDuration(report.durationMs)}  seed ${w.seed}${w.readOnly ? '  read-only' : ''}`,
    '',
    ...table(rows).map((line, i) => (i === 0 ? paint('dim', line) : line)),
    paint('dim', '  (latency: ms of the 2xx, each timed from its request written to its body read)'),
    '',
    `Flows     ${report.scenarios.map((s) => `${s.name} ${s.completed ?? "?"}/${s.started}${s.stopped.length > 0 ? paint('red', ` (${s.stopped.map((x) => `${x.count} stopped: ${x.reason}`).join('; ')})`) : ''}${s.cutAtEnd > 0 ? ` (${s.cutAtEnd} cut at the end)` : ''}`).join('   ')}`,
    `Arrivals  ${a.scheduled} scheduled  ${a.started} started  ${a.dropped > 0 ? paint('red', `${a.dropped} dropped (max_in_flight flows were in flight)`) : '0 dropped'}`,
    ...(report.source === 'artillery' ? [`Source    Artillery's report (load --workload --from-artillery)`, ...report.notJudged.map((line) => paint('dim', `          not judged: ${line}`))] : []),
    `Written   ${created.length > 0 ? `created ${created.join(', ')}` : 'nothing created'}${edited.length > 0 ? `; edited ${edited.join(', ')}` : ''}`,
    '',
    ...checks.map((c) => `  ${paint(MARK[c.status][0], MARK[c.status][1])} ${c.title.padEnd(width)}  ${paint('dim', c.detail)}`),
    ...(quiet > 0 ? [`  ${paint('green', '✓')} ${paint('dim', `${quiet} more: no 5xx and every request answered, operation by operation`)}`] : []),
    '',
    ...(options.paths ? ['Reports', `  JSON  ${options.paths.json}`, `  HTML  ${options.paths.html}`, ''] : []),
    report.verdict.status === 'passed' ? paint('green', paint('bold', 'PASSED')) : paint('red', paint('bold', 'FAILED')),
  ];
  return `${lines.join('\n')}\n`;
}
