import type { TransportErrorCode } from '../client/exchange.ts';
import { countersUnder, type ArtilleryReport, type ArtillerySummary } from '../load/artillery-report.ts';
import type { ServedLatencyFigures } from '../load/served-latency.ts';
import { statusCounts, type OperationFigures } from './operation-stats.ts';
import { assembleWorkloadReport, type WorkloadReport, type WorkloadReportContext } from './workload-report.ts';
import { WORKLOAD_OPERATION_NAMES, type WorkloadOperationName } from './workload-operations.ts';

const METRICS = 'plugins.metrics-by-endpoint';

/** What a workload report read from Artillery cannot judge. */
export const ARTILLERY_NOT_JUDGED = [
  "latency: Artillery's response times (from the call written to the answer's first byte, every answer, not the 2xx alone)",
  "per second: Artillery keeps counts per reporting period (10 s), not each call's time: no per-second series",
  'flows: Artillery counts completed virtual users over all scenarios, not per scenario',
  "sampled answers and the read-back: Artillery neither judges answers by the spec's rules nor reads back what it wrote",
];

/** Artillery's error codes as clockcheck's transport errors. */
function errorCode(code: string): TransportErrorCode {
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'EXCHANGE_TIMEOUT';
  if (code === 'ECONNREFUSED') return 'CONNECTION_REFUSED';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'CONNECTION_RESET';
  if (code.startsWith('ERR_TLS') || code.includes('CERT')) return 'TLS_ERROR';
  return 'OTHER';
}

function latency(summary: ArtillerySummary | undefined): ServedLatencyFigures | null {
  if (!summary || summary.count === 0) return null;
  const n = (v: number | null | undefined) => v ?? 0;
  return { count: summary.count, mean: n(summary.mean), p50: n(summary.p50 ?? summary.median), p90: n(summary.p90), p95: n(summary.p95), p99: n(summary.p99), max: n(summary.max) };
}

/** One operation's figures from metrics-by-endpoint's counters and its response-time summary. */
function operationFigures(report: ArtilleryReport, name: string, spanMs: number): OperationFigures {
  const a = report.aggregate;
  const codes = countersUnder(a, `${METRICS}.${name}.codes.`);
  const errors = countersUnder(a, `${METRICS}.${name}.errors.`);
  const statuses = [...codes].map(([code, count]) => ({ status: Number(code), count })).filter((s) => Number.isInteger(s.status)).sort((x, y) => x.status - y.status);
  const completed = statuses.reduce((n, s) => n + s.count, 0);
  const errorsBy: Partial<Record<TransportErrorCode, number>> = {};
  for (const [code, count] of errors) errorsBy[errorCode(code)] = (errorsBy[errorCode(code)] ?? 0) + count;
  const counts = statusCounts(statuses, errorsBy);
  return {
    sent: completed + counts.errors,
    completed,
    statuses,
    counts,
    errorsBy,
    latencyServedMs: latency(a.summaries[`${METRICS}.response_time.${name}`]),
    latencyByStatus: [],
    requestsPerSecond: spanMs > 0 ? Math.round((completed / (spanMs / 1000)) * 100) / 100 : 0,
    perSecond: [],
    latencyPerSecond: [],
  };
}

/**
 * The report of an exported workload's Artillery run (`artillery run --output`), per operation:
 * metrics-by-endpoint's codes, errors and response times under each request name (the operation),
 * judged as a workload run is (no 5xx and every request answered per operation, the --ensure
 * thresholds); what Artillery cannot give is listed (ARTILLERY_NOT_JUDGED) and its checks skipped.
 */
export function buildArtilleryWorkloadReport(report: ArtilleryReport, context: Omit<WorkloadReportContext, 'sample' | 'readBack'>): WorkloadReport {
  const a = report.aggregate;
  const durationMs = Math.max(0, a.lastMetricAt - a.firstMetricAt);
  const used = WORKLOAD_OPERATION_NAMES.filter((name) => Object.keys(a.counters).some((k) => k.startsWith(`${METRICS}.${name}.`)));
  const operations = used.map((operation: WorkloadOperationName) => ({ operation, figures: operationFigures(report, operation, durationMs) }));
  const total = operations.reduce<OperationFigures>(
    (t, { figures: f }) => ({
      ...t,
      sent: t.sent + f.sent,
      completed: t.completed + f.completed,
      statuses: mergeStatuses(t.statuses, f.statuses),
      errorsBy: mergeErrors(t.errorsBy, f.errorsBy),
      counts: statusCounts(mergeStatuses(t.statuses, f.statuses), mergeErrors(t.errorsBy, f.errorsBy)),
      requestsPerSecond: Math.round((t.requestsPerSecond + f.requestsPerSecond) * 100) / 100,
    }),
    { sent: 0, completed: 0, statuses: [], counts: { status2xx: 0, status429: 0, status4xx: 0, status5xx: 0, errors: 0, timeouts: 0 }, errorsBy: {}, latencyServedMs: latency(a.summaries['http.response_time']), latencyByStatus: [], requestsPerSecond: 0, perSecond: [], latencyPerSecond: [] },
  );
  const created = (name: string) => a.counters[`vusers.created_by_name.${name}`] ?? 0;
  return assembleWorkloadReport(
    {
      source: 'artillery',
      notJudged: ARTILLERY_NOT_JUDGED,
      durationMs,
      total,
      operations,
      scenarios: context.workload.scenarios.map((s) => ({ name: s.name, weight: s.weight, started: created(s.name), completed: null, stopped: [], cutAtEnd: 0, durationMs: null })),
      arrivals: { scheduled: a.counters['vusers.created'] ?? 0, started: a.counters['vusers.created'] ?? 0, dropped: a.counters['vusers.skipped'] ?? 0 },
      written: { created: {}, edited: {}, notKept: 0 },
      sample: null,
      readBack: null,
    },
    context,
  );
}

function mergeStatuses(a: OperationFigures['statuses'], b: OperationFigures['statuses']): OperationFigures['statuses'] {
  const merged = new Map<number, number>();
  for (const s of [...a, ...b]) merged.set(s.status, (merged.get(s.status) ?? 0) + s.count);
  return [...merged].sort(([x], [y]) => x - y).map(([status, count]) => ({ status, count }));
}

function mergeErrors(a: OperationFigures['errorsBy'], b: OperationFigures['errorsBy']): OperationFigures['errorsBy'] {
  const merged: Partial<Record<TransportErrorCode, number>> = { ...a };
  for (const [code, n] of Object.entries(b) as [TransportErrorCode, number][]) merged[code] = (merged[code] ?? 0) + n;
  return merged;
}
