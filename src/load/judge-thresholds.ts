import { ENSURE_QUANTITIES, holds, limitText, type EnsureQuantity, type Threshold } from './ensure.ts';
import type { ServedLatencyFigures } from './served-latency.ts';

/** What the `--ensure` thresholds are judged against. */
export interface LoadMeasures {
  /** Requests written to a connection: answered, unanswered and cut off at the end alike (the base of a percent). */
  readonly sent: number;
  /** Latency of the served calls (2xx), as the run timed each; null when none was served. */
  readonly served: ServedLatencyFigures | null;
  /** Why `served` is null when calls were served but their latency is not known (an Artillery report without it). */
  readonly servedUnknown?: string;
  readonly errors: number;
  readonly timeouts: number;
  /** The unanswered calls the verdict judges (cut-offs at the end of a timed run excluded). */
  readonly unanswered: number;
  /** Answers neither 2xx nor 429. */
  readonly non2xx: number;
  /** Answers 429. */
  readonly limited: number;
  readonly requestsPerSecond: number;
}

/** One threshold judged: the verdict line, with the measured value beside the limit. */
export interface ThresholdCheck {
  readonly id: 'ensure';
  /** The threshold as given: `p99<=500ms`. */
  readonly title: string;
  readonly status: 'passed' | 'failed';
  readonly detail: string;
  readonly threshold: Omit<Threshold, 'text'> & {
    /** In the threshold's unit (a percent for a percent limit); null when there was nothing to measure. */
    readonly measured: number | null;
  };
}

const COUNTED: Readonly<Record<Exclude<EnsureQuantity, 'rps' | 'p50' | 'p90' | 'p95' | 'p99' | 'max' | 'mean'>, string>> = {
  errors: 'transport errors and timeouts',
  unanswered: 'requests got no answer',
  timeouts: 'requests timed out',
  non2xx: 'answers neither 2xx nor 429',
  limited: 'answers 429',
};

const two = (n: number) => String(Math.round(n * 100) / 100);

function judged(t: Threshold, measured: number | null, seen: string): ThresholdCheck {
  const { text, ...threshold } = t;
  const limit = `${t.operator} ${limitText(t)}`;
  const ok = measured !== null && holds(measured, t.operator, t.limit);
  return { id: 'ensure', title: text, status: ok ? 'passed' : 'failed', detail: `${seen}; limit ${limit}`, threshold: { ...threshold, measured } };
}

function count(m: LoadMeasures, quantity: keyof typeof COUNTED): number {
  return { errors: m.errors, unanswered: m.unanswered, timeouts: m.timeouts, non2xx: m.non2xx, limited: m.limited }[quantity];
}

/** One threshold against the run's measures. */
export function judgeThreshold(t: Threshold, m: LoadMeasures): ThresholdCheck {
  const kind = ENSURE_QUANTITIES[t.quantity];
  if (kind === 'rate') return judged(t, m.requestsPerSecond, `${two(m.requestsPerSecond)} responses/s`);
  if (kind === 'latency') {
    const q = t.quantity as keyof ServedLatencyFigures;
    if (m.served === null) return judged(t, null, m.servedUnknown ?? `no call was served (2xx): no ${t.quantity} to judge`);
    return judged(t, m.served[q], `${t.quantity} ${two(m.served[q])} ms over ${m.served.count} served calls`);
  }
  const quantity = t.quantity as keyof typeof COUNTED;
  const n = count(m, quantity);
  // Judged exactly; shown to 0.01%, never as 0.00% when it is not 0.
  const percent = m.sent === 0 ? 0 : (n / m.sent) * 100;
  const shown = percent > 0 && percent < 0.01 ? '<0.01' : two(percent);
  return judged(t, t.unit === 'percent' ? percent : n, `${n} ${COUNTED[quantity]}, ${shown}% of ${m.sent} sent`);
}

/** Every threshold, in the order given. */
export function judgeThresholds(thresholds: readonly Threshold[], m: LoadMeasures): ThresholdCheck[] {
  return thresholds.map((t) => judgeThreshold(t, m));
}
