/** Responses completed in one second of a load run, by kind of answer. */
export interface SecondCounts {
  /** Seconds since the first request was sent: 0 is [0 s, 1 s). */
  readonly second: number;
  readonly served: number;
  readonly limited: number;
  /** Any other status (4xx but 429, 5xx, 1xx, 3xx). */
  readonly other: number;
}

/**
 * Counts responses per second of the run, split into served (2xx), limited (429) and other, so a
 * report can show whether throughput held up and when the limiter started refusing.
 */
export class PerSecondCounts {
  readonly #seconds: { served: number; limited: number; other: number }[] = [];
  #origin: number | null = null;

  /** Marks the run's start (the first request sent); responses before it count in second 0. */
  start(at: number): void {
    this.#origin ??= at;
  }

  add(status: number, at: number): void {
    this.start(at);
    const second = Math.max(0, Math.floor((at - (this.#origin as number)) / 1000));
    for (let s = this.#seconds.length; s <= second; s++) this.#seconds.push({ served: 0, limited: 0, other: 0 });
    const bucket = this.#seconds[second]!;
    if (status >= 200 && status < 300) bucket.served++;
    else if (status === 429) bucket.limited++;
    else bucket.other++;
  }

  /** Every second from the first to the last response, empty seconds included. */
  series(): SecondCounts[] {
    return this.#seconds.map((counts, second) => ({ second, ...counts }));
  }
}
