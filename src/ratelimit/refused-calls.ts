import { formatDuration } from '../duration.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckResult } from '../report/model.ts';
import type { LoadRequest } from '../load/autocannon-run.ts';
import { burstSpan, histogram, stopped, type BurstOutcome } from './boundary.ts';
import type { CheckOutcome } from './check-outcome.ts';
import { BURST_ALLOWANCE_MS } from './phase-figures.ts';
import { rateLimitOutcome, REFUSED_CALLS_CHECK_ID } from './rate-limit-checks.ts';
import { outcomeOf } from './window-count.ts';

// RATE-LIMIT-REFUSED (§8 "all requests", with §7): calls refused for their token count toward the
// limit too. Two bursts of limit + 1 calls, one without Authorization, one with a wrong token
// repeated. They go after the run's last paced call (execute.ts): on a target with one window per
// client address they may leave the run's own token limited for a window, or longer where refused
// calls are limited more strictly, which conforms; last, they hold up nothing and cost no wait.

/** The wrong token the second burst repeats: a fixed string no issued token is (never the run's token). */
export const WRONG_TOKEN = 'clockcheck-not-a-token';

/** The documented GET both bursts repeat (§4.2), under the profile's api_prefix. */
const REFUSED_REQUEST: LoadRequest = { method: 'GET', path: '/users' };

/** The parts of the run each burst is kept under; the run-wide monitor judges neither (monitor.ts). */
export const REFUSED_SEGMENTS = { missing: 'refused-no-token', wrong: 'refused-wrong-token' } as const;

/** What the bursts cost: their requests (unpaced, at once) and the time they take, ms (an allowance each). */
export function plannedRefusedCalls(profile: Profile): { readonly requests: number; readonly ms: number } {
  if (!profile.rate_limit.bursts) return { requests: 0, ms: 0 };
  return { requests: 2 * (profile.rate_limit.limit + 1), ms: 2 * BURST_ALLOWANCE_MS };
}

/** What the check needs of the run. */
export interface RefusedCallsDeps {
  readonly profile: Profile;
  /** The run's `Authorization` value (its token form): the wrong token must differ from it. */
  readonly authorization: string;
  /** `amount` calls at once (autocannon, the run's trust and pin) kept under `segment`, with `authorization` as the header (null: none). */
  readonly burst: (request: LoadRequest, amount: number, segment: string, authorization: string | null) => Promise<BurstOutcome>;
  readonly replay: (checkId: string) => string;
}

/** The verdict of one burst: a 429 came (passed), all refused for the token within one window (failed), or no verdict and why. */
type BurstVerdict = { readonly kind: 'limited' | 'failed' } | { readonly kind: 'unjudged'; readonly reason: string };

/**
 * The check: a burst of limit + 1 calls without a token, then one with a wrong token repeated. Each
 * passes with a 429 among its calls, at any place (a stricter limit for refused calls, or a window
 * shared with the run's own calls); fails when all were refused for the token (a 4xx other than
 * 429) within one window for certain; judges nothing otherwise (a burst longer than the window, a
 * call unanswered, 5xx, or served: a 2xx without a token is AUTH-REQUIRED's, not this rule's).
 */
export async function runRefusedCalls(deps: RefusedCallsDeps): Promise<CheckResult> {
  const outcome = rateLimitOutcome(REFUSED_CALLS_CHECK_ID, deps);
  if (!deps.profile.rate_limit.bursts) return outcome.skipped('the profile turns the rate-limit bursts off (rate_limit.bursts: false)');
  if (deps.authorization.includes(WRONG_TOKEN)) return outcome.skipped(`the run's token is the wrong token this check sends ("${WRONG_TOKEN}")`);
  const amount = deps.profile.rate_limit.limit + 1;
  const missing = judgeRefusedBurst(await deps.burst(REFUSED_REQUEST, amount, REFUSED_SEGMENTS.missing, null), 'without Authorization', deps.profile, outcome);
  const wrong = judgeRefusedBurst(await deps.burst(REFUSED_REQUEST, amount, REFUSED_SEGMENTS.wrong, WRONG_TOKEN), `with the wrong token "${WRONG_TOKEN}"`, deps.profile, outcome);
  const unjudged = [missing, wrong].flatMap((v) => (v.kind === 'unjudged' ? [v.reason] : []));
  if (outcome.failed || unjudged.length === 0) return outcome.result();
  return outcome.errored(unjudged.join('; '));
}

/** Judges one burst of refused calls into `outcome` (a note, a finding) and says what it showed. */
export function judgeRefusedBurst(burst: BurstOutcome, how: string, profile: Profile, outcome: CheckOutcome): BurstVerdict {
  const { limit, window: windowMs } = profile.rate_limit;
  const calls = burst.exchanges;
  const sent = calls.length + burst.unanswered;
  const label = `${sent} calls ${how}`;
  if (calls.length === 0) return { kind: 'unjudged', reason: `${label}: none got a response${stopped(burst)}` };
  const span = burstSpan(burst);
  outcome.note(`${label}, sent at once: answered within ${formatDuration(span.ms)}: ${histogram(calls)}`);
  const byTime = [...calls].sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);
  const limited = byTime.filter((e) => outcomeOf(e) === 'limited');
  if (limited.length > 0) {
    outcome.keep(limited.slice(0, 1));
    // Sent at once, the calls reach the limiter in no known order: only how many were limited says anything.
    const early = limited.length - Math.max(0, sent - limit);
    if (early > 0) outcome.note(`${label}: ${limited.length} × 429 where the limit leaves ${Math.max(0, sent - limit)}: a stricter limit for refused calls, or a window shared with the run's calls (conforms)`);
    return { kind: 'limited' };
  }
  const served = calls.filter((e) => outcomeOf(e) === 'served');
  if (served.length > 0) outcome.keep(served.slice(0, 1));
  const refused = calls.filter((e) => isRefusedForToken(e.response?.status));
  if (served.length > 0) return { kind: 'unjudged', reason: `${label}: ${served.length} served (2xx: AUTH-REQUIRED's or AUTH-TOKEN-VALID's to judge), no 429, so whether refused calls count was not shown` };
  if (burst.unanswered > 0 || refused.length < calls.length) return { kind: 'unjudged', reason: `${label}: ${histogram(calls)}${burst.unanswered > 0 ? `, ${burst.unanswered} unanswered${stopped(burst)}` : ''}; not all refused for the token (4xx), no 429` };
  if (span.ms >= windowMs) return { kind: 'unjudged', reason: `${label} took ${formatDuration(span.ms)}, not less than the ${formatDuration(windowMs)} window, so they do not show one window's count` };
  outcome.fail('RATE-LIMIT-REFUSED', `a 429 at or before call ${limit + 1} of ${sent} calls ${how} within one ${formatDuration(windowMs)} window (§8: all requests count)`, `all ${sent} refused for the token (${histogram(calls)}) within ${formatDuration(span.ms)}: refused calls are not counted`, [...new Set([byTime[0]!, byTime.at(-1)!])]);
  return { kind: 'failed' };
}

/** Refused for its token: a 4xx other than 429 (401, 403, or the profile's unauthenticated status). */
function isRefusedForToken(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 429;
}
