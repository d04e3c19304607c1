/** Latency of the served calls (2xx), ms rounded to 0.01: what `--ensure` judges a latency against. */
export interface ServedLatencyFigures {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Each served call's latency as the run timed it (from its request written to its response read, to
 * the microsecond), for percentiles of the calls a user waits for: autocannon's histogram mixes in the
 * 429s, which a limiter answers fast, and keeps whole milliseconds. 8 bytes a served call.
 */
export class ServedLatency {
  #values = new Float64Array(1024);
  #count = 0;

  add(status: number, latencyMs: number): void {
    if (status < 200 || status > 299) return;
    if (this.#count === this.#values.length) {
      const grown = new Float64Array(this.#values.length * 2);
      grown.set(this.#values);
      this.#values = grown;
    }
    this.#values[this.#count++] = latencyMs;
  }

  /** The figures, each percentile by nearest rank; null when no call was served. */
  summary(): ServedLatencyFigures | null {
    if (this.#count === 0) return null;
    const sorted = this.#values.slice(0, this.#count).sort();
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
    let sum = 0;
    for (const v of sorted) sum += v;
    return { count: sorted.length, mean: round(sum / sorted.length), p50: round(at(0.5)), p90: round(at(0.9)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(at(1)) };
  }
}
