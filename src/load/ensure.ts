import { didYouMean } from '../did-you-mean.ts';
import { UsageError } from '../errors.ts';

/**
 * What `--ensure` can bound, by the kind of value it takes:
 * - latency (ms, of the served calls: 2xx, each timed by the run itself): p50, p90, p95, p99, max, mean;
 * - count (a number of requests, or a percent of the requests sent): errors (transport errors and
 *   timeouts), unanswered, timeouts, non2xx (answers neither 2xx nor 429), limited (429);
 * - rate (responses per second): rps.
 */
export const ENSURE_QUANTITIES = {
  p50: 'latency',
  p90: 'latency',
  p95: 'latency',
  p99: 'latency',
  max: 'latency',
  mean: 'latency',
  errors: 'count',
  unanswered: 'count',
  timeouts: 'count',
  non2xx: 'count',
  limited: 'count',
  rps: 'rate',
} as const satisfies Record<string, 'latency' | 'count' | 'rate'>;

export type EnsureQuantity = keyof typeof ENSURE_QUANTITIES;

export const ENSURE_OPERATORS = ['<', '<=', '>', '>='] as const;
export type EnsureOperator = (typeof ENSURE_OPERATORS)[number];

/** One `--ensure` threshold, resolved: `p99<=0.5s` is `{ quantity: 'p99', operator: '<=', limit: 500, unit: 'ms' }`. */
export interface Threshold {
  /** As the user wrote it, without spaces: the verdict line's title. */
  readonly text: string;
  readonly quantity: EnsureQuantity;
  readonly operator: EnsureOperator;
  /** In `unit`: ms for latency (`s` converted), requests or percent of the requests sent for counts, responses/s for rps. */
  readonly limit: number;
  readonly unit: 'ms' | 'requests' | 'percent' | 'per-second';
}

/** The grammar, for errors and `--help`. */
export const ENSURE_FORM = 'QUANTITY OP VALUE, e.g. p99<=500ms, errors<=1%, rps>=100';

const THRESHOLD = /^([A-Za-z0-9_().]+)\s*(<=|>=|=<|=>|<|>|==?|!=)\s*(.*)$/;
const NUMBER = /^(\d+(?:\.\d+)?)\s*(ms|s|%)?$/;

/** A UsageError that names the part that is wrong and what would be right. */
function bad(part: string, why: string): UsageError {
  return new UsageError(`--ensure "${part}": ${why}`);
}

/** k6's names for the same aggregations. */
const K6_NAMES: Readonly<Record<string, EnsureQuantity>> = { avg: 'mean', med: 'p50', 'p(50)': 'p50', 'p(90)': 'p90', 'p(95)': 'p95', 'p(99)': 'p99' };

/** `p98`, `p(99.9)`: the offered percentile nearest in value. */
function nearestPercentile(name: string): EnsureQuantity | undefined {
  const match = /^p\(?(\d+(?:\.\d+)?)\)?$/.exec(name);
  if (!match) return undefined;
  const wanted = Number(match[1]);
  const offered = [50, 90, 95, 99] as const;
  const nearest = offered.reduce((best, p) => (Math.abs(p - wanted) < Math.abs(best - wanted) ? p : best));
  return `p${nearest}`;
}

function quantityOf(part: string, name: string): EnsureQuantity {
  if (Object.hasOwn(ENSURE_QUANTITIES, name)) return name as EnsureQuantity;
  const known = Object.keys(ENSURE_QUANTITIES);
  const hint = K6_NAMES[name] ?? nearestPercentile(name) ?? didYouMean(name, known);
  throw bad(part, `no quantity "${name}"${hint ? ` (did you mean ${hint}?)` : ''}; one of ${known.join(', ')}`);
}

