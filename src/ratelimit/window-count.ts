import type { Exchange } from '../client/exchange.ts';

/**
 * How §8's limit is judged from the harness's side of the wire. The server decides on each call at
 * some moment between the request being sent and the response completing; the harness knows only
 * that interval. So a verdict is drawn only when it holds for every possible moment:
 *
 * - N calls were served in one window for certain when the N intervals all fit in a span shorter
 *   than the window (then some window of the server's holds every decision).
 * - A refusal was premature for certain when fewer than `limit` of the harness's calls could have
 *   been decided in the window before it (see `callsThatCouldCount`).
 */

/** What the limiter made of one call. */
export type Outcome = 'served' | 'limited' | 'other';

/** served: any 2xx; limited: 429 (§7); other: anything else, including no response. */
export function outcomeOf(exchange: Exchange): Outcome {
  const status = exchange.response?.status;
  if (status === undefined) return 'other';
  if (status === 429) return 'limited';
  return status >= 200 && status < 300 ? 'served' : 'other';
}

/**
 * Whether the limiter certainly counted a call toward the run's token (§8: all requests): it carried
 * the token and was answered, neither 429 (refused) nor 401 (perhaps counted elsewhere, or not at
 * all) nor 5xx (perhaps failed before the limiter). A 4xx validation answer is a call the server
 * handled. The run-wide monitor counts these, and the boundary the paced checks' calls so.
 */
export function certainlyCounted(exchange: Exchange): boolean {
  const status = exchange.response?.status;
  return status !== undefined && status !== 429 && status !== 401 && status < 500 && exchange.request.headers.authorization !== undefined;
}

/** A call as the window arithmetic sees it: from sending to the end of the response, in epoch ms. */
export interface TimedCall {
  readonly exchange: Exchange;
  readonly from: number;
  readonly to: number;
  /** Which part of the run sent it (a burst, the polls, the paced checks), for telling fixed-window straddles from single bursts. */
  readonly segment: string;
}

export function timed(exchange: Exchange, segment: string): TimedCall {
  return { exchange, from: exchange.sentAtMs, to: exchange.sentAtMs + exchange.durationMs, segment };
}

/** The most calls that were certainly decided within one window, and which. */
export interface BusiestSpan {
  readonly calls: readonly TimedCall[];
  /** From the first call's sending to the last call's response, ms; below the window. */
  readonly spanMs: number;
}

/**
 * The largest set of calls that certainly fell within one window of `windowMs`: all their
 * [sent, received] intervals inside a span shorter than the window. O(n²) over at most a few
 * thousand calls per run.
 */
export function busiestSpan(calls: readonly TimedCall[], windowMs: number): BusiestSpan {
  const byStart = [...calls].sort((a, b) => a.from - b.from);
  let best: TimedCall[] = [];
  let bestSpan = 0;
  for (let i = 0; i < byStart.length; i++) {
    const start = (byStart[i] as TimedCall).from;
    // Calls starting at or after `start` and ending before start + window; each such set is a candidate.
    const inside = [];
    for (let j = i; j < byStart.length && (byStart[j] as TimedCall).from - start < windowMs; j++) {
      const call = byStart[j] as TimedCall;
      if (call.to - start < windowMs) inside.push(call);
    }
    if (inside.length > best.length) {
      best = inside;
      bestSpan = Math.max(...inside.map((c) => c.to)) - start;
    }
  }
  return { calls: best, spanMs: bestSpan };
}

/**
 * How many of `calls` (other than `refused` itself) the server could have counted in the window
 * that ended when it refused `refused`: those sent before the refusal's response completed whose
 * response completed after (refusal sent − window). Refused calls are counted too, for servers that
 * count every attempt. An upper bound: the true count is at most this.
 */
export function callsThatCouldCount(refused: TimedCall, calls: readonly TimedCall[], windowMs: number): number {
  return calls.filter((c) => c !== refused && c.from < refused.to && c.to > refused.from - windowMs).length;
}
