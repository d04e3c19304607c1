import type autocannon from 'autocannon';
import type { AutocannonRun } from './autocannon-run.ts';
import type { LoadOptions } from './load-options.ts';
import { loadVerdict, type LoadVerdict, type RateLimitWindow } from './load-verdict.ts';
import type { StatusLatency } from './latency-by-status.ts';
import type { SecondCounts } from './per-second.ts';
import type { ServedLatencyFigures } from './served-latency.ts';
import { accountUnanswered, type UnansweredCalls } from './unanswered.ts';

/**
 * Bumped on any change of LoadReport (load.json): the major on an incompatible one. 2.0.0:
 * `requests.unanswered` leaves out the calls a timed run cut off (`requests.cutOffAtEnd`),
 * `requests.sent` is the calls written (answered + unanswered + cut off), the check
 * `no-transport-errors` became `all-answered`, and `--ensure` lines. 2.1.0: `source` (who measured
 * the run: autocannon, or Artillery through `load --from-artillery`), `notJudged`, and
 * `latencyMs.p97_5` / `latencyMs.stddev` may be null (Artillery gives neither).
 */
export const LOAD_REPORT_SCHEMA_VERSION = '2.1.0';

/** Who measured the run: `load`'s own autocannon run, or an Artillery run read by `load --from-artillery`. */
export type LoadSource = 'autocannon' | 'artillery';

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
 * Response latency in ms, of all responses (2xx and 429 alike: neither autocannon nor Artillery splits
 * them here). autocannon's histogram keeps whole milliseconds, rounded down: 0 means under 1 ms.
 * `p97_5` and `stddev` are null when the engine does not give them (Artillery).
 */
export type LatencyFigures = { readonly [K in Exclude<LatencyPercentile, 'p97_5'>]: number } & {
  readonly p97_5: number | null;
  readonly min: number;
  readonly mean: number;
  readonly stddev: number | null;
  readonly max: number;
};

