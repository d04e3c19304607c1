import { setTimeout as delay } from 'node:timers/promises';
import { formatDuration } from '../duration.ts';
import type { CheckResult } from '../report/model.ts';
import type { RuleId } from '../contract/rules.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { LoadRequest } from '../load/autocannon-run.ts';
import { CheckOutcome } from './check-outcome.ts';
import { judgeBoundary, burstSpan, type BurstOutcome } from './boundary.ts';
import { judgeSliding, type Straddle } from './sliding.ts';
import { judgePageSizesUnderLoad, PAGE_SIZES_UNDER_LOAD } from './page-size-under-load.ts';
import { outcomeOf, timed, type TimedCall } from './window-count.ts';

/** The rules a rate-limit check names only when the profile asks for them: the rule, the profile key, and whether it is set. */
export const PROFILE_RULES_OF_CHECK: Readonly<Partial<Record<string, { readonly rule: RuleId; readonly key: string; readonly asserted: (profile: Profile) => boolean }>>> = {
  'rate-limit/boundary': { rule: 'RATE-LIMIT-BODY', key: 'rate_limit.body_text', asserted: (profile) => profile.rate_limit.body_text !== undefined },
};

/** The rate-limit checks, by ID, with the rules each one names. */
export const RATE_LIMIT_CHECKS = {
  'rate-limit/boundary': { title: 'A burst of limit + K calls after a quiet window: exactly limit served, the rest 429', rules: ['RATE-LIMIT-CAP', 'RATE-LIMIT-QUOTA', 'RATE-LIMIT-STATUS'] },
  'rate-limit/reset': { title: 'Once the window since the served calls has passed, calls are served again', rules: ['RATE-LIMIT-RESET'] },
  'rate-limit/sliding': { title: 'No window-length interval serves more than limit calls, across a fixed-window reset at the first call or at the clock', rules: ['RATE-LIMIT-SLIDING'] },
  'rate-limit/page-size-under-load': { title: 'page_size 100, 101, 1000, 0 and -1, each asked several times at once: never more than 100 items, the same answer for each copy', rules: ['PAG-PAGE-SIZE-MAX'] },
} as const satisfies Record<string, { title: string; rules: readonly RuleId[] }>;

export type RateLimitCheckId = keyof typeof RATE_LIMIT_CHECKS;

/** Concurrent copies of each page size in the page-size check. */
const PAGE_SIZE_COPIES = 4;

/** The reset check polls this many times a window: fine enough to find a clock-aligned reset well inside the straddle's margin (window / 20). */
const POLLS_PER_WINDOW = 40;

/** What the phase needs from the run. */
export interface RateLimitPhaseDeps {
  readonly profile: Profile;
  /** One call through the harness's client, kept under `segment` (not paced inside the phase). */
  readonly call: (request: TargetRequest, segment: string) => Promise<Exchange>;
  /**
   * `amount` calls at once over the profile's connections (autocannon), kept under `segment`;
   * `wholeBodies` keeps each body up to the client's 1 MiB (a page of 100 records), else BURST_BODY_BYTES.
   */
  readonly burst: (requests: readonly LoadRequest[], amount: number, segment: string, wholeBodies?: boolean) => Promise<BurstOutcome>;
  /** The pacer's margin on top of the window, ms: a "quiet window" is window + guard without calls. */
  readonly guardMs: number;
  /**
   * Instead of a quiet window before the page sizes, a fresh limiter: the embedded server's limiter
   * is restarted (CertifyOptions.quickPacing), which empties its window at once. Absent: a target's
   * window is waited out.
   */
  readonly restartLimiter?: () => Promise<void>;
  readonly replay: (checkId: string) => string;
  /** Which checks to run (by ID or rule, as --only selects). */
  readonly selected: (checkId: RateLimitCheckId) => boolean;
}

const PHASE_CHECKS = Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[];

function outcome(id: RateLimitCheckId, deps: RateLimitPhaseDeps): CheckOutcome {
  const { title, rules } = RATE_LIMIT_CHECKS[id];
  const conditional = PROFILE_RULES_OF_CHECK[id];
  const named: RuleId[] = conditional?.asserted(deps.profile) ? [...rules, conditional.rule] : [...rules];
  return new CheckOutcome(id, title, named, deps.replay(id));
}

/** The last call the reset check kept (the one after the quiet window), if any. */
function lastResetCall(outcome: CheckOutcome): Exchange | undefined {
  return outcome.kept().at(-1);
}

