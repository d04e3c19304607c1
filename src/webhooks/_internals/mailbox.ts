import type { Delivery } from '../delivery.ts';
import { SYSTEM_CLOCK, type Clock } from '../../clock.ts';

/** Probe nonces held; past that the oldest go. */
const MAX_PROBES = 100;

/** A pending wait: it looks again on each arrival, and ends (with its `none`) on timeout or close. */
interface Waiter {
  look(): void;
  end(): void;
}

/**
 * What a sink holds: its deliveries (at most `maxHeld`, the oldest dropped past that), the nonces of
 * the probes that reached it, and the calls waiting for either.
 */
export class Mailbox {
  readonly deliveries: Delivery[] = [];
  private readonly probes = new Set<string>();
  private readonly waiters = new Set<Waiter>();
  private next = 1;
  private droppedCount = 0;

  constructor(
    private readonly maxHeld: number,
    private readonly clock: Clock = SYSTEM_CLOCK,
  ) {}

  /** Deliveries dropped because `maxHeld` were held. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** The ID of the latest delivery (0 before the first). */
  get lastId(): number {
    return this.next - 1;
  }

  /** The ID the next delivery gets. */
  takeId(): number {
    return this.next++;
  }

  /** Keeps a delivery, dropping the oldest past `maxHeld`; the waiters look once `wake` is called. */
  keep(delivery: Delivery): void {
    this.deliveries.push(delivery);
    if (this.deliveries.length > this.maxHeld) {
      this.deliveries.shift();
      this.droppedCount++;
    }
  }

  /** Notes a probe's nonce (its first 64 characters) and wakes the waiters. */
  noteProbe(nonce: string): void {
    this.probes.add(nonce.slice(0, 64));
    if (this.probes.size > MAX_PROBES) this.probes.delete(this.probes.values().next().value as string);
    this.wake();
  }

  hasProbe(nonce: string): boolean {
    return this.probes.has(nonce);
  }

  /** Every waiter looks again. */
  wake(): void {
    for (const waiter of this.waiters) waiter.look();
  }

  /** Every waiter ends with its `none` (the sink closes). */
  endWaits(): void {
    for (const waiter of this.waiters) waiter.end();
  }

  /** Resolves with what `look` finds, looking again on each arrival, or `none` after `timeoutMs` (on the mailbox's clock) or at close. */
  wait<T>(look: () => T | null, none: T | null, timeoutMs: number): Promise<T | null> {
    return new Promise((resolve) => {
      const timer = new AbortController();
      let done = false;
      const finish = (value: T | null) => {
        if (done) return;
        done = true;
        timer.abort();
        this.waiters.delete(waiter);
        resolve(value);
      };
      const waiter: Waiter = {
        look: () => {
          const found = look();
          if (found !== null) finish(found);
        },
        end: () => finish(none),
      };
      void this.clock.sleep(timeoutMs, timer.signal).then(() => finish(none));
      this.waiters.add(waiter);
      waiter.look();
    });
  }
}
