import { counter, countersUnder, type ArtilleryPeriod, type ArtilleryReport, type ArtillerySummary } from '../artillery-report.ts';
import type { StatusLatency } from '../latency-by-status.ts';
import type { LatencyFigures, LoadReport } from '../load-report.ts';
import type { ServedLatencyFigures } from '../served-latency.ts';

/** The error codes Artillery's http engine (got) gives a call with no complete answer within `http.timeout`. */
const TIMEOUT_CODES = ['ETIMEDOUT', 'ESOCKETTIMEDOUT'] as const;

/** Artillery's reporting period: its `intermediate` entries are this long (the last one shorter). */
const ARTILLERY_PERIOD_MS = 10_000;

const round = (n: number) => Math.round(n * 100) / 100;

/** Responses per status code, from the `http.codes.NNN` counters. */
export function statusesOf(aggregate: ArtilleryPeriod): Map<number, number> {
  const statuses = new Map<number, number>();
  for (const [code, n] of countersUnder(aggregate, 'http.codes.')) {
    if (/^\d{3}$/.test(code)) statuses.set(Number(code), n);
  }
  return statuses;
}

/** Every `errors.*` counter (transport errors, timeouts among them) and the timeouts alone. */
export function errorsOf(aggregate: ArtilleryPeriod): { readonly errors: number; readonly timeouts: number } {
  let errors = 0;
  let timeouts = 0;
  for (const [code, n] of countersUnder(aggregate, 'errors.')) {
    errors += n;
    if ((TIMEOUT_CODES as readonly string[]).includes(code)) timeouts += n;
  }
  return { errors, timeouts };
}

/** A figure of a summary, or null when Artillery did not compute it (absent, or NaN written as null). */
function figure(summary: ArtillerySummary | undefined, key: keyof ArtillerySummary): number | null {
  const value = summary?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * `http.response_time`, every response's time (2xx and 429 alike), as load.json's `latencyMs`. Artillery
 * gives p95 and p99.9 but neither p97.5 nor a standard deviation: those are null. A missing figure is 0.
 */
export function latencyOf(aggregate: ArtilleryPeriod): LatencyFigures {
  const s = aggregate.summaries['http.response_time'];
  const at = (key: keyof ArtillerySummary) => figure(s, key) ?? 0;
  return { min: at('min'), mean: at('mean'), stddev: null, p50: figure(s, 'p50') ?? at('median'), p75: at('p75'), p90: at('p90'), p97_5: null, p99: at('p99'), p99_9: at('p999'), max: at('max') };
}

/**
 * `http.response_time.2xx`, the served calls' time, as `--ensure` judges a latency; `unknown` says why it
 * is null when calls were served but a figure is missing or NaN (Artillery 2.0.21 loses the time of
 * calls sent on a shared `http.pool`, and writes a NaN mean).
 */
export function servedOf(aggregate: ArtilleryPeriod): { readonly figures: ServedLatencyFigures | null; readonly unknown?: string } {
  const s = aggregate.summaries['http.response_time.2xx'];
  if (s === undefined || s.count === 0) return { figures: null };
  const values = { mean: figure(s, 'mean'), p50: figure(s, 'p50') ?? figure(s, 'median'), p90: figure(s, 'p90'), p95: figure(s, 'p95'), p99: figure(s, 'p99'), max: figure(s, 'max') };
  const missing = Object.entries(values).filter(([, v]) => v === null).map(([k]) => k);
  if (missing.length > 0) {
    const why = `Artillery's http.response_time.2xx has no ${missing.join(', ')} (NaN or absent: some of its ${s.count} served calls were not timed, as on a shared http.pool)`;
    return { figures: null, unknown: `${why}: no latency to judge` };
  }
  const v = values as { [K in keyof typeof values]: number };
  return { figures: { count: s.count, mean: round(v.mean), p50: round(v.p50), p90: round(v.p90), p95: round(v.p95), p99: round(v.p99), max: round(v.max) } };
}

/**
 * Latency per kind of answer from `http.response_time.2xx`, `.4xx`, `.5xx`. Artillery's 4xx holds the
 * 429s with any other 4xx: it is shown as 429 when every 4xx was a 429, as 4xx when none was, and not
 * at all when they were mixed (the two cannot be told apart).
 */
export function byStatusOf(aggregate: ArtilleryPeriod, statuses: ReadonlyMap<number, number>): StatusLatency[] {
  const fourxx = [...statuses].filter(([s]) => s >= 400 && s <= 499);
  const limited = statuses.get(429) ?? 0;
  const fourxxKind: StatusLatency['kind'] | null = limited === 0 ? '4xx' : fourxx.every(([s]) => s === 429) ? '429' : null;
  const kinds: [string, StatusLatency['kind'] | null][] = [['2xx', '2xx'], ['4xx', fourxxKind], ['5xx', '5xx'], ['3xx', 'other']];
  return kinds.flatMap(([suffix, kind]) => {
    const s = aggregate.summaries[`http.response_time.${suffix}`];
    const p50 = figure(s, 'p50') ?? figure(s, 'median');
    const [p99, max] = [figure(s, 'p99'), figure(s, 'max')];
    if (kind === null || s === undefined || s.count === 0 || p50 === null || p99 === null || max === null) return [];
    return [{ kind, count: s.count, p50: round(p50), p99: round(p99), max: round(max) }];
  });
}

/** Each reporting period's `http.request_rate` (requests sent per second), as load.json's samples. */
export function samplesOf(report: ArtilleryReport): LoadReport['throughput']['samples'] {
  const rates = report.intermediate.map((p) => p.rates['http.request_rate']).filter((r): r is number => typeof r === 'number');
  if (rates.length === 0) return { count: 0, intervalMs: ARTILLERY_PERIOD_MS, mean: 0, stddev: 0, min: 0, max: 0 };
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  const stddev = Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / rates.length);
  return { count: rates.length, intervalMs: ARTILLERY_PERIOD_MS, mean: round(mean), stddev: round(stddev), min: Math.min(...rates), max: Math.max(...rates) };
}

/** Requests sent and answered: `http.requests` and `http.responses`. */
export function callsOf(aggregate: ArtilleryPeriod): { readonly sent: number; readonly completed: number } {
  const completed = counter(aggregate, 'http.responses');
  return { sent: Math.max(counter(aggregate, 'http.requests'), completed), completed };
}