/** load.json: one load run, everything a person or a CI job needs to judge it. Holds no secret. */
export interface LoadReport {
  readonly schemaVersion: string;
  readonly runId: string;
  readonly tool: { readonly name: 'clockcheck'; readonly version: string };
  /** Who measured the run: `autocannon` (`load` itself) or `artillery` (`load --from-artillery`). */
  readonly source: LoadSource;
  /**
   * What `load` judges that this report could not, each `what: why`; empty for `load`'s own runs. An
   * Artillery report keeps counts and percentiles, not each call's time (see docs/rate-limit-and-load.md).
   */
  readonly notJudged: readonly string[];
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
    /** `--ensure` thresholds, as given; each is a line of the verdict. */
    readonly ensure: readonly string[];
  };
  readonly startedAt: string;
  readonly finishedAt: string;
  /** First request sent → last response received (autocannon's own span ends at its next sample tick). */
  readonly durationMs: number;
  readonly requests: {
    /** Written to a connection: completed + unanswered + cutOffAtEnd (autocannon's own count adds one a connection). */
    readonly sent: number;
    readonly completed: number;
    /** Sent and never answered: timed out, lost with their connection, or held until the run stopped (the sum of `unansweredBy`). */
    readonly unanswered: number;
    readonly unansweredBy: Omit<UnansweredCalls, 'total' | 'cutOffAtEnd' | 'silentBeforeStopMs'>;
    /** In flight when a timed run stopped while the target was still answering: cut off by the run, not judged. */
    readonly cutOffAtEnd: number;
    /** With calls in flight at the stop: how long before it the target last answered, ms. */
    readonly silentBeforeStopMs: number | null;
  };
  readonly throughput: {
    /** Completed responses per second over `durationMs`, or until the run stopped when calls were held to the end. */
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
  /**
   * Latency of the served calls (2xx) as the run timed each (ms, 0.01 precision): what `--ensure`
   * judges p50 … max and mean against; null when none was served (or not collected).
   */
  readonly latencyServedMs: ServedLatencyFigures | null;
  /** Whether the run hit the hard cap on time (an amount run against a target that stopped answering). */
  readonly cappedByDuration: boolean;
  /** Responses per status code, lowest code first. */
  readonly statuses: readonly { readonly status: number; readonly count: number }[];
  readonly counts: {
    readonly status2xx: number;
    /** Every answer that is not 2xx, 429s included (autocannon's `non2xx`). */
    readonly non2xx: number;
    /** Answers neither 2xx nor 429: what `--ensure non2xx` bounds. */
    readonly non2xxExcept429: number;
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

/** What the report could not judge (`notJudged`), but for what a skipped check of its verdict already says. */
export function notJudgedBeyondVerdict(report: Pick<LoadReport, 'notJudged' | 'verdict'>): string[] {
  const inVerdict = report.verdict.checks.filter((c) => c.detail.startsWith('not judged: ')).map((c) => c.detail.slice('not judged: '.length));
  return report.notJudged.filter((line) => !inVerdict.some((why) => line.endsWith(`: ${why}`)));
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
  /** From the run's own per-response timing; null or absent when not collected or nothing was served. */
  readonly servedLatency?: ServedLatencyFigures | null;
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

/** The run's calls without an answer, accounted from the run and its options. */
function unansweredOf(run: AutocannonRun, context: LoadReportContext): UnansweredCalls {
  const { result } = run;
  const slowest = Math.max(result.latency.max, ...(context.latencyByStatus ?? []).map((s) => s.max));
  return accountUnanswered({
    unanswered: run.unanswered,
    errors: result.errors,
    timeouts: result.timeouts,
    timedStop: context.options.stop.kind === 'duration' && !run.cappedByDuration,
    connections: context.options.connections,
    paced: context.options.rate !== null,
    firstSentAtMs: run.firstSentAtMs,
    lastReceivedAtMs: run.lastReceivedAtMs,
    stoppedAtMs: result.finish.getTime(),
    ...(context.options.stop.kind === 'duration' ? { dueStopAtMs: result.start.getTime() + context.options.stop.seconds * 1000 } : {}),
    slowestAnswerMs: slowest,
  });
}

/** Aggregates one autocannon run into the report; pure, so it is tested without a server. */
export function buildLoadReport(run: AutocannonRun, context: LoadReportContext): LoadReport {
  const { result } = run;
  const statuses = statusCounts(result);
  const startMs = run.firstSentAtMs ?? result.start.getTime();
  const endMs = run.lastReceivedAtMs ?? startMs;
  const durationMs = endMs - startMs;
  const completed = result.requests.total;
  const unanswered = unansweredOf(run, context);
  const sent = completed + run.unanswered;
  // Held calls waited until the stop: the rate is over that span, not only up to the last answer.
  const rateSpanMs = unanswered.heldToEnd > 0 ? Math.max(durationMs, result.finish.getTime() - startMs) : durationMs;
  const requestsPerSecond = rateSpanMs > 0 ? round(completed / (rateSpanMs / 1000)) : 0;
  const status429 = statuses.get(429) ?? 0;
  const servedLatency = context.servedLatency ?? null;
  const verdict = loadVerdict({
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    unanswered,
    durationMs: run.lastReceivedAtMs === null ? null : durationMs,
    rateLimit: context.rateLimit,
    thresholds: context.options.ensure,
    stoppedEarly: run.stoppedEarly === null ? null : `${run.stoppedEarly.message} (${run.stoppedEarly.code})`,
    measures: { sent, served: servedLatency, errors: result.errors, timeouts: result.timeouts, unanswered: unanswered.total, non2xx: result.non2xx - status429, limited: status429, requestsPerSecond },
  });
  const { stop } = context.options;
  const { total, cutOffAtEnd, silentBeforeStopMs, ...unansweredBy } = unanswered;
  return {
    schemaVersion: LOAD_REPORT_SCHEMA_VERSION,
    runId: context.runId,
    tool: { name: 'clockcheck', version: context.toolVersion },
    source: 'autocannon',
    notJudged: [],
    target: { origin: context.origin, apiPrefix: context.apiPrefix, embedded: context.embedded },
    endpoint: { method: context.options.endpoint.method, path: context.options.endpoint.path },
    options: {
      connections: context.options.connections,
      durationSeconds: stop.kind === 'duration' ? stop.seconds : null,
      amount: stop.kind === 'amount' ? stop.requests : null,
      rate: context.options.rate,
      rateLimit: context.rateLimit,
      ensure: context.options.ensure.map((t) => t.text),
    },
    startedAt: new Date(startMs).toISOString(),
    finishedAt: new Date(endMs).toISOString(),
    durationMs,
    requests: { sent, completed, unanswered: total, unansweredBy, cutOffAtEnd, silentBeforeStopMs },
    throughput: {
      requestsPerSecond,
      samples: sampleRates(result),
      bytesPerSecond: durationMs > 0 ? round(result.throughput.total / (durationMs / 1000)) : 0,
      perSecond: context.perSecond ?? [],
    },
    latencyMs: latency(result.latency),
    latencyByStatus: context.latencyByStatus ?? [],
    latencyServedMs: servedLatency,
    cappedByDuration: run.cappedByDuration,
    statuses: [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => ({ status, count })),
    counts: {
      status2xx: result['2xx'],
      non2xx: result.non2xx,
      non2xxExcept429: result.non2xx - status429,
      status4xx: result['4xx'],
      status5xx: result['5xx'],
      status429,
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
