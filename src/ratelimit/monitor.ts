import { formatDuration } from '../duration.ts';
import type { CheckResult } from '../report/model.ts';
import type { Exchange } from '../client/exchange.ts';
import { CheckOutcome } from './check-outcome.ts';
import { describeBusiest, failIfOverLimit } from './sliding.ts';
import { busiestSpan, callsThatCouldCount, certainlyCounted, timed, type TimedCall } from './window-count.ts';
import { REFUSED_SEGMENTS } from './refused-calls.ts';

/** Segments where a 429 is what the rate-limit checks are after; a 429 anywhere else is unintended. */
export const PROVOKING_SEGMENTS: ReadonlySet<string> = new Set(['boundary', 'poll', 'reset', 'straddle-before', 'straddle-after']);

export const MONITOR_CHECK_ID = 'rate-limit/monitor';

/**
 * Segments the monitor watches but does not judge: the refused calls' bursts (refused-calls.ts), sent
 * without the run's token after its last paced call. A 429 there is what that check is after, at any
 * place (a stricter limit for refused calls conforms), and a wrong token's 403 counts toward no
 * token of the run: neither may fail RATE-LIMIT-QUOTA nor RATE-LIMIT-CAP here.
 */
const UNJUDGED_SEGMENTS: ReadonlySet<string> = new Set(Object.values(REFUSED_SEGMENTS));

/** A paced call answered 429 and sent again. */
export interface ResentCall {
  /** The exchange that got the 429. */
  readonly exchangeId: number;
  /** How long the run waited before sending it again, ms. */
  readonly waitMs: number;
}

/**
 * The run-wide view of §8: every call of the run with its time (the refused calls' bursts watched,
 * not judged: UNJUDGED_SEGMENTS). At the end it verifies that no
 * window-length interval holds more than `limit` certainlyCounted calls (any answer but 429 or 5xx), and
 * that the pacing kept 429s to the rate-limit checks. An excess within one burst breaks
 * RATE-LIMIT-CAP; one that needs calls from two parts of the run (a fixed window's reset between
 * them) breaks RATE-LIMIT-SLIDING. A 429 outside the rate-limit checks, when fewer than `limit`
 * calls could count in the window before it, breaks RATE-LIMIT-QUOTA (another client using the same
 * token would explain it too; the finding says so).
 */
export class RateMonitor {
  readonly #calls: TimedCall[] = [];
  readonly #resent: ResentCall[] = [];
  /** Limiter restarts: from `#calls[at]` on, the calls were made under a fresh limiter with `windowMs`. */
  readonly #restarts: { readonly at: number; readonly windowMs: number }[] = [];

  observe(exchange: Exchange, segment: string): void {
    this.#calls.push(timed(exchange, segment));
  }

  /**
   * The target's limiter was replaced by a fresh one with `windowMs` (the embedded server, before
   * the rate-limit phase): the calls from now on are judged at that window, apart from the calls
   * before (no window of the new limiter holds them).
   */
  limiterRestarted(windowMs: number): void {
    this.#restarts.push({ at: this.#calls.length, windowMs });
  }

