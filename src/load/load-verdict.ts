import { formatDuration } from '../duration.ts';
import type { RuleId } from '../contract/rules.ts';
import type { EnsureQuantity, Threshold } from './ensure.ts';
import { judgeThresholds, type LoadMeasures, type ThresholdCheck } from './judge-thresholds.ts';
import type { UnansweredCalls } from './unanswered.ts';

/** A rate limit as the target is said to apply it: `limit` calls in any window of `windowMs`. */
export interface RateLimitWindow {
  readonly limit: number;
  readonly windowMs: number;
}

export type LoadCheckStatus = 'passed' | 'failed' | 'skipped';

/** One thing a load run judges by default, with what it saw in words a person can act on. */
export interface DefaultCheck {
  readonly id: 'no-5xx' | 'all-answered' | 'within-rate-limit' | 'ran-to-end';
  readonly title: string;
  readonly rule?: RuleId;
  readonly status: LoadCheckStatus;
  readonly detail: string;
}

/** A line of the verdict: a default check, or one `--ensure` threshold judged. */
export type LoadCheck = DefaultCheck | ThresholdCheck;

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
  /** Transport errors and timeouts (autocannon's `errors`, which includes `timeouts`). */
  readonly errors: number;
  readonly timeouts: number;
  /** The calls sent and never answered, by what became of them. */
  readonly unanswered: UnansweredCalls;
  /** First request sent → last response received, or null when nothing was answered. */
  readonly durationMs: number | null;
  readonly rateLimit: RateLimitWindow | null;
  /** `--ensure`: each threshold becomes a line of the verdict and replaces the default check of what it bounds. */
  readonly thresholds: readonly Threshold[];
  readonly measures: LoadMeasures;
  /** Why the run stopped before its amount or duration, the target's doing (nothing answered for a while, a certificate that changed), or null. */
  readonly stoppedEarly?: string | null;
  /**
   * Default checks the measurements cannot judge, each with why (an Artillery report keeps no call's
   * time): the check is `skipped`, its detail `not judged: <why>`.
   */
  readonly notJudged?: Readonly<Partial<Record<'within-rate-limit' | 'ran-to-end', string>>>;
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

function limitCheck(observation: LoadObservation, served: number): { check: DefaultCheck; accounting: LimitAccounting | null } {
  const base = { id: 'within-rate-limit', title: 'No call accepted beyond the limit', rule: 'RATE-LIMIT-CAP' } as const;
  const { rateLimit, durationMs } = observation;
  if (rateLimit === null) return { check: { ...base, status: 'skipped', detail: 'no limit given (--rate-limit or the profile\'s rate_limit)' }, accounting: null };
  const notJudged = observation.notJudged?.['within-rate-limit'];
  if (notJudged !== undefined) return { check: { ...base, status: 'skipped', detail: `not judged: ${notJudged}` }, accounting: null };
  if (durationMs === null) return { check: { ...base, status: 'skipped', detail: 'no response came back, so the run has no length to judge' }, accounting: null };
  const maxServed = maxServedCalls(rateLimit.limit, rateLimit.windowMs, durationMs);
  const accounting: LimitAccounting = { ...rateLimit, durationMs, served, maxServed, beyondLimit: Math.max(0, served - maxServed) };
  const seen = `${served} calls served (2xx) in ${formatDuration(durationMs)}; at ${windowText(rateLimit)} at most ${maxServed} can be`;
  return accounting.beyondLimit > 0
    ? { check: { ...base, status: 'failed', detail: `${seen}: ${accounting.beyondLimit} accepted beyond the limit` }, accounting }
    : { check: { ...base, status: 'passed', detail: seen }, accounting };
}

/** The `--ensure` thresholds that bound `quantity`, as given: `non2xx<=1%`. */
function ensured(observation: LoadObservation, ...quantities: EnsureQuantity[]): string[] {
  return observation.thresholds.filter((t) => quantities.includes(t.quantity)).map((t) => t.text);
}

