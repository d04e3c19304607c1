import type { PacerClock } from '../../src/client/pacer.ts';

/** Lets every pending microtask and I/O callback run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A manual clock for the pacer: time moves only in `advanceTo`/`run`, which fire the due sleeps in
 * order and let the woken code run before moving on, so a test sees exact times.
 */
export class FakeClock implements PacerClock {
  #now = 0;
  #timers: Array<{ at: number; wake: () => void }> = [];

  now = (): number => this.#now;

  sleep = (ms: number): Promise<void> =>
    new Promise((wake) => {
      this.#timers.push({ at: this.#now + Math.max(0, ms), wake });
    });

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

  /** Moves time forward until `work` settles; fails if it waits with no sleep pending. */
  async run<T>(work: Promise<T>): Promise<T> {
    let done = false;
    const watched = work.finally(() => {
      done = true;
    });
    await settle();
    while (!done) {
      const next = this.#earliest();
      if (next === undefined) throw new Error('deadlock: waiting with no sleep pending');
      await this.advanceTo(next.at);
    }
    return watched;
  }

  #earliest() {
    let best: { at: number; wake: () => void } | undefined;
    for (const timer of this.#timers) if (best === undefined || timer.at < best.at) best = timer;
    return best;
  }
}