/** Why the reset check reached no verdict: the call after a quiet window was neither served nor limited. */
function resetUnjudged(after: Exchange | undefined): string {
  const answer = !after ? 'was not sent' : after.response ? `answered ${after.response.status}` : `got no response (${after.error?.code ?? 'OTHER'})`;
  return `the call after a quiet window ${answer}, neither served (2xx) nor limited (429): the reset could not be judged`;
}

async function sleepUntil(at: number): Promise<void> {
  const wait = at - Date.now();
  if (wait > 0) await delay(wait);
}

function endOf(exchanges: readonly Exchange[]): number {
  return Math.max(...exchanges.map((e) => e.sentAtMs + e.durationMs));
}

/** The requests and time the phase plans for, for the progress ETA. */
export function plannedRateLimitPhase(profile: Profile, selected: (id: RateLimitCheckId) => boolean): { readonly requests: number; readonly ms: number } {
  const { limit, burst_extra: extra, window: windowMs, bursts } = profile.rate_limit;
  if (!bursts) return { requests: 0, ms: 0 };
  const windowChecks = selected('rate-limit/boundary') || selected('rate-limit/reset') || selected('rate-limit/sliding');
  const straddle = selected('rate-limit/sliding');
  const pageSizes = selected('rate-limit/page-size-under-load');
  const requests = (windowChecks ? limit + extra + POLLS_PER_WINDOW + 1 : 0) + (straddle ? 2 * limit - 1 : 0) + (pageSizes ? PAGE_SIZES_UNDER_LOAD.length * PAGE_SIZE_COPIES : 0);
  const ms = (windowChecks ? 2 * windowMs : 0) + (straddle ? windowMs : 0) + (pageSizes ? windowMs : 0);
  return { requests, ms };
}

/**
 * The ETA of a run whose last phase is this one: the paced requests as the pacer estimates them,
 * plus the phase's planned time (it is timed by the window, not paced) until the phase starts; then
 * 0, and the progress falls back on the pace it sees.
 */
export function estimateWithPhase(
  pacedMs: (requests: number) => number,
  plan: { readonly requests: number; readonly ms: number },
  phaseStarted: () => boolean,
): (remaining: number) => number {
  return (remaining) => (phaseStarted() ? 0 : pacedMs(Math.max(0, remaining - plan.requests)) + plan.ms);
}

/**
 * The rate-limit phase (§8, §7), run after a window without calls (the caller's `pacer.exclusive`):
 *
 * 1. boundary: limit + K calls at once.
 * 2. reset: single calls every window/40 until one is served again (the first call of a new
 *    window); if none is within a window and a guard, a window with no calls and then one call.
 * 3. sliding: a window after that call, limit − 1 calls just before it and limit just after.
 * 4. page size under load: after another quiet window (or a restart of the embedded server's
 *    limiter), each page size asked several times at once.
 *
 * Every burst is at most limit + K calls. Returns the selected checks' results.
 */
