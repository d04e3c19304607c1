import { AsyncLocalStorage } from 'node:async_hooks';
import { ClockcheckError } from '../errors.ts';
import { SYSTEM_CLOCK, type Clock } from '../clock.ts';

export interface PacerOptions {
  /** Calls the target allows per window (§8: 60). `Infinity` turns pacing off. */
  readonly limit: number;
  /** The target's window in ms (§8: 60 000). */
  readonly windowMs: number;
  /**
   * Calls of each window kept in reserve; default 1 (59 of §8's 60), for a call the target counts
   * that the harness did not make (another process with the same token, a call a moment early).
   * Never all: at least one call a window is allowed.
   */
  readonly reserve?: number;
  /**
   * Added to the window for clock uncertainty; default `max(25, windowMs / 1000)` ms. The latency of
   * each call is accounted for by the call itself (see Pacer), not by this guard.
   */
  readonly guardMs?: number;
  /** Default: SYSTEM_CLOCK (the monotonic clock and real sleeps). */
  readonly clock?: Clock;
}

/**
 * The pacer whose `unpaced(fn)` the caller runs in: its sends are counted but not paced. One store
 * for every pacer, not one each: on Node 20 every AsyncLocalStorage that ever ran stays in the list
 * each new async resource is propagated through, so a store per run would slow a long process
 * (the selftest's hundreds of runs) a little more with each run.
 */
const UNPACED = new AsyncLocalStorage<Pacer>();

/** A send the pacer let go: tell it when the answer came (`done`), and the window counts from then. */
export interface PacedSend {
  done(): void;
}

/** One send as the pacer counts it: until `end` + the span it may still count at the target. */
interface Send {
  /** When the answer came (the latest moment the target can have counted the call); Infinity while in flight. */
  end: number;
  readonly grantedAt: number;
}

const NO_SEND: PacedSend = { done: () => {} };

/**
 * Keeps the harness under the target's rate limit (§8) in every sliding window, at the limit rather
 * than under it.
 *
 * A target counts a call when it arrives, which is after the pacer let it go and before its answer
 * came back. So a send counts, for the pacer, from when it was let go until `spanMs = windowMs +
 * guardMs` after its answer came (`done()`), and while it is in flight. A send is allowed when fewer
 * than `allowed = limit - reserve` sends count; then in any window of the target's at most `allowed`
 * calls arrive, whatever the latency, and no latency margin is needed beyond each call's own. With
 * §8's 60 calls a minute: 59 calls, then the 60th one minute and 25 ms after the first one's answer.
 *
 * Acquirers are served one at a time in call order, so concurrent callers never overshoot.
 * A pacer with `limit: Infinity` never waits and keeps no history.
 */
export class Pacer {
  #allowed: number;
  #spanMs: number;
  readonly #clock: Clock;
  /** The sends that may still count, in the order they were let go. */
  #sends: Send[] = [];
  /** Round trips of the last answered sends (ms), for the estimate. */
  readonly #latencies: number[] = [];
  /** Resolves when a send in flight is answered (a waiting acquirer may go). */
  #answered: { promise: Promise<void>; resolve: () => void } = signal();
  /** The tail of the line of acquirers: each waits for the one before. */
  #line: Promise<unknown> = Promise.resolve();
  /** Paced sends the gate still lets go (`admit`, `hold`); Infinity when it is open. */
  #grants = Infinity;
  /** Resolves when the gate changes or a paced send is granted (a watcher of the gate may go on). */
  #gateMoved: { promise: Promise<void>; resolve: () => void } = signal();
  /** Resolves when a paced acquirer finds the window full and has to wait (see `untilBlocked`). */
  #blocked: { promise: Promise<void>; resolve: () => void } = signal();
  /** Paced sends let go and not yet answered. */
  #inFlight = 0;

  /** @throws ClockcheckError `CLOCKCHECK_INVALID_OPTION` for a limit, window, reserve or guard out of range. */
  readonly #options: PacerOptions;
  readonly #twins: Pacer[] = [];