function operatorOf(part: string, operator: string): EnsureOperator {
  if ((ENSURE_OPERATORS as readonly string[]).includes(operator)) return operator as EnsureOperator;
  const swapped: Record<string, EnsureOperator> = { '=<': '<=', '=>': '>=' };
  const hint = swapped[operator] ?? '<=';
  throw bad(part, `operator "${operator}" is not one of ${ENSURE_OPERATORS.join(' ')} (did you mean ${hint}?)`);
}

/** The value with its unit, checked against what the quantity takes. */
function limitOf(part: string, quantity: EnsureQuantity, value: string): Pick<Threshold, 'limit' | 'unit'> {
  const match = NUMBER.exec(value.trim());
  const kind = ENSURE_QUANTITIES[quantity];
  const example = { latency: `${quantity}<=500ms or ${quantity}<=0.5s`, count: `${quantity}<=10 or ${quantity}<=1%`, rate: `${quantity}>=100` }[kind];
  if (!match) throw bad(part, `"${value}" is not a number with a unit; write ${example}`);
  const [, digits, unit] = match as unknown as [string, string, string | undefined];
  const n = Number(digits);
  if (kind === 'latency') {
    if (unit === '%') throw bad(part, `${quantity} is a latency, not a share; write ${example}`);
    return { limit: unit === 's' ? n * 1000 : n, unit: 'ms' };
  }
  if (unit === 'ms' || unit === 's') throw bad(part, `${quantity} is ${kind === 'rate' ? 'responses per second' : 'a number of requests'}, not a time; write ${example}`);
  if (kind === 'rate') {
    if (unit === '%') throw bad(part, `${quantity} is responses per second, not a share; write ${example}`);
    return { limit: n, unit: 'per-second' };
  }
  if (unit === '%') {
    if (n > 100) throw bad(part, `${n}% is more than every request; give a percent from 0 to 100`);
    return { limit: n, unit: 'percent' };
  }
  if (!Number.isInteger(n)) throw bad(part, `${quantity} counts requests: give a whole number, or a percent such as ${n}%`);
  return { limit: n, unit: 'requests' };
}

/**
 * Reads one `--ensure` threshold: `QUANTITY OP VALUE` (spaces allowed around OP), in the manner of k6
 * thresholds and Artillery's `ensure`.
 * @throws UsageError naming the threshold and what to write instead, e.g.
 *   `--ensure "p98<=500ms": no quantity "p98" (did you mean p99?); one of p50, p90, …`.
 */
export function parseThreshold(part: string): Threshold {
  const text = part.trim();
  const match = THRESHOLD.exec(text);
  if (!match) throw bad(part, `not ${ENSURE_FORM}`);
  const [, name, op, value] = match as unknown as [string, string, string, string];
  const quantity = quantityOf(text, name.toLowerCase());
  const operator = operatorOf(text, op);
  if (value.trim() === '') throw bad(text, `the value is missing; ${ENSURE_FORM}`);
  return { text: text.replace(/\s+/g, ''), quantity, operator, ...limitOf(text, quantity, value) };
}

/** Every threshold of `--ensure` (comma-separated, the flag repeatable), in the order given. */
export function parseEnsure(parts: readonly string[]): Threshold[] {
  return parts.map(parseThreshold);
}

/** The threshold's limit for people: `500 ms`, `1.5 s`, `1%`, `10`, `100/s`. */
export function limitText(threshold: Pick<Threshold, 'limit' | 'unit'>): string {
  switch (threshold.unit) {
    case 'ms':
      return threshold.limit >= 1000 ? `${threshold.limit / 1000} s` : `${threshold.limit} ms`;
    case 'percent':
      return `${threshold.limit}%`;
    case 'requests':
      return String(threshold.limit);
    case 'per-second':
      return `${threshold.limit}/s`;
  }
}

/** Whether `value` meets `operator limit`. */
export function holds(value: number, operator: EnsureOperator, limit: number): boolean {
  switch (operator) {
    case '<':
      return value < limit;
    case '<=':
      return value <= limit;
    case '>':
      return value > limit;
    case '>=':
      return value >= limit;
  }
}
