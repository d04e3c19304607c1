import { formatDuration } from '../duration.ts';
import type { RuleId } from '../contract/rules.ts';

/** A rate limit as the target is said to apply it: `limit` calls in any window of `windowMs`. */
export interface RateLimitWindow {
  readonly limit: number;
  readonly windowMs: number;
}

export type LoadCheckStatus = 'passed' | 'failed' | 'skipped';

/** One thing a load run judges, with what it saw in words a person can act on. */
export interface LoadCheck {
  readonly id: 'no-5xx' | 'no-transport-errors' | 'within-rate-limit';
  readonly title: string;
  readonly rule?: RuleId;
  readonly status: LoadCheckStatus;
  readonly detail: string;
}

/** What the run's calls say about the limit, when a limit was given and the run's length is known. */
export interface LimitAccounting {
  readonly limit: number;
  readonly windowMs: number;
  /** From the first request sent to the last response received. */
  readonly durationMs: number;
  /** Calls served (2xx). */
  readonly served: number;
  /** The most a conforming sliding window can serve in `durationMs` (see `maxServedCalls`). */
  readonly maxServed: number;
  /** Served calls beyond `maxServed`: 0 for a conforming limiter. */
  readonly beyondLimit: number;
}

export interface LoadVerdict {
  readonly status: 'passed' | 'failed';
  readonly checks: readonly LoadCheck[];
  readonly limit: LimitAccounting | null;
}

/** The counts the verdict is made from. */
export interface LoadObservation {
  /** Responses per status code. */
  readonly statuses: ReadonlyMap<number, number>;
  /** Connection errors and timeouts (autocannon's `errors`, which includes `timeouts`). */
  readonly errors: number;
  readonly timeouts: number;
  /** First request sent → last response received, or null when nothing was answered. */
  readonly durationMs: number | null;
  readonly rateLimit: RateLimitWindow | null;
}

/**
 * The most calls a conforming limiter can serve in a run of `durationMs`: `limit * (floor(D / W) + 1)`.
 *
 * Every served call lies in the closed interval [first sent, last received] of length D. Cut it into
 * half-open windows [t0, t0+W), [t0+W, t0+2W), …: there are floor(D/W) + 1 of them. A sliding window
 * serves at most `limit` in each (all calls in [a, a+W) lie within W of the last of them), and the
 * bound is reached by bursts at t0, t0+W, …. `limit * ceil(D / W)` would be one window short when D
 * is a multiple of W (a burst at 0 and another at exactly W are both allowed) and 0 for D = 0.
 */
export function maxServedCalls(limit: number, windowMs: number, durationMs: number): number {
  return limit * (Math.floor(durationMs / windowMs) + 1);
}

function count(statuses: ReadonlyMap<number, number>, test: (status: number) => boolean): number {
  let sum = 0;
  for (const [status, n] of statuses) if (test(status)) sum += n;
  return sum;
}

function byStatus(statuses: ReadonlyMap<number, number>, test: (status: number) => boolean): string {
  return [...statuses].filter(([s]) => test(s)).sort(([a], [b]) => a - b).map(([s, n]) => `${s} ×${n}`).join(', ');
}

function windowText(limit: RateLimitWindow): string {
  return `${limit.limit}/${limit.windowMs % 1000 === 0 ? `${limit.windowMs / 1000}s` : `${limit.windowMs}ms`}`;
}

function limitCheck(observation: LoadObservation, served: number): { check: LoadCheck; accounting: LimitAccounting | null } {
  const base = { id: 'within-rate-limit', title: 'No call accepted beyond the limit', rule: 'RATE-LIMIT-CAP' } as const;
  const { rateLimit, durationMs } = observation;
  if (rateLimit === null) return { check: { ...base, status: 'skipped', detail: 'no limit given (--rate-limit or the profile\'s rate_limit)' }, accounting: null };
  if (durationMs === null) return { check: { ...base, status: 'skipped', detail: 'no response came back, so the run has no length to judge' }, accounting: null };
  const maxServed = maxServedCalls(rateLimit.limit, rateLimit.windowMs, durationMs);
  const accounting: LimitAccounting = { ...rateLimit, durationMs, served, maxServed, beyondLimit: Math.max(0, served - maxServed) };
  const seen = `${served} calls served (2xx) in ${formatDuration(durationMs)}; at ${windowText(rateLimit)} at most ${maxServed} can be`;
  return accounting.beyondLimit > 0
    ? { check: { ...base, status: 'failed', detail: `${seen}: ${accounting.beyondLimit} accepted beyond the limit` }, accounting }
    : { check: { ...base, status: 'passed', detail: seen }, accounting };
}

/**
 * Whether the target held up under load and its 429s stayed correct: no 5xx, no transport error
 * or timeout, and (when the limit is known) no more calls served than a conforming limiter allows.
 */
export function loadVerdict(observation: LoadObservation): LoadVerdict {
  const is5xx = (s: number) => s >= 500 && s <= 599;
  const fivexx = count(observation.statuses, is5xx);
  const served = count(observation.statuses, (s) => s >= 200 && s <= 299);
  const { errors, timeouts } = observation;
  const { check: withinLimit, accounting } = limitCheck(observation, served);
  const checks: LoadCheck[] = [
    fivexx > 0
      ? { id: 'no-5xx', title: 'No 5xx response', status: 'failed', detail: `${fivexx} responses were 5xx (${byStatus(observation.statuses, is5xx)})` }
      : { id: 'no-5xx', title: 'No 5xx response', status: 'passed', detail: 'no response was 5xx' },
    errors > 0
      ? { id: 'no-transport-errors', title: 'No transport error or timeout', status: 'failed', detail: `${errors} calls failed without a response (${timeouts} timed out)` }
      : { id: 'no-transport-errors', title: 'No transport error or timeout', status: 'passed', detail: 'every call that was sent got a response or was cut off by the end of the run' },
    withinLimit,
  ];
  return { status: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed', checks, limit: accounting };
}
