import { byStatusOf, callsOf, errorsOf, latencyOf, samplesOf, servedOf, statusesOf } from './_internals/artillery-figures.ts';
import { counter, type ArtilleryReport } from './artillery-report.ts';
import { LOAD_REPORT_SCHEMA_VERSION, type LoadReport } from './load-report.ts';
import type { LoadOptions } from './load-options.ts';
import { loadVerdict, type LoadObservation, type RateLimitWindow } from './load-verdict.ts';
import type { UnansweredCalls } from './unanswered.ts';

/** What load.json needs besides Artillery's report: what `load --from-artillery` was told. */
export interface ArtilleryReportContext {
  readonly runId: string;
  readonly toolVersion: string;
  /** The target the script called (`--target` or the profile's), or a placeholder: Artillery's report does not name it. */
  readonly origin: string;
  readonly apiPrefix: string;
  /** The options the script was exported with, its endpoint the one the report names; `ensure` is judged. */
  readonly options: LoadOptions;
  /** The limit `load` would judge against; recorded, and not judged (see ARTILLERY_NOT_JUDGED). */
  readonly rateLimit: RateLimitWindow | null;
}

/**
 * What `load` judges from each call's time, which Artillery's report does not keep (it keeps counts,
 * and percentiles per reporting period): each is listed in load.json's `notJudged`, and the default
 * checks among them are skipped with `not judged: <why>`.
 */
export const ARTILLERY_NOT_JUDGED = {
  'within-rate-limit':
    'the rate-limit reading counts the calls served between the first call sent and the last answer received, from each call\'s time, which Artillery\'s report does not keep',
  'per-second throughput': 'Artillery\'s report counts responses per reporting period (10 s), not each call\'s time: no responses per second and no per-second chart',
  'unanswered requests':
    'Artillery waits up to its timeout for every call, so a call held to the end counts as a timeout (ETIMEDOUT); telling a held call from one the run cut off needs each call\'s time',
  'ran-to-end': 'Artillery\'s report does not say whether its run was cut short',
} as const;

/** The report's requests without an answer: each a timeout or a call lost with its connection; none held or cut off (see ARTILLERY_NOT_JUDGED). */
function unansweredOf(sent: number, completed: number, timeouts: number): UnansweredCalls {
  const total = Math.max(0, sent - completed);
  const timedOut = Math.min(timeouts, total);
  return { total, timedOut, lostWithConnection: total - timedOut, heldToEnd: 0, cutOffAtEnd: 0, silentBeforeStopMs: null };
}

const is2xx = (status: number) => status >= 200 && status <= 299;

/** The responses whose status passes `test`. */
function countOf(statuses: ReadonlyMap<number, number>, test: (status: number) => boolean): number {
  return [...statuses].filter(([s]) => test(s)).reduce((sum, [, n]) => sum + n, 0);
}

/** The verdict from what Artillery measured: status counts, errors, latency percentiles against `--ensure`. */
function verdictOf(report: ArtilleryReport, context: ArtilleryReportContext, statuses: ReadonlyMap<number, number>): { verdict: LoadReport['verdict']; durationMs: number; requestsPerSecond: number } {
  const a = report.aggregate;
  const { sent, completed } = callsOf(a);
  const { errors, timeouts } = errorsOf(a);
  const durationMs = a.lastMetricAt - a.firstMetricAt;
  const requestsPerSecond = durationMs > 0 ? Math.round((completed / (durationMs / 1000)) * 100) / 100 : 0;
  const served = servedOf(a);
  const limited = statuses.get(429) ?? 0;
  const observation: LoadObservation = {
    statuses,
    errors,
    timeouts,
    unanswered: unansweredOf(sent, completed, timeouts),
    durationMs: completed > 0 ? durationMs : null,
    rateLimit: context.rateLimit,
    thresholds: context.options.ensure,
    stoppedEarly: null,
    notJudged: { 'within-rate-limit': ARTILLERY_NOT_JUDGED['within-rate-limit'], 'ran-to-end': ARTILLERY_NOT_JUDGED['ran-to-end'] },
    measures: {
      sent,
      served: served.figures,
      ...(served.unknown === undefined ? {} : { servedUnknown: served.unknown }),
      errors,
      timeouts,
      unanswered: Math.max(0, sent - completed),
      non2xx: countOf(statuses, () => true) - countOf(statuses, is2xx) - limited,
      limited,
      requestsPerSecond,
    },
  };
  return { verdict: loadVerdict(observation), durationMs, requestsPerSecond };
}

