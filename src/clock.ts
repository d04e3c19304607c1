import { setTimeout as delay } from 'node:timers/promises';

/**
 * Time as clockcheck's waiting logic sees it, from one place: the pacer, the run guard and its stall
 * budget, the 429 resend, the rate-limit phase, the reference server's limiter and the sink take a
 * Clock (default SYSTEM_CLOCK), so their tests run on a controlled one (test/support/fake-clock.ts)
 * and assert exact times with no wall-clock margin.
 */
export interface Clock {
  /** Milliseconds since the epoch; never goes backwards. */
  now(): number;
  /**
   * Resolves after `ms` (at once for 0 or less). With `signal`, resolves as soon as it aborts (never
   * rejects): a waiter that was cut short asks the clock or its own state why.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall-clock milliseconds that never go backwards (the monotonic clock from the process's start), and real sleeps. */
export const SYSTEM_CLOCK: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) => (ms <= 0 || signal?.aborted ? Promise.resolve() : delay(ms, undefined, signal ? { signal } : undefined).catch(() => undefined)),
};

/** Sleeps on `clock` until it reads `at` (at once when that has passed). */
export async function sleepUntil(clock: Clock, at: number): Promise<void> {
  const wait = at - clock.now();
  if (wait > 0) await clock.sleep(wait);
}

/** Waits for `promise`, or `ms` on `clock` at most; the sleep is cut short when the promise comes first. */
export async function within(clock: Clock, promise: Promise<unknown>, ms: number): Promise<void> {
  const stop = new AbortController();
  try {
    await Promise.race([promise, clock.sleep(ms, stop.signal)]);
  } finally {
    stop.abort();
  }
}
