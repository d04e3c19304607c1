import { ClockcheckError } from '../errors.ts';
import { Redactor } from '../client/redaction.ts';
import { runAutocannon } from './autocannon-run.ts';
import { buildLoadReport, type LoadReport } from './load-report.ts';
import type { LoadOptions } from './load-options.ts';
import type { RateLimitWindow } from './load-verdict.ts';
import { LatencyByStatus } from './latency-by-status.ts';
import { PerSecondCounts } from './per-second.ts';
import { ServedLatency } from './served-latency.ts';
import { MAX_DURATION_SECONDS } from './load-options.ts';

/** Everything one load run needs: where, with which credentials and trust, what to send, and what to judge. */
export interface LoadRunOptions {
  /** `https://host[:port]`: the spec's `{base_url}`. */
  readonly origin: string;
  readonly apiPrefix: string;
  /** Sent raw in `Authorization`; never written anywhere. */
  readonly token: string;
  readonly tls: { readonly caPem?: string; readonly insecure: boolean };
  readonly options: LoadOptions;
  /** The target's limit to judge the served calls against; null: not judged. */
  readonly rateLimit: RateLimitWindow | null;
  /** Whether the target is the embedded reference server (recorded in the report). */
  readonly embedded: boolean;
  readonly toolVersion: string;
  /** Default: derived from the start time. */
  readonly runId?: string;
}

/** Seconds without any answer after which a load run stops (three of autocannon's 10 s timeouts). */
export const LOAD_IDLE_STOP_SECONDS = 30;

/** A run ID that sorts by time and says what made it: `2026-11-22T00-48-20-620Z-load`. */
export function loadRunId(now: Date): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-load`;
}

/**
 * Sends the load with autocannon (counts only, no per-call recording, so memory stays flat over a
 * million calls) and returns the report with its verdict.
 *
 * @throws ClockcheckError `CLOCKCHECK_TARGET` when the certificate does not verify (nothing is sent);
 *   `CLOCKCHECK_TARGET` when autocannon fails. Messages are redacted.
 */
export async function runLoad(run: LoadRunOptions): Promise<LoadReport> {
  const redactor = new Redactor(run.token);
  const { options } = run;
  const runId = run.runId ?? loadRunId(new Date());
  const latencies = new LatencyByStatus();
  const perSecond = new PerSecondCounts();
  const served = new ServedLatency();
  const started = Date.now();
  perSecond.start(started);
  let result;
  try {
    result = await runAutocannon({
      origin: run.origin,
      apiPrefix: run.apiPrefix,
      token: run.token,
      tls: run.tls,
      requests: [{ method: options.endpoint.method, path: options.endpoint.path }],
      connections: options.connections,
      ...(options.stop.kind === 'duration' ? { durationSeconds: options.stop.seconds } : { amount: options.stop.requests }),
      ...(options.rate === null ? {} : { overallRate: options.rate }),
      keepExchanges: false,
      onResponse: (status, latencyMs) => {
        latencies.add(status, latencyMs);
        served.add(status, latencyMs);
        perSecond.add(status, Date.now());
      },
      // The hard cap on time holds for amount runs too (autocannon sets no timer for them).
      maxDurationSeconds: options.stop.kind === 'duration' ? options.stop.seconds + 30 : MAX_DURATION_SECONDS,
      // A target that answers nothing for 30 s is not loaded any longer: the run ends, and says so.
      idleStopSeconds: LOAD_IDLE_STOP_SECONDS,
      userAgent: `clockcheck/${run.toolVersion} (load)`,
      // An amount run ends at the first sample tick after its last response; 100 ms keeps that
      // tail short. A timed run keeps one sample a second, so the samples are per-second rates.
      sampleIntervalMs: options.stop.kind === 'amount' ? 100 : 1000,
    });
  } catch (error) {
    if (error instanceof ClockcheckError) throw error;
    throw new ClockcheckError('CLOCKCHECK_TARGET', `load run against ${run.origin} failed: ${redactor.message(error)}`, { cause: error });
  }
  // The endpoint is the user's text and goes into the report: a token pasted into its query must not.
  const endpoint = { ...options.endpoint, path: redactor.text(options.endpoint.path) };
  return buildLoadReport(result, {
    runId,
    toolVersion: run.toolVersion,
    origin: run.origin,
    apiPrefix: run.apiPrefix,
    embedded: run.embedded,
    options: { ...options, endpoint },
    rateLimit: run.rateLimit,
    latencyByStatus: latencies.summary(),
    perSecond: perSecond.series(),
    servedLatency: served.summary(),
  });
}
