import type { Clock } from '../../src/clock.ts';

/** Lets every pending microtask and I/O callback run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

interface Timer {
  readonly at: number;
  readonly wake: () => void;
}

/**
 * A manual clock (src/clock.ts's Clock): time moves only in `advanceTo`/`advance`/`run`, which fire
 * the due sleeps in order and let the woken code run before moving on, so a test sees exact times
 * and never waits for real ones. A sleep whose signal aborts ends at once, at the current time.
 */
export class FakeClock implements Clock {
  #now: number;
  #timers: Timer[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now = (): number => this.#now;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const cut = () => {
        const index = this.#timers.indexOf(timer);
        if (index >= 0) this.#timers.splice(index, 1);
        resolve();
      };
      // A sleep that comes due lets go of its signal, as Node's timers do: thousands of sleeps on one signal leave no listener behind.
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        wake: () => {
          signal?.removeEventListener('abort', cut);
          resolve();
        },
      };
      this.#timers.push(timer);
      signal?.addEventListener('abort', cut, { once: true });
    });

  /** Sleeps not yet due. */
  get pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward to `at`, waking every sleep due on the way. */
  async advanceTo(at: number): Promise<void> {
    await settle();
    for (;;) {
      const next = this.#earliest();
      if (next === undefined || next.at > at) break;
      this.#timers.splice(this.#timers.indexOf(next), 1);
      this.#now = Math.max(this.#now, next.at);
      next.wake();
      await settle();
    }
    this.#now = Math.max(this.#now, at);
    await settle();
  }

  /** Moves time forward by `ms`. */
  advance(ms: number): Promise<void> {
    return this.advanceTo(this.#now + ms);
  }

  /**
   * Moves time forward until `work` settles; fails if it waits with no sleep pending. With `io`, the
   * work also does real I/O (a socket on loopback): while no sleep is pending it waits for that, up to
   * `io.timeoutMs` of real time (time moves only when a sleep is pending: for work that sleeps and
   * does I/O in turn, not both at once).
   */
  async run<T>(work: Promise<T>, io?: { readonly timeoutMs: number }): Promise<T> {
    let done = false;
    const watched = work.finally(() => {
      done = true;
    });
    await settle();
    const giveUpAt = performance.now() + (io?.timeoutMs ?? 0);
    while (!done) {
      const next = this.#earliest();
      if (next === undefined) {
        if (!io || performance.now() > giveUpAt) throw new Error(io ? `still waiting after ${io.timeoutMs} ms of real time` : 'deadlock: waiting with no sleep pending');
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      await this.advanceTo(next.at);
    }
    return watched;
  }

  #earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const timer of this.#timers) if (best === undefined || timer.at < best.at) best = timer;
    return best;
  }
}