  /** The calls by limiter, each part with its window (the first part's is `firstWindowMs`). */
  #parts(firstWindowMs: number): { readonly calls: readonly TimedCall[]; readonly windowMs: number }[] {
    const starts = [{ at: 0, windowMs: firstWindowMs }, ...this.#restarts];
    return starts.map((start, i) => ({ calls: this.#calls.slice(start.at, starts[i + 1]?.at ?? this.#calls.length), windowMs: start.windowMs })).filter((p) => p.calls.length > 0);
  }

  /** A paced call got an unintended 429 and was sent again (RunTransport.send). */
  noteResent(call: ResentCall): void {
    this.#resent.push(call);
  }

  /** The unintended 429s whose calls were sent again. */
  get resent(): readonly ResentCall[] {
    return this.#resent;
  }

  /** How many 429s came outside the rate-limit checks. */
  get unintended429(): number {
    return this.#unintended().length;
  }

  /** The 429s outside the rate-limit checks. */
  #unintended(): TimedCall[] {
    return this.#calls.filter((c) => c.exchange.response?.status === 429 && !PROVOKING_SEGMENTS.has(c.segment) && !UNJUDGED_SEGMENTS.has(c.segment));
  }

  get size(): number {
    return this.#calls.length;
  }

  /** `windowMs`: the target's window, the one the run's first calls were made under (for the embedded server, its quick window). */
  check(limit: number, windowMs: number, replay: string): CheckResult {
    const parts = this.#parts(windowMs);
    const windows = [...new Set([windowMs, ...parts.map((p) => p.windowMs)])].map(formatDuration).join(' or ');
    const outcome = new CheckOutcome(MONITOR_CHECK_ID, `No ${windows} interval of the run serves more than ${limit} calls, and pacing keeps 429s to the rate-limit checks`, ['RATE-LIMIT-CAP'], replay);
    if (this.#calls.length === 0) return outcome.skipped('no calls were made');
    if (!this.#calls.some((c) => isServed(c.exchange.response?.status))) {
      // Refused from the first call on, when fewer than `limit` could count: the limit is stricter than §8's (a target that serves nothing).
      const refused = this.#unintended().filter((u) => callsThatCouldCount(u, this.#calls, windowMs) < limit);
      if (refused.length === 0) return outcome.errored(`none of the run's ${this.#calls.length} calls was served (2xx): how many calls a window serves was not shown`);
      outcome.fail('RATE-LIMIT-QUOTA', `the first ${limit} calls of a ${formatDuration(windowMs)} window served`, `none of the run's ${this.#calls.length} calls was served: ${refused.length} × 429 while fewer than ${limit} calls could count`, [...new Set([refused[0]!.exchange, refused.at(-1)!.exchange])]);
      return outcome.result();
    }
    if (parts.length > 1) outcome.note(`${this.#calls.length} calls watched; the target's limiter was restarted with another window ${parts.length - 1} ×, so the calls under each limiter are judged at its window`);
    for (const part of parts) {
      const busiest = busiestSpan(part.calls.filter((c) => certainlyCounted(c.exchange) && !UNJUDGED_SEGMENTS.has(c.segment)), part.windowMs);
      const watched = parts.length > 1 ? `under the ${formatDuration(part.windowMs)} window, ${part.calls.length} calls` : `${part.calls.length} calls watched`;
      outcome.note(`${watched}; the busiest interval: ${describeBusiest(busiest)}`);
      const acrossParts = new Set(busiest.calls.map((c) => c.segment)).size > 1;
      failIfOverLimit(outcome, acrossParts ? 'RATE-LIMIT-SLIDING' : 'RATE-LIMIT-CAP', busiest, limit, part.windowMs);
    }
    const unintended = new Set(this.#unintended());
    const premature = parts.flatMap((part) =>
      part.calls
        .filter((c) => unintended.has(c))
        .map((refused) => ({ refused, counted: callsThatCouldCount(refused, part.calls, part.windowMs) }))
        .filter((u) => u.counted < limit),
    );
    if (premature.length > 0) {
      const most = Math.max(...premature.map((u) => u.counted));
      const where = [...new Set(premature.map((u) => u.refused.segment))].join(', ');
      outcome.fail(
        'RATE-LIMIT-QUOTA',
        `no 429 while fewer than ${limit} calls were made in the ${formatDuration(windowMs)} before`,
        `${premature.length} × 429 (${where}) when at most ${most} of the harness's calls could count; if another client uses the same token, that explains it`,
        [...new Set([premature[0]!.refused.exchange, premature.at(-1)!.refused.exchange])],
      );
    }
    if (this.#resent.length > 0) {
      const ids = this.#resent.map((r) => `#${r.exchangeId}`).join(', ');
      outcome.note(`${this.#resent.length} × 429 outside the rate-limit checks sent once more after the target's Retry-After (waited ${this.#resent.map((r) => formatDuration(r.waitMs)).join(', ')}): exchanges ${ids}; their checks judged the second answer`);
    }
    if (unintended.size > premature.length) {
      outcome.note(`${unintended.size - premature.length} × 429 outside the rate-limit checks after ${limit} or more calls in the window before: the pacing did not keep the run under the limit`);
    }
    return outcome.result();
  }
}

function isServed(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}
