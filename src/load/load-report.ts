import type autocannon from 'autocannon';
import type { AutocannonRun } from './autocannon-run.ts';
import type { LoadOptions } from './load-options.ts';
import { loadVerdict, type LoadVerdict, type RateLimitWindow } from './load-verdict.ts';
import type { StatusLatency } from './latency-by-status.ts';
import type { SecondCounts } from './per-second.ts';

/** Bumped on any incompatible change of LoadReport (load.json). */
export const LOAD_REPORT_SCHEMA_VERSION = '1.0.0';

/** The latency percentiles a load report gives, in chart order, as autocannon names them. */
export const LATENCY_PERCENTILES = [
  { key: 'p50', label: 'p50' },
  { key: 'p75', label: 'p75' },
  { key: 'p90', label: 'p90' },
  { key: 'p97_5', label: 'p97.5' },
  { key: 'p99', label: 'p99' },
  { key: 'p99_9', label: 'p99.9' },
] as const;

export type LatencyPercentile = (typeof LATENCY_PERCENTILES)[number]['key'];

/**
 * Response latency in ms, of all responses (2xx and 429 alike: autocannon does not split by status).
 * autocannon's histogram keeps whole milliseconds, rounded down: 0 means under 1 ms.
 */
export type LatencyFigures = { readonly [K in LatencyPercentile]: number } & {
  readonly min: number;
  readonly mean: number;
  readonly stddev: number;
  readonly max: number;
};

/** load.json: one load run, everything a person or a CI job needs to judge it. Holds no secret. */
export interface LoadReport {
  readonly schemaVersion: string;
  readonly runId: string;
  readonly tool: { readonly name: 'clockcheck'; readonly version: string };
  readonly target: { readonly origin: string; readonly apiPrefix: string; readonly embedded: boolean };
  readonly endpoint: { readonly method: string; readonly path: string };
  readonly options: {
    readonly connections: number;
    /** Set for a run bounded in time; null for one bounded by `amount`. */
    readonly durationSeconds: number | null;
    readonly amount: number | null;
    /** Requests per second over all connections; null: unpaced. */
    readonly rate: number | null;
    /** The limit the run was judged against; null: not judged. */
    readonly rateLimit: RateLimitWindow | null;
  };
  readonly startedAt: string;
  readonly finishedAt: string;
  /** First request sent → last response received (autocannon's own span ends at its next sample tick). */
  readonly durationMs: number;
  readonly requests: {
    readonly sent: number;
    readonly completed: number;
    /** Sent without a response: errors, timeouts, and calls in flight when the run ended. */
    readonly unanswered: number;
  };
  readonly throughput: {
    /** Completed responses per second over `durationMs`. */
    readonly requestsPerSecond: number;
    /**
     * The rate of each of autocannon's samples (responses in one sample interval, scaled to a
     * second): how steady the rate was. The last sample is usually partial, so `min` is often low.
     */
    readonly samples: { readonly count: number; readonly intervalMs: number; readonly mean: number; readonly stddev: number; readonly min: number; readonly max: number };
    readonly bytesPerSecond: number;
    /** Responses completed in each second of the run (served, 429, other); empty when not collected. */
    readonly perSecond: readonly SecondCounts[];
  };
  readonly latencyMs: LatencyFigures;
  /** Latency (ms, 0.01 precision) per kind of answer: whether 429s stay fast next to served calls. */
  readonly latencyByStatus: readonly StatusLatency[];
  /** Whether the run hit the hard cap on time (an amount run against a target that stopped answering). */
  readonly cappedByDuration: boolean;
  /** Responses per status code, lowest code first. */
  readonly statuses: readonly { readonly status: number; readonly count: number }[];
  readonly counts: {
    readonly status2xx: number;
    readonly non2xx: number;
    readonly status4xx: number;
    readonly status5xx: number;
    readonly status429: number;
    /** Connection errors and timeouts together (autocannon's `errors`). */
    readonly errors: number;
    readonly timeouts: number;
  };
  readonly verdict: LoadVerdict;
  /** 0 passed, 1 failed. */
  readonly exitCode: 0 | 1;
}