  constructor(options: PacerOptions) {
    this.#options = options;
    const { limit, windowMs, reserve = 1, clock = SYSTEM_CLOCK } = options;
    const guardMs = options.guardMs ?? defaultGuardMs(windowMs);
    if (!(limit === Infinity || (Number.isInteger(limit) && limit >= 1))) invalid(`limit must be a positive integer or Infinity, not ${limit}`);
    if (!(Number.isFinite(windowMs) && windowMs > 0)) invalid(`windowMs must be a positive number, not ${windowMs}`);
    if (!(Number.isInteger(reserve) && reserve >= 0)) invalid(`reserve must be a whole number of calls, not ${reserve}`);
    if (!(Number.isFinite(guardMs) && guardMs >= 0)) invalid(`guardMs must be a non-negative number, not ${guardMs}`);
    this.#allowed = limit === Infinity ? Infinity : pacedAllowed(limit, reserve);
    this.#spanMs = windowMs + guardMs;
    this.#reserve = reserve;
    this.#clock = clock;
  }

  readonly #reserve: number;

  /** Sends allowed to count at once. */
  get allowed(): number {
    return this.#allowed;
  }

  /** How long a send counts after its answer, in ms: `windowMs + guardMs`. */
  get spanMs(): number {
    return this.#spanMs;
  }

  /**
   * Paces at another limit and window from now on, with nothing counted: for a target whose limiter
   * was just restarted at that setting (the embedded server's two windows), so no earlier send counts
   * there any more. The reserve and the guard's rule stay.
   */
  retime(limit: number, windowMs: number): void {
    for (const twin of this.#twins) twin.retime(limit, windowMs);
    if (this.allowed === Infinity) return;
    this.#allowed = pacedAllowed(limit, this.#reserve);
    this.#spanMs = windowMs + defaultGuardMs(windowMs);
    this.#sends = this.#sends.filter((s) => s.end === Infinity);
    this.#moveGate();
  }

  /**
   * A pacer of its own with this one's options as made (a second window of the same size: a second
   * company's token, counted apart), retimed with this one (the embedded server's two windows).
   */
  twin(): Pacer {
    const twin = new Pacer(this.#options);
    this.#twins.push(twin);
    return twin;
  }

  /** Resolves when a send is allowed, and counts the send from that moment; call `done()` when its answer came. */

  acquire(): Promise<PacedSend> {
    if (this.allowed === Infinity) return Promise.resolve(NO_SEND);
    if (UNPACED.getStore() === this) {
      // Recorded after the fact (a burst's calls): answered by now.
      const now = this.#clock.now();
      this.#sends.push({ grantedAt: now, end: now });
      return Promise.resolve(NO_SEND);
    }
    return this.#enqueue(() => this.#takeSlot());
  }

  /** Whether the caller runs inside `unpaced(fn)`: its sends are counted, not paced (so they wait for no turn). */
  get inUnpaced(): boolean {
    return UNPACED.getStore() === this;
  }

  /**
   * Records `count` sends made elsewhere as made and answered now (e.g. the calls a target's
   * X-RateLimit-Remaining says it has already counted for this token), without waiting: later
   * acquirers keep their distance.
   */
  account(count: number): void {
    if (this.allowed === Infinity) return;
    const now = this.#clock.now();
    for (let i = 0; i < count; i++) this.#sends.push({ grantedAt: now, end: now });
  }

  /**
   * Runs `fn` with its sends counted but not paced, at once, beside the paced sends (not in their
   * line): the rate-limit phase's calls, made while the paced checks wait at the gate or go on.
   */
  unpaced<T>(fn: () => Promise<T>): Promise<T> {
    return UNPACED.run(this, fn);
  }

  /** Closes the gate: no paced send is let go until `admit`. Sends already let go go on. */
  hold(): void {
    this.#grants = 0;
    this.#moveGate();
  }

  /** Opens the gate for `count` more paced sends (then it closes by itself), or for good (Infinity). */
  admit(count = Infinity): void {
    this.#grants = count;
    this.#moveGate();
  }

  /** Resolves once the gate is closed (held, or its admitted sends all let go) and no paced send is in flight. */
  async untilIdle(): Promise<void> {
    while (this.#grants > 0 || this.#inFlight > 0) {
      const moved = this.#gateMoved.promise;
      const answered = this.#answered.promise;
      await Promise.race([moved, answered]);
    }
  }

  /** Resolves when no send counts any more (none in flight, none answered in the last `spanMs`). Hold the gate first, or paced sends may keep it from coming. */
  untilQuiet(): Promise<void> {
    return this.#waitUntil(0);
  }

  /** Resolves when a paced acquirer finds the window full and has to wait for a slot (the window's calls are all out). */
  untilBlocked(): Promise<void> {
    return this.#blocked.promise;
  }

  #moveGate(): void {
    const moved = this.#gateMoved;
    this.#gateMoved = signal();
    moved.resolve();
  }

  /**
   * Milliseconds from now until the last of `requests` further sends is let go, given the sends
   * that still count and assuming each takes the mean round trip of the last answered ones (0 before
   * any). 0 when pacing is off.
   */
  estimateMs(requests: number): number {
    if (requests <= 0 || this.allowed === Infinity) return 0;
    const now = this.#clock.now();
    this.#prune(now);
    const latency = this.#latencies.length === 0 ? 0 : this.#latencies.reduce((a, b) => a + b, 0) / this.#latencies.length;
    // When each counting send stops counting, soonest first (in flight: as if answered now).
    const frees = this.#sends.map((s) => (s.end === Infinity ? now : s.end) + this.spanMs).sort((a, b) => a - b);
    let at = now;
    for (let i = 0; i < requests; i++) {
      while (frees.length > 0 && (frees[0] as number) <= at) frees.shift();
      if (frees.length >= this.allowed) {
        at = frees[frees.length - this.allowed] as number;
        while (frees.length > 0 && (frees[0] as number) <= at) frees.shift();
      }
      insertSorted(frees, at + latency + this.spanMs);
    }
    return at - now;
  }

  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const turn = this.#line.then(task);
    this.#line = turn.catch(() => undefined);
    return turn;
  }