export async function runRateLimitPhase(deps: RateLimitPhaseDeps): Promise<CheckResult[]> {
  const { profile } = deps;
  const { limit, window: windowMs, burst_extra: extra, probe_path: probePath } = profile.rate_limit;
  const results: CheckResult[] = [];
  const wanted = PHASE_CHECKS.filter((id) => deps.selected(id));
  if (wanted.length === 0) return results;
  if (!profile.rate_limit.bursts) {
    return wanted.map((id) => outcome(id, deps).skipped('the profile turns the rate-limit bursts off (rate_limit.bursts: false)'));
  }
  const probe: LoadRequest = { method: 'GET', path: probePath };
  const served: TimedCall[] = [];
  const keepServed = (exchanges: readonly Exchange[], segment: string) => {
    for (const e of exchanges) if (outcomeOf(e) === 'served') served.push(timed(e, segment));
  };
  let lastEnd = Date.now();

  if (wanted.some((id) => id !== 'rate-limit/page-size-under-load')) {
    // 1. boundary
    const boundaryOutcome = outcome('rate-limit/boundary', deps);
    const boundary = await deps.burst([probe], limit + extra, 'boundary');
    keepServed(boundary.exchanges, 'boundary');
    const boundaryResult = judgeBoundary(boundary, profile, boundaryOutcome, deps.restartLimiter ? 'on a fresh limiter' : undefined);
    if (deps.selected('rate-limit/boundary')) results.push(boundaryResult);
    const usable = boundary.exchanges.length > 0 && boundaryResult.status !== 'errored';
    lastEnd = boundary.exchanges.length > 0 ? endOf(boundary.exchanges) : Date.now();

    // 2. reset
    const reset = outcome('rate-limit/reset', deps);
    let opener: Exchange | undefined;
    if (usable) {
      const step = Math.max(5, windowMs / POLLS_PER_WINDOW);
      const deadline = lastEnd + windowMs + deps.guardMs + step;
      const polls: Exchange[] = [];
      for (let next = lastEnd; !opener && Date.now() < deadline; ) {
        await sleepUntil(next);
        const poll = await deps.call(probe, 'poll');
        polls.push(poll);
        if (outcomeOf(poll) === 'served') opener = poll;
        next = poll.sentAtMs + step;
      }
      keepServed(polls, 'poll');
      lastEnd = polls.length > 0 ? endOf(polls) : lastEnd;
      const refused = polls.filter((p) => outcomeOf(p) !== 'served');
      reset.keep([...refused.slice(0, 1), ...refused.slice(-1)]);
      if (opener) {
        reset.keep([opener]);
        reset.note(`served again ${formatDuration(opener.sentAtMs - burstSpan(boundary).from)} after the burst began, after ${refused.length} refused polls (one every ${step} ms)`);
      } else {
        // Some servers count refused calls too: give them a whole window without calls.
        await sleepUntil(lastEnd + windowMs + deps.guardMs);
        const after = await deps.call(probe, 'reset');
        lastEnd = endOf([after]);
        reset.keep([after]);
        if (outcomeOf(after) === 'served') {
          opener = after;
          keepServed([after], 'reset');
          reset.note(`not served while polled every ${step} ms (refused calls count toward the window); served after ${formatDuration(windowMs + deps.guardMs)} without calls`);
        } else if (outcomeOf(after) === 'limited') {
          // Only a 429 shows the limiter still refusing; a 5xx or another status shows no limiter decision.
          reset.fail('RATE-LIMIT-RESET', `a call served once ${formatDuration(windowMs + deps.guardMs)} passed without any call`, `status 429, ${polls.length} polls over the window before all refused`, [after]);
        }
      }
    }
    if (deps.selected('rate-limit/reset')) {
      results.push(!usable ? reset.skipped('the boundary burst reached no verdict') : reset.failed || opener ? reset.result() : reset.errored(resetUnjudged(lastResetCall(reset))));
    }

    // 3. sliding
    if (deps.selected('rate-limit/sliding')) {
      const sliding = outcome('rate-limit/sliding', deps);
      if (!usable) {
        results.push(sliding.skipped('the boundary burst reached no verdict'));
      } else if (!opener) {
        results.push(judgeSliding(served, null, limit, windowMs, sliding));
      } else {
        const spanMs = burstSpan(boundary).ms;
        const beforeAt = opener.sentAtMs + windowMs - (2 * spanMs + windowMs / 20);
        const afterAt = opener.sentAtMs + opener.durationMs + windowMs + windowMs / 50;
        const [before, after] = await Promise.all([
          sleepUntil(beforeAt).then(() => deps.burst([probe], limit - 1, 'straddle-before')),
          sleepUntil(afterAt).then(() => deps.burst([probe], limit, 'straddle-after')),
        ]);
        keepServed(before.exchanges, 'straddle-before');
        keepServed(after.exchanges, 'straddle-after');
        lastEnd = endOf([...before.exchanges, ...after.exchanges, opener]);
        const straddle: Straddle = { opener, before, after };
        results.push(judgeSliding(served, straddle, limit, windowMs, sliding));
      }
    }
  }

  // 4. page size under load
  if (deps.selected('rate-limit/page-size-under-load')) {
    if (deps.restartLimiter) await deps.restartLimiter();
    else await sleepUntil(lastEnd + windowMs + deps.guardMs);
    const pageSizes = outcome('rate-limit/page-size-under-load', deps);
    const separator = probePath.includes('?') ? '&' : '?';
    const ask = async (size: number) => (await deps.burst([{ method: 'GET', path: `${probePath}${separator}page_size=${size}` }], PAGE_SIZE_COPIES, 'page-size', true)).exchanges;
    results.push(await judgePageSizesUnderLoad(PAGE_SIZES_UNDER_LOAD, ask, profile, pageSizes));
  }
  return results;
}
