import type { Exchange, TransportErrorCode } from '../client/exchange.ts';
import { LatencyByStatus, type StatusLatency } from '../load/latency-by-status.ts';
import { PerSecondCounts, type SecondCounts } from '../load/per-second.ts';
import { ServedLatency, type ServedLatencyFigures } from '../load/served-latency.ts';

/** What one operation (or the whole run) measured: counts, latency of the served calls, statuses, errors, each second. */
export interface OperationFigures {
  /** Requests sent. */
  readonly sent: number;
  /** Answered with a complete response. */
  readonly completed: number;
  readonly statuses: readonly { readonly status: number; readonly count: number }[];
  readonly counts: {
    readonly status2xx: number;
    readonly status429: number;
    /** 4xx but 429. */
    readonly status4xx: number;
    readonly status5xx: number;
    /** Transport errors, timeouts among them: no complete answer. */
    readonly errors: number;
    readonly timeouts: number;
  };
  /** Transport errors by code. */
  readonly errorsBy: Readonly<Partial<Record<TransportErrorCode, number>>>;
  /** Latency of the 2xx, as timed by the run (from the request written to the body read), ms; null when none was served. */
  readonly latencyServedMs: ServedLatencyFigures | null;
  readonly latencyByStatus: readonly StatusLatency[];
  /** Completed responses per second over the run's span. */
  readonly requestsPerSecond: number;
  /** Responses completed in each second of the run (served, 429, other). */
  readonly perSecond: readonly SecondCounts[];
  /** Latency of the 2xx completed in each second (nearest rank), ms to 0.01; null for a second with none. */
  readonly latencyPerSecond: readonly { readonly second: number; readonly count: number; readonly p50: number | null; readonly p99: number | null }[];
}

/** The status classes of a run's answers, and its transport errors: what the verdict and the table count. */
export function statusCounts(statuses: OperationFigures['statuses'], errorsBy: OperationFigures['errorsBy']): OperationFigures['counts'] {
  const sum = (pick: (s: number) => boolean) => statuses.filter((s) => pick(s.status)).reduce((n, s) => n + s.count, 0);
  return {
    status2xx: sum((s) => s >= 200 && s < 300),
    status429: sum((s) => s === 429),
    status4xx: sum((s) => s >= 400 && s < 500 && s !== 429),
    status5xx: sum((s) => s >= 500 && s < 600),
    errors: Object.values(errorsBy).reduce((n, c) => n + (c ?? 0), 0),
    timeouts: TIMEOUTS.reduce((n, code) => n + (errorsBy[code] ?? 0), 0),
  };
}

const TIMEOUTS: readonly TransportErrorCode[] = ['CONNECT_TIMEOUT', 'HEADERS_TIMEOUT', 'BODY_TIMEOUT', 'EXCHANGE_TIMEOUT'];

/** Accumulates one operation's exchanges: 8 bytes of latency per answer, counters for the rest. */
export class OperationStats {
  #sent = 0;
  #completed = 0;
  readonly #statuses = new Map<number, number>();
  readonly #errors = new Map<TransportErrorCode, number>();
  readonly #served = new ServedLatency();
  readonly #byStatus = new LatencyByStatus();
  readonly #perSecond = new PerSecondCounts();
  /** The 2xx latencies of each second, for its percentiles (8 bytes an answer). */
  readonly #servedBySecond: number[][] = [];
  readonly #startMs: number;

  /** The run's start: second 0 of the per-second series. */
  constructor(startMs: number) {
    this.#startMs = startMs;
    this.#perSecond.start(startMs);
  }

  /** A request written; `add` follows with its exchange. */
  sent(): void {
    this.#sent++;
  }

  add(exchange: Exchange): void {
    if (exchange.error !== undefined && (exchange.response === undefined || exchange.response.bodyTruncated)) {
      this.#errors.set(exchange.error.code, (this.#errors.get(exchange.error.code) ?? 0) + 1);
      return;
    }
    const status = exchange.response!.status;
    this.#completed++;
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1);
    this.#served.add(status, exchange.durationMs);
    this.#byStatus.add(status, exchange.durationMs);
    const at = exchange.sentAtMs + exchange.durationMs;
    this.#perSecond.add(status, at);
    if (status >= 200 && status < 300) {
      const second = Math.max(0, Math.floor((at - this.#startMs) / 1000));
      for (let s = this.#servedBySecond.length; s <= second; s++) this.#servedBySecond.push([]);
      this.#servedBySecond[second]!.push(exchange.durationMs);
    }
  }

  figures(spanMs: number): OperationFigures {
    const statuses = [...this.#statuses].sort(([a], [b]) => a - b).map(([status, count]) => ({ status, count }));
    const errorsBy: OperationFigures['errorsBy'] = Object.fromEntries(this.#errors);
    return {
      sent: this.#sent,
      completed: this.#completed,
      statuses,
      counts: statusCounts(statuses, errorsBy),
      errorsBy,
      latencyServedMs: this.#served.summary(),
      latencyByStatus: this.#byStatus.summary(),
      requestsPerSecond: spanMs > 0 ? Math.round((this.#completed / (spanMs / 1000)) * 100) / 100 : 0,
      perSecond: this.#perSecond.series(),
      latencyPerSecond: this.#servedBySecond.map((values, second) => {
        if (values.length === 0) return { second, count: 0, p50: null, p99: null };
        const sorted = Float64Array.from(values).sort();
        const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number) * 100) / 100;
        return { second, count: sorted.length, p50: at(0.5), p99: at(0.99) };
      }),
    };
  }
}
