import { formatDuration } from '../duration.ts';
import type { CheckResult } from '../report/model.ts';
import type { Exchange } from '../target/exchange.ts';
import { CheckRecorder } from './check-recorder.ts';
import { describeBusiest, failIfOverLimit } from './sliding.ts';
import { busiestSpan, callsThatCouldCount, handled, timed, type TimedCall } from './window-count.ts';

/** Segments where a 429 is what the rate-limit checks are after; a 429 anywhere else is unintended. */
export const PROVOKING_SEGMENTS: ReadonlySet<string> = new Set(['boundary', 'poll', 'reset', 'straddle-before', 'straddle-after']);

export const MONITOR_CHECK_ID = 'rate-limit/monitor';

/** A paced call answered 429 and sent again. */
export interface ResentCall {
  /** The exchange that got the 429. */
  readonly exchangeId: number;
  /** How long the run waited before sending it again, ms. */
  readonly waitMs: number;
}

/**
 * The run-wide view of §8: every call of the run with its time. At the end it verifies that no
 * window-length interval holds more than `limit` handled calls (any answer but 429 or 5xx), and
 * that the pacing kept 429s to the rate-limit checks. An excess within one burst breaks
 * RATE-LIMIT-CAP; one that needs calls from two parts of the run (a fixed window's reset between
 * them) breaks RATE-LIMIT-SLIDING. A 429 outside the rate-limit checks, when fewer than `limit`
 * calls could count in the window before it, breaks RATE-LIMIT-QUOTA (another client using the same
 * token would explain it too; the finding says so).
 */
export class RateMonitor {
  readonly #calls: TimedCall[] = [];
  readonly #resent: ResentCall[] = [];

  record(exchange: Exchange, segment: string): void {
    this.#calls.push(timed(exchange, segment));
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
    return this.#calls.filter((c) => c.exchange.response?.status === 429 && !PROVOKING_SEGMENTS.has(c.segment));
  }

  get size(): number {
    return this.#calls.length;
  }

  check(limit: number, windowMs: number, replay: string): CheckResult {
    const recorder = new CheckRecorder(MONITOR_CHECK_ID, `No ${formatDuration(windowMs)} interval of the run serves more than ${limit} calls, and pacing keeps 429s to the rate-limit checks`, ['RATE-LIMIT-CAP'], replay);
    if (this.#calls.length === 0) return recorder.skipped('no calls were made');
    if (!this.#calls.some((c) => isServed(c.exchange.response?.status))) {
      return recorder.errored(`none of the run's ${this.#calls.length} calls was served (2xx): how many calls a window serves was not shown`);
    }
    const busiest = busiestSpan(this.#calls.filter((c) => handled(c.exchange)), windowMs);
    recorder.note(`${this.#calls.length} calls watched; the busiest interval: ${describeBusiest(busiest)}`);
    const acrossParts = new Set(busiest.calls.map((c) => c.segment)).size > 1;
    failIfOverLimit(recorder, acrossParts ? 'RATE-LIMIT-SLIDING' : 'RATE-LIMIT-CAP', busiest, limit, windowMs);
    const unintended = this.#unintended();
    const premature = unintended.map((refused) => ({ refused, counted: callsThatCouldCount(refused, this.#calls, windowMs) })).filter((u) => u.counted < limit);
    if (premature.length > 0) {
      const most = Math.max(...premature.map((u) => u.counted));
      const where = [...new Set(premature.map((u) => u.refused.segment))].join(', ');
      recorder.fail(
        'RATE-LIMIT-QUOTA',
        `no 429 while fewer than ${limit} calls were made in the ${formatDuration(windowMs)} before`,
        `${premature.length} × 429 (${where}) when at most ${most} of the harness's calls could count; if another client uses the same token, that explains it`,
        [...new Set([premature[0]!.refused.exchange, premature.at(-1)!.refused.exchange])],
      );
    }
    if (this.#resent.length > 0) {
      const ids = this.#resent.map((r) => `#${r.exchangeId}`).join(', ');
      recorder.note(`${this.#resent.length} × 429 outside the rate-limit checks sent once more after the target's Retry-After (waited ${this.#resent.map((r) => formatDuration(r.waitMs)).join(', ')}): exchanges ${ids}; their checks judged the second answer`);
    }
    if (unintended.length > premature.length) {
      recorder.note(`${unintended.length - premature.length} × 429 outside the rate-limit checks after ${limit} or more calls in the window before: the pacing did not keep the run under the limit`);
    }
    return recorder.result();
  }
}

function isServed(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status < 300;
}
