import { formatDuration } from '../duration.ts';
import type { CheckResult } from '../report/model.ts';
import type { RuleId } from '../contract/rules.ts';
import type { Exchange } from '../client/exchange.ts';
import type { CheckOutcome } from './check-outcome.ts';
import { burstSpan, histogram, stopped, type BurstOutcome } from './boundary.ts';
import { busiestSpan, certainlyCounted, outcomeOf, timed, type BusiestSpan, type TimedCall } from './window-count.ts';

/** "60 calls served within 0.31 s (boundary: 1, straddle-1: 59, straddle-2: 60 …)", for a finding. */
export function describeBusiest(busiest: BusiestSpan): string {
  const bySegment = new Map<string, number>();
  for (const call of busiest.calls) bySegment.set(call.segment, (bySegment.get(call.segment) ?? 0) + 1);
  const parts = [...bySegment].map(([segment, n]) => `${segment}: ${n}`).join(', ');
  return `${busiest.calls.length} calls served within ${formatDuration(busiest.spanMs)} (${parts})`;
}

/** A few exchanges that show a busiest span: its first two and last two calls. */
function evidenceOf(busiest: BusiestSpan): Exchange[] {
  const calls = [...busiest.calls].sort((a, b) => a.from - b.from);
  const picked = calls.length <= 4 ? calls : [...calls.slice(0, 2), ...calls.slice(-2)];
  return picked.map((c) => c.exchange);
}

/** When more than `limit` served calls certainly fell into one window: the finding, under `rule`. */
export function failIfOverLimit(outcome: CheckOutcome, rule: RuleId, busiest: BusiestSpan, limit: number, windowMs: number): boolean {
  if (busiest.calls.length <= limit) return false;
  outcome.fail(rule, `at most ${limit} calls served in any ${formatDuration(windowMs)} interval (§8: within ANY one-minute window)`, describeBusiest(busiest), evidenceOf(busiest));
  return true;
}

/**
 * The straddle: one call that opens a window at `opener`, calls a little after it (`before` the
 * reset a fixed window would make a window later), and a burst just `after` that reset.
 */
export interface Straddle {
  readonly opener: Exchange;
  /** The earliest a fixed window holding the opener can have begun: the last refused poll's sending, or the opener's. */
  readonly windowFrom: number;
  readonly before: BurstOutcome;
  readonly after: BurstOutcome;
}

/**
 * RATE-LIMIT-SLIDING (§8, "within ANY one-minute window"). A fixed window, whether it starts at a
 * key's first call (Laravel's throttle) or at the clock's minute, serves `limit` calls again right
 * after its reset whatever it served just before. The served poll after the boundary burst is the
 * first call of a fresh window (for a clock-aligned window, the first call after its reset), so a
 * window later comes the next reset of either kind: `before` (calls a little after the opener)
 * and `after` (one call more at once than a sliding window leaves free, just after that reset) fall
 * on both sides of it. A sliding window serves of `after` only what `before` left free; a fixed one
 * serves all of it, and with the counted calls of `before` that is more than `limit` in one window.
 * The verdict counts the calls of the whole phase that certainly counted (served, or answered 4xx:
 * certainlyCounted) and certainly fell into one window.
 */
export function judgeSliding(
  served: readonly TimedCall[],
  straddle: Straddle | null,
  limit: number,
  windowMs: number,
  outcome: CheckOutcome,
): CheckResult {
  const busiest = busiestSpan(served, windowMs);
  if (failIfOverLimit(outcome, 'RATE-LIMIT-SLIDING', busiest, limit, windowMs)) return outcome.result();
  if (!straddle) return outcome.errored('no call was served again after the boundary burst, so no window could be straddled');
  outcome.keep([straddle.opener, ...straddle.before.exchanges, ...straddle.after.exchanges]);
  if (straddle.after.exchanges.length === 0) return outcome.errored(`the burst after the reset got no responses${stopped(straddle.after)}`);
  // A call of `after` neither served nor limited (a 5xx, no answer) may have been counted by the
  // limiter or not: the served count would hide a fixed window's excess, so the straddle shows
  // nothing for certain. Before the reset, one served call is all a fixed window's excess needs, but
  // a call before it with no answer at all may have reached the limiter at any time, after the reset
  // too, and taken a place the burst after it needs.
  const undecided = straddle.after.exchanges.filter((e) => outcomeOf(e) === 'other');
  const servedBefore = straddle.before.exchanges.filter(certainlyCounted);
  if (undecided.length > 0 || straddle.after.unanswered > 0 || straddle.before.unanswered > 0 || servedBefore.length === 0) {
    const shown = (b: BurstOutcome) => (histogram(b.exchanges) || 'none') + (b.unanswered > 0 ? `, ${b.unanswered} unanswered` : '');
    const beforeText = `${shown(straddle.before)}${servedBefore.length === 0 ? ', none counted' : ''}`;
    return outcome.errored(
      `the straddle's calls were not decided (before the reset: ${beforeText}; after it: ${shown(straddle.after)}): the sliding window needs a call before the reset that certainly counted and the limiter's decision on every call after it`,
    );
  }
  const opened = timed(straddle.opener, 'opener');
  const first = Math.min(...servedBefore.map((e) => e.sentAtMs));
  const before = { from: first, to: burstSpan(straddle.before).to };
  const after = burstSpan(straddle.after);
  const reset = `${formatDuration(windowMs)} after the opening call`;
  // The earliest a fixed window's reset can come: a window after the earliest its window began.
  const earliestReset = straddle.windowFrom + windowMs;
  const late = straddle.before.exchanges.filter((e) => e.sentAtMs + e.durationMs >= earliestReset);
  const countedInTime = servedBefore.filter((e) => e.sentAtMs + e.durationMs < earliestReset);
  const lateText = late.length > 0 ? `, ${late.length} of them answered after the earliest reset` : '';
  outcome.note(`before the reset: ${straddle.before.exchanges.length} calls (${servedBefore.length} counted${lateText}) from ${formatDuration(before.from - opened.from)} to ${formatDuration(before.to - opened.from)} after the opening call`);
  outcome.note(`after the reset: ${straddle.after.exchanges.length} calls from ${formatDuration(after.from - opened.to)} to ${formatDuration(after.to - opened.to)} after the opening call's response: ${histogram(straddle.after.exchanges)}`);
  // Conclusive only if a counted call of `before` ended before any reset a window after the opener's
  // window began, every call of `before` answered after it certainly counted, `after` began after the
  // latest such reset, and `before`'s counted calls and all of `after` fit in one window. Then a fixed
  // window would have shown more than `limit`: it counted the calls in time in its old window, and the
  // late ones in either; `after` is `limit` - counted + 1 calls, so with the late calls it fits under
  // the limit in the new window while one counted call stands in the old one, and is served whole.
  if (countedInTime.length === 0 || late.some((e) => !certainlyCounted(e)) || after.from <= opened.to + windowMs) {
    return outcome.errored(`the straddle missed the ${reset} (the target answered too slowly for a ${formatDuration(windowMs)} window)`);
  }
  if (after.to - before.from >= windowMs) {
    return outcome.errored(`the straddle took ${formatDuration(after.to - before.from)}, not less than the ${formatDuration(windowMs)} window`);
  }
  return outcome.result();
}
