import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { ClockcheckError } from '../errors.ts';

/** Time as the pacer sees it; injectable so tests run on a fake clock. */
export interface PacerClock {
  /** Milliseconds; must not go backwards. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export interface PacerOptions {
  /** Calls the target allows per window (§8: 60). `Infinity` turns pacing off. */
  readonly limit: number;
  /** The target's window in ms (§8: 60 000). */
  readonly windowMs: number;
  /** Fraction of `limit` kept in reserve; default 0.1. At least one call is always kept in reserve. */
  readonly safety?: number;
  /** Added to the window to absorb clock and latency differences; default `max(50, windowMs * 0.02)` ms. */
  readonly guardMs?: number;
  /** Default: the monotonic `performance` clock and `setTimeout`. */
  readonly clock?: PacerClock;
}

/** Wall-clock-like but monotonic milliseconds, and a real sleep. */
export const SYSTEM_CLOCK: PacerClock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms) => delay(ms),
};

/**
 * Keeps the harness under the target's rate limit (§8) in every sliding window.
 *
 * The rule: at most `allowed = max(1, limit - max(1, ceil(limit * safety)))` sends happen in any
 * window of `spanMs = windowMs + guardMs`. With the defaults and §8's 60 calls per minute, that is
 * 54 sends in any 61.2 s. A send is allowed at time t when fewer than `allowed` sends were recorded
 * in (t - spanMs, t]; otherwise the pacer sleeps until the oldest of the last `allowed` leaves that span.
 *
 * Acquirers are served one at a time in call order, so concurrent callers never overshoot.
 * A pacer with `limit: Infinity` never waits and keeps no history.
 */
export class Pacer {
  /** Sends allowed in any span of `spanMs`. */
  readonly allowed: number;
  /** The window the rule is enforced over, in ms: `windowMs + guardMs`. */
  readonly spanMs: number;
  readonly #clock: PacerClock;
  /** Send times in order; entries before `#head` have left the span. */
  #sends: number[] = [];
  #head = 0;
  /** The tail of the line of acquirers (and exclusive runs): each waits for the one before. */
  #line: Promise<unknown> = Promise.resolve();
  /** Set inside `exclusive(fn)`: sends made by fn are recorded but not paced. */
  readonly #exclusive = new AsyncLocalStorage<true>();

  /** @throws ClockcheckError `CLOCKCHECK_INVALID_OPTION` for a limit, window, safety or guard out of range. */
  constructor(options: PacerOptions) {
    const { limit, windowMs, safety = 0.1, clock = SYSTEM_CLOCK } = options;
    const guardMs = options.guardMs ?? Math.max(50, windowMs * 0.02);
    if (!(limit === Infinity || (Number.isInteger(limit) && limit >= 1))) invalid(`limit must be a positive integer or Infinity, not ${limit}`);
    if (!(Number.isFinite(windowMs) && windowMs > 0)) invalid(`windowMs must be a positive number, not ${windowMs}`);
    if (!(safety >= 0 && safety < 1)) invalid(`safety must be in [0, 1), not ${safety}`);
    if (!(Number.isFinite(guardMs) && guardMs >= 0)) invalid(`guardMs must be a non-negative number, not ${guardMs}`);
    this.allowed = limit === Infinity ? Infinity : Math.max(1, limit - Math.max(1, Math.ceil(limit * safety)));
    this.spanMs = windowMs + guardMs;
    this.#clock = clock;
  }

  /** Resolves when a send is allowed, and records the send at that moment. */
  acquire(): Promise<void> {
    if (this.allowed === Infinity) return Promise.resolve();
    if (this.#exclusive.getStore()) {
      this.#record(this.#clock.now());
      return Promise.resolve();
    }
    return this.#enqueue(() => this.#takeSlot());
  }

  /**
   * Records `count` sends made elsewhere as made now (e.g. the calls a target's X-RateLimit-Remaining
   * says it has already counted for this token), without waiting: later acquirers keep their distance.
   */
  account(count: number): void {
    if (this.allowed === Infinity) return;
    const now = this.#clock.now();
    for (let i = 0; i < count; i++) this.#record(now);
  }

  /**
   * Waits until no send was made in the last `spanMs`, then runs `fn` alone: other acquirers wait until
   * it settles, and sends that `fn` makes (`acquire()` calls in its async context) are recorded but not
   * paced, so the window after a burst is still respected. For the rate-limit burst checks.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#exclusive.getStore() || this.allowed === Infinity) return fn();
    return this.#enqueue(async () => {
      await this.#quiet();
      return this.#exclusive.run(true, fn);
    });
  }

  /**
   * Milliseconds from now until the last of `requests` further sends is allowed, given the sends
   * already recorded and assuming each send takes no time. 0 when pacing is off.
   */
  estimateMs(requests: number): number {
    if (requests <= 0 || this.allowed === Infinity) return 0;
    const now = this.#clock.now();
    this.#prune(now);
    // The last `allowed` send times, oldest first, as a ring: a send waits for the one `allowed` back.
    const ring = this.#sends.slice(Math.max(this.#head, this.#sends.length - this.allowed));
    let oldest = 0;
    let at = now;
    for (let i = 0; i < requests; i++) {
      if (ring.length < this.allowed) {
        ring.push(at);
        continue;
      }
      at = Math.max(at, (ring[oldest] as number) + this.spanMs);
      ring[oldest] = at;
      oldest = (oldest + 1) % this.allowed;
    }
    return at - now;
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const turn = this.#line.then(task);
    this.#line = turn.catch(() => undefined);
    return turn;
  }

  async #takeSlot(): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      this.#prune(now);
      if (this.#sends.length - this.#head < this.allowed) {
        this.#record(now);
        return;
      }
      const blocker = this.#sends[this.#sends.length - this.allowed] as number;
      await this.#clock.sleep(blocker + this.spanMs - now);
    }
  }

  async #quiet(): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      this.#prune(now);
      const last = this.#sends[this.#sends.length - 1];
      if (this.#head === this.#sends.length || last === undefined) return;
      await this.#clock.sleep(last + this.spanMs - now);
    }
  }

  #record(at: number): void {
    this.#sends.push(at);
  }

  /** Drops the sends that left the span. */
  #prune(now: number): void {
    // `s + spanMs <= now`, not `s <= now - spanMs`: the same float expression as the wake-up time
    // `blocker + spanMs`, so a sleeper that wakes at that time always finds its blocker gone.
    while (this.#head < this.#sends.length && (this.#sends[this.#head] as number) + this.spanMs <= now) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#sends.length) {
      this.#sends = this.#sends.slice(this.#head);
      this.#head = 0;
    }
  }
}

function invalid(message: string): never {
  throw new ClockcheckError('CLOCKCHECK_INVALID_OPTION', `pacer: ${message}`);
}
