/** Latency of one kind of answer: 2xx (served), 429 (limited), other 4xx, 5xx. */
export interface StatusLatency {
  readonly kind: '2xx' | '429' | '4xx' | '5xx' | 'other';
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

function kindOf(status: number): StatusLatency['kind'] {
  if (status >= 200 && status < 300) return '2xx';
  if (status === 429) return '429';
  if (status >= 400 && status < 500) return '4xx';
  if (status >= 500 && status < 600) return '5xx';
  return 'other';
}

/** The value at quantile q of sorted values (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

/**
 * Collects each response's latency by the kind of answer, so a load report can show whether 429s
 * stay fast under load next to the served calls (autocannon's own histogram mixes them). Memory is
 * 8 bytes a response: a million responses take 8 MB.
 */
export class LatencyByStatus {
  readonly #samples = new Map<StatusLatency['kind'], number[]>();

  add(status: number, latencyMs: number): void {
    const kind = kindOf(status);
    let list = this.#samples.get(kind);
    if (!list) this.#samples.set(kind, (list = []));
    list.push(latencyMs);
  }

  /** Per kind, in the order 2xx, 429, 4xx, 5xx, other; ms rounded to 0.01. */
  summary(): StatusLatency[] {
    const order: StatusLatency['kind'][] = ['2xx', '429', '4xx', '5xx', 'other'];
    return order.flatMap((kind) => {
      const list = this.#samples.get(kind);
      if (!list || list.length === 0) return [];
      const sorted = Float64Array.from(list).sort();
      const round = (n: number) => Math.round(n * 100) / 100;
      return [{ kind, count: sorted.length, p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted[sorted.length - 1] as number) }];
    });
  }
}
