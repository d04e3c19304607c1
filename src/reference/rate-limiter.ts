
/**
 * Rate limiters for the reference server (spec §8: at most 60 calls within ANY one-minute window).
 * The clean server uses `SlidingWindowLimiter`; the other kinds exist to be switched on as faults.
 */

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until a call would be allowed again (0 when allowed). */
  readonly retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Checks and records one call for `key` at `now` (ms). */
  attempt(key: string, now: number): RateDecision;
}

/** The accepted calls of one key inside the current window, oldest first; a queue with an amortised shift. */
class CallLog {
  private times: number[] = [];
  private head = 0;

  expire(before: number): void {
    while (this.head < this.times.length && (this.times[this.head] as number) <= before) this.head++;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
  get size(): number {
    return this.times.length - this.head;
  }
  /** The `index`-th call still in the window, oldest first. */
  at(index: number): number | undefined {
    return this.times[this.head + index];
  }
  record(time: number): void {
    this.times.push(time);
  }
}

function denied(limit: number, waitMs: number): RateDecision {
  return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/**
 * Which calls a limiter counts against the limit. §8 says "60 calls within any one-minute window";
 * `served` counts the calls it let through, `attempts` every call, refused ones too (the other
 * reading, as a counter incremented before the check is: a client that keeps calling while limited
 * stays limited). Both are conforming; `clockcheck serve --rate-limit-counts` picks one.
 */
export type RateLimitCounting = 'served' | 'attempts';
export const RATE_LIMIT_COUNTINGS: readonly RateLimitCounting[] = ['served', 'attempts'];

/**
 * Exact sliding window: a call at `now` is allowed when fewer than `limit` counted calls fall in
 * (now - window, now]. The check and the record happen in one synchronous step, so concurrent
 * requests cannot both take the last slot.
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly logs = new Map<string, CallLog>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    /** When false, a key once refused is refused for good, as a block without expiry is (the `rate-limit-never-resets` fault). */
    private readonly expires = true,
    private readonly counting: RateLimitCounting = 'served',
  ) {}

  private readonly blocked = new Set<string>();

  attempt(key: string, now: number): RateDecision {
    let log = this.logs.get(key);
    if (!log) this.logs.set(key, (log = new CallLog()));
    if (this.blocked.has(key)) return denied(this.limit, this.windowMs);
    log.expire(now - this.windowMs);
    if (log.size >= this.limit) {
      if (this.counting === 'attempts') log.record(now);
      if (!this.expires) this.blocked.add(key);
      // Served again once all but limit - 1 of the counted calls (this one too, when counted) have left.
      return denied(this.limit, (log.at(log.size - this.limit) as number) + this.windowMs - now);
    }
    log.record(now);
    return { allowed: true, limit: this.limit, remaining: this.limit - log.size, retryAfterSeconds: 0 };
  }
}

/** Where a fixed window starts: at a key's first call after the last window ended, or at the clock's multiple of the window. */
export type FixedWindowStart = 'first-call' | 'clock';

/**
 * A fixed window: calls are counted per window and the count resets when the window ends. With
 * `first-call` the window starts at a key's first call, as Laravel's throttle does (the
 * `rate-limit-fixed-window` fault); with `clock` it is `floor(now / window)`, as a counter keyed by
 * the current minute is (the `rate-limit-clock-window` fault). Either admits up to 2 × limit − 1
 * calls in some window-length interval around a reset.
 */
export class FixedWindowLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly startAt: FixedWindowStart = 'first-call',
  ) {}

  attempt(key: string, now: number): RateDecision {
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      const start = this.startAt === 'clock' ? Math.floor(now / this.windowMs) * this.windowMs : now;
      this.windows.set(key, (window = { start, count: 0 }));
    }
    if (window.count >= this.limit) return denied(this.limit, window.start + this.windowMs - now);
    window.count++;
    return { allowed: true, limit: this.limit, remaining: this.limit - window.count, retryAfterSeconds: 0 };
  }
}

/**
 * How stale the racy limiter's reads are: a call it recorded less than 100 ms before is not yet
 * seen, as a read from a lagging replica of the store misses it. The lag is in wall-clock time, not
 * in event-loop turns: a simulated round trip (an await between read and write) let a stalled loop
 * run every pending write before the next read, so a burst could land on exactly the limit and the
 * fault went unseen (it did once in CI, on two loaded cores).
 */
const STORE_LAG_MS = 100;

/**
 * A sliding window whose check does not see its own latest records, as a limiter backed by a
 * replicated store without an atomic increment is: every call within the lag of the one that took
 * the last slot reads the same count and is served too. The `rate-limit-race` fault.
 */
export class RacyWindowLimiter implements RateLimiter {
  private readonly inner: Map<string, number[]> = new Map();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  attempt(key: string, now: number): RateDecision {
    const times = (this.inner.get(key) ?? []).filter((t) => t > now - this.windowMs);
    this.inner.set(key, times);
    const seen = times.filter((t) => t <= now - STORE_LAG_MS);
    if (seen.length >= this.limit) return denied(this.limit, (seen[0] as number) + this.windowMs - now);
    times.push(now);
    return { allowed: true, limit: this.limit, remaining: Math.max(0, this.limit - times.length), retryAfterSeconds: 0 };
  }
}

/** A limiter that never limits (the `rate-limit-off` fault, and `--rate-limit off`). */
export class NoLimiter implements RateLimiter {
  attempt(): RateDecision {
    return { allowed: true, limit: Number.POSITIVE_INFINITY, remaining: Number.POSITIVE_INFINITY, retryAfterSeconds: 0 };
  }
}

/** A rate limit as `--rate-limit 60/60s` gives it. */