/** Each `what: why` of ARTILLERY_NOT_JUDGED that applies (the rate-limit reading only when a limit was given). */
function notJudgedOf(context: ArtilleryReportContext): string[] {
  return Object.entries(ARTILLERY_NOT_JUDGED)
    .filter(([what]) => what !== 'within-rate-limit' || context.rateLimit !== null)
    .map(([what, why]) => `${what}: ${why}`);
}

/**
 * An Artillery JSON report as load.json (`source: 'artillery'`), with the verdict `load` draws from
 * what Artillery measured; pure, so it is tested on a committed report.
 */
export function buildArtilleryLoadReport(report: ArtilleryReport, context: ArtilleryReportContext): LoadReport {
  const a = report.aggregate;
  const statuses = statusesOf(a);
  const { sent, completed } = callsOf(a);
  const { errors, timeouts } = errorsOf(a);
  const { verdict, durationMs, requestsPerSecond } = verdictOf(report, context, statuses);
  const unanswered = unansweredOf(sent, completed, timeouts);
  const count = (test: (status: number) => boolean) => countOf(statuses, test);
  const status429 = statuses.get(429) ?? 0;
  const { options } = context;
  return {
    schemaVersion: LOAD_REPORT_SCHEMA_VERSION,
    runId: context.runId,
    tool: { name: 'clockcheck', version: context.toolVersion },
    source: 'artillery',
    notJudged: notJudgedOf(context),
    target: { origin: context.origin, apiPrefix: context.apiPrefix, embedded: false },
    endpoint: { method: options.endpoint.method, path: options.endpoint.path },
    options: {
      connections: options.connections,
      durationSeconds: options.stop.kind === 'duration' ? options.stop.seconds : null,
      amount: options.stop.kind === 'amount' ? options.stop.requests : null,
      rate: options.rate,
      rateLimit: context.rateLimit,
      ensure: options.ensure.map((t) => t.text),
    },
    startedAt: new Date(a.firstMetricAt).toISOString(),
    finishedAt: new Date(a.lastMetricAt).toISOString(),
    durationMs,
    requests: { sent, completed, unanswered: unanswered.total, unansweredBy: { timedOut: unanswered.timedOut, lostWithConnection: unanswered.lostWithConnection, heldToEnd: 0 }, cutOffAtEnd: 0, silentBeforeStopMs: null },
    throughput: {
      requestsPerSecond,
      samples: samplesOf(report),
      bytesPerSecond: durationMs > 0 ? Math.round((counter(a, 'http.downloaded_bytes') / (durationMs / 1000)) * 100) / 100 : 0,
      perSecond: [],
    },
    latencyMs: latencyOf(a),
    latencyByStatus: byStatusOf(a, statuses),
    latencyServedMs: servedOf(a).figures,
    cappedByDuration: false,
    statuses: [...statuses].sort(([x], [y]) => x - y).map(([status, n]) => ({ status, count: n })),
    counts: {
      status2xx: count(is2xx),
      non2xx: count(() => true) - count(is2xx),
      non2xxExcept429: count(() => true) - count(is2xx) - status429,
      status4xx: count((s) => s >= 400 && s <= 499),
      status5xx: count((s) => s >= 500 && s <= 599),
      status429,
      errors,
      timeouts,
    },
    verdict,
    exitCode: verdict.status === 'passed' ? 0 : 1,
  };
}