function fivexxCheck(observation: LoadObservation): DefaultCheck {
  const base = { id: 'no-5xx', title: 'No 5xx response' } as const;
  const is5xx = (s: number) => s >= 500 && s <= 599;
  const fivexx = count(observation.statuses, is5xx);
  const by = ensured(observation, 'non2xx');
  if (by.length > 0) return { ...base, status: 'skipped', detail: `5xx are non-2xx answers: judged by --ensure ${by.join(', ')} (${fivexx} seen)` };
  return fivexx > 0
    ? { ...base, status: 'failed', detail: `${fivexx} responses were 5xx (${byStatus(observation.statuses, is5xx)})` }
    : { ...base, status: 'passed', detail: 'no response was 5xx' };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Every request answered, on connections that held: by default any unanswered request, timeout or
 * transport error fails. Each part of that is left to `--ensure` when a threshold bounds a quantity
 * that contains it (`unanswered` contains the timed-out, lost and held calls; `errors` the timeouts
 * and transport errors; `timeouts` the timeouts), so no trouble is judged twice.
 */
function answeredCheck(observation: LoadObservation): DefaultCheck {
  const base = { id: 'all-answered', title: 'Every request answered' } as const;
  const u = observation.unanswered;
  const transport = Math.max(0, observation.errors - observation.timeouts);
  const by = (...quantities: EnsureQuantity[]) => ensured(observation, ...quantities).length > 0;
  const parts = [
    { calls: true, n: u.timedOut, covered: by('unanswered', 'errors', 'timeouts'), text: `${u.timedOut} timed out` },
    { calls: true, n: u.lostWithConnection, covered: by('unanswered', 'errors'), text: `${u.lostWithConnection} lost with ${u.lostWithConnection === 1 ? 'its connection' : 'their connections'}` },
    { calls: true, n: u.heldToEnd, covered: by('unanswered'), text: `${u.heldToEnd} still waiting when the run stopped, ${heldText(u)}` },
    { calls: false, n: transport, covered: by('errors'), text: plural(transport, 'transport error', 'transport errors') },
  ];
  const thresholds = ensured(observation, 'unanswered', 'errors', 'timeouts');
  if (parts.every((p) => p.covered)) return { ...base, status: 'skipped', detail: `left to --ensure ${thresholds.join(', ')}` };
  const failing = parts.filter((p) => !p.covered && p.n > 0);
  const leftToEnsure = parts.filter((p) => p.covered && p.n > 0);
  const judgedBy = leftToEnsure.length > 0 ? `; ${leftToEnsure.map((p) => p.text).join(', ')}: judged by --ensure ${thresholds.join(', ')}` : '';
  const answered = leftToEnsure.some((p) => p.calls) ? 'every other request' : 'every request';
  if (failing.length > 0) {
    const calls = failing.filter((p) => p.calls);
    const lead = calls.length > 0 ? `${calls.reduce((sum, p) => sum + p.n, 0)} of ${observation.measures.sent} requests got no answer (${calls.map((p) => p.text).join(', ')})` : `${answered} was answered`;
    const errors = failing.find((p) => !p.calls);
    return { ...base, status: 'failed', detail: `${lead}${errors ? `${calls.length > 0 ? '; ' : ', but '}${errors.text}` : ''}${judgedBy}` };
  }
  const cut = u.cutOffAtEnd > 0 ? `; ${plural(u.cutOffAtEnd, 'call was', 'calls were')} in flight when the time was up, cut off by the run (not judged)` : '';
  return { ...base, status: 'passed', detail: `${answered} answered${cut}${judgedBy}` };
}

/** The run went to its amount or duration: one that the target stopped (nothing answered for 30 s, a certificate that changed) fails. */
function ranToEnd(observation: LoadObservation): DefaultCheck {
  const base = { id: 'ran-to-end', title: 'The run went to its end' } as const;
  const notJudged = observation.notJudged?.['ran-to-end'];
  if (notJudged !== undefined) return { ...base, status: 'skipped', detail: `not judged: ${notJudged}` };
  const why = observation.stoppedEarly ?? null;
  return why === null ? { ...base, status: 'passed', detail: 'the run was not stopped by the target' } : { ...base, status: 'failed', detail: `the run stopped before its end: ${why}` };
}

/** Why calls in flight at the stop count as held: the target's silence against its slowest answer. */
function heldText(u: UnansweredCalls): string {
  const silence = u.silentBeforeStopMs === null ? '' : ` for ${formatDuration(u.silentBeforeStopMs)}`;
  return `the target silent${silence}, longer than any answer took`;
}

/**
 * Whether the target held up under load and its 429s stayed correct: no 5xx, every request answered
 * with no transport error, and (when the limit is known) no more calls served than a conforming
 * limiter allows; then one line per `--ensure` threshold.
 */
export function loadVerdict(observation: LoadObservation): LoadVerdict {
  const served = count(observation.statuses, (s) => s >= 200 && s <= 299);
  const { check: withinLimit, accounting } = limitCheck(observation, served);
  const checks: LoadCheck[] = [fivexxCheck(observation), answeredCheck(observation), withinLimit, ranToEnd(observation), ...judgeThresholds(observation.thresholds, observation.measures)];
  return { status: checks.some((c) => c.status === 'failed') ? 'failed' : 'passed', checks, limit: accounting };
}