  async #takeSlot(): Promise<PacedSend> {
    // The gate and the window both let the send go at one moment: after a wait for either, both are asked again.
    for (;;) {
      if (this.#grants <= 0) {
        await this.#gateMoved.promise;
        continue;
      }
      this.#prune(this.#clock.now());
      if (this.#sends.length > this.allowed - 1) {
        const blocked = this.#blocked;
        this.#blocked = signal();
        blocked.resolve();
        await this.#waitUntil(this.allowed - 1);
        continue;
      }
      break;
    }
    if (this.#grants !== Infinity) this.#grants--;
    this.#inFlight++;
    this.#moveGate();
    const send: Send = { grantedAt: this.#clock.now(), end: Infinity };
    this.#sends.push(send);
    return {
      done: () => {
        if (send.end !== Infinity) return;
        this.#inFlight--;
        send.end = this.#clock.now();
        this.#latencies.push(send.end - send.grantedAt);
        if (this.#latencies.length > 20) this.#latencies.shift();
        const answered = this.#answered;
        this.#answered = signal();
        answered.resolve();
      },
    };
  }

  /** Waits until at most `count` sends still count. */
  async #waitUntil(count: number): Promise<void> {
    for (;;) {
      const now = this.#clock.now();
      this.#prune(now);
      if (this.#sends.length <= count) return;
      const frees = this.#sends.filter((s) => s.end !== Infinity).map((s) => s.end + this.spanMs).sort((a, b) => a - b);
      const needed = this.#sends.length - count;
      const wakeAt = frees[needed - 1];
      // An answer still to come stops counting later than every answer already in (end <= now), so
      // the time is known when enough are in; else wait for the next answer.
      await (wakeAt === undefined ? this.#answered.promise : this.#clock.sleep(wakeAt - now));
    }
  }

  /** Drops the sends that stopped counting. */
  #prune(now: number): void {
    // `end + spanMs <= now`: the same float expression as the wake-up time, so a sleeper that wakes
    // at that time always finds its blocker gone.
    if (this.#sends.some((s) => s.end + this.spanMs <= now)) this.#sends = this.#sends.filter((s) => s.end + this.spanMs > now);
  }
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function insertSorted(values: number[], value: number): void {
  let i = values.length;
  while (i > 0 && (values[i - 1] as number) > value) i--;
  values.splice(i, 0, value);
}

function invalid(message: string): never {
  throw new ClockcheckError('CLOCKCHECK_INTERNAL', `pacer: ${message}`);
}

/** The pacer's default guard for a window: a send counts this long beyond the window after its answer (25 ms, or a thousandth of a long window). */
export function defaultGuardMs(windowMs: number): number {
  return Math.max(25, windowMs / 1000);
}

/** Sends a pacer lets count at once at a target's `limit`: all but `reserve` (default 1, 59 of §8's 60), and at least one. */
export function pacedAllowed(limit: number, reserve = 1): number {
  return Math.max(1, limit - reserve);
}