/** What the report needs besides autocannon's figures. */
export interface LoadReportContext {
  readonly runId: string;
  readonly toolVersion: string;
  readonly origin: string;
  readonly apiPrefix: string;
  readonly embedded: boolean;
  readonly options: LoadOptions;
  readonly rateLimit: RateLimitWindow | null;
  /** From the run's own per-response timing; empty when not collected. */
  readonly latencyByStatus?: readonly StatusLatency[];
  readonly perSecond?: readonly SecondCounts[];
}

/** autocannon's `statusCodeStats` (string keys, `{ count }`) as a map of status → count. */
function statusCounts(result: autocannon.Result): Map<number, number> {
  const counts = new Map<number, number>();
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
    const n = (stat as { count?: number }).count ?? 0;
    if (n > 0) counts.set(Number(status), n);
  }
  return counts;
}

/** autocannon's per-sample request counts, as rates per second. */
function sampleRates(result: autocannon.Result): LoadReport['throughput']['samples'] {
  // `samples` and `sampleInt` are in autocannon 9's result (lib/aggregateResult.js), not in its types.
  const extra = result as autocannon.Result & { samples?: number; sampleInt?: number };
  const intervalMs = extra.sampleInt ?? 1000;
  const perSecond = (n: number) => round((n * 1000) / intervalMs);
  const r = result.requests;
  return { count: extra.samples ?? 0, intervalMs, mean: perSecond(r.mean), stddev: perSecond(r.stddev), min: perSecond(r.min), max: perSecond(r.max) };
}

function latency(l: autocannon.Histogram): LatencyFigures {
  // hdr-histogram's min is the smallest non-zero value; sub-millisecond responses are recorded as 0.
  return { min: Math.min(l.min, l.p0_001), mean: l.mean, stddev: l.stddev, p50: l.p50, p75: l.p75, p90: l.p90, p97_5: l.p97_5, p99: l.p99, p99_9: l.p99_9, max: l.max };
}

/** Aggregates one autocannon run into the report; pure, so it is tested without a server. */
export function buildLoadReport(run: AutocannonRun, context: LoadReportContext): LoadReport {
  const { result } = run;
  const statuses = statusCounts(result);
  const startMs = run.firstSentAtMs ?? result.start.getTime();
  const endMs = run.lastReceivedAtMs ?? startMs;
  const durationMs = endMs - startMs;
  const completed = result.requests.total;
  const verdict = loadVerdict({
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    durationMs: run.lastReceivedAtMs === null ? null : durationMs,
    rateLimit: context.rateLimit,
  });
  const { stop } = context.options;
  return {
    schemaVersion: LOAD_REPORT_SCHEMA_VERSION,
    runId: context.runId,
    tool: { name: 'clockcheck', version: context.toolVersion },
    target: { origin: context.origin, apiPrefix: context.apiPrefix, embedded: context.embedded },
    endpoint: { method: context.options.endpoint.method, path: context.options.endpoint.path },
    options: {
      connections: context.options.connections,
      durationSeconds: stop.kind === 'duration' ? stop.seconds : null,
      amount: stop.kind === 'amount' ? stop.requests : null,
      rate: context.options.rate,
      rateLimit: context.rateLimit,
    },
    startedAt: new Date(startMs).toISOString(),
    finishedAt: new Date(endMs).toISOString(),
    durationMs,
    requests: { sent: result.requests.sent, completed, unanswered: run.unanswered },
    throughput: {
      requestsPerSecond: durationMs > 0 ? round(completed / (durationMs / 1000)) : 0,
      samples: sampleRates(result),
      bytesPerSecond: durationMs > 0 ? round(result.throughput.total / (durationMs / 1000)) : 0,
      perSecond: context.perSecond ?? [],
    },
    latencyMs: latency(result.latency),
    latencyByStatus: context.latencyByStatus ?? [],
    cappedByDuration: run.cappedByDuration,
    statuses: [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => ({ status, count })),
    counts: {
      status2xx: result['2xx'],
      non2xx: result.non2xx,
      status4xx: result['4xx'],
      status5xx: result['5xx'],
      status429: statuses.get(429) ?? 0,
      errors: result.errors,
      timeouts: result.timeouts,
    },
    verdict,
    exitCode: verdict.status === 'passed' ? 0 : 1,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
