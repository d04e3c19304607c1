import type { EnsureQuantity, Threshold } from '../ensure.ts';
import type { RateLimitWindow } from '../load-verdict.ts';

/**
 * `load`'s verdict as Artillery's `ensure` checks (config.plugins.ensure, Artillery 2.x): each
 * `--ensure` threshold, and the default checks no threshold replaces, so that `artillery run` exits 1
 * where `load` would. A `thresholds` entry is `metric < value`; anything else is a `conditions`
 * expression (filtrex: `<`, `<=`, `>`, `>=`, `==`, arithmetic, `a ? b : c`).
 */
export interface ArtilleryEnsure {
  /** `- metric: value`: passes when the metric is below the value. */
  readonly thresholds: readonly Readonly<Record<string, number>>[];
  readonly conditions: readonly { readonly expression: string }[];
  /** How each judgement became a check: `p99<=500ms → http.response_time.2xx.p99 <= 500`. */
  readonly mapped: readonly string[];
  /** What has no Artillery equivalent, `what: why`; left out of the script. */
  readonly unmapped: readonly string[];
}

/**
 * A counter Artillery may not have emitted (it writes none that never counted, and a check on a
 * missing metric fails), as 0 when absent: `(errors.ETIMEDOUT ? errors.ETIMEDOUT : 0)`.
 */
const or0 = (metric: string) => `(${metric} ? ${metric} : 0)`;

/** The served calls' latency: Artillery's `http.response_time.2xx`, as `--ensure` judges the 2xx. */
const LATENCY: Readonly<Record<'p50' | 'p90' | 'p95' | 'p99' | 'max' | 'mean', string>> = {
  p50: 'http.response_time.2xx.p50',
  p90: 'http.response_time.2xx.p90',
  p95: 'http.response_time.2xx.p95',
  p99: 'http.response_time.2xx.p99',
  max: 'http.response_time.2xx.max',
  mean: 'http.response_time.2xx.mean',
};

/**
 * The counts: every call Artillery gives up on fails its virtual user, so `vusers.failed` is the
 * calls that ended in an error (transport errors and timeouts, load's `errors`); a call sent and never
 * answered is `http.requests - http.responses`; got's timeout is `errors.ETIMEDOUT`.
 */
const COUNTS: Readonly<Record<'errors' | 'unanswered' | 'timeouts' | 'non2xx' | 'limited', string>> = {
  errors: or0('vusers.failed'),
  unanswered: `(${or0('http.requests')} - ${or0('http.responses')})`,
  timeouts: or0('errors.ETIMEDOUT'),
  non2xx: `(${or0('http.responses')} - ${or0('http.response_time.2xx.count')} - ${or0('http.codes.429')})`,
  limited: or0('http.codes.429'),
};

/** Why `rps` is not mapped. */
const RPS_UNMAPPED =
  "Artillery's http.request_rate is the calls sent per second, averaged over its 10 s reporting periods and rounded, not the responses per second over the run";

/** Why the rate-limit reading is not mapped. */
const LIMIT_UNMAPPED =
  "within-rate-limit (RATE-LIMIT-CAP): the reading counts the calls served between the first call sent and the last answer, from each call's time; Artillery keeps counts per period";

function thresholdCheck(t: Threshold): { threshold?: Record<string, number>; expression?: string; text: string } | null {
  // ms for a latency (as Artillery's response times), requests or a percent for a count.
  const limit = t.limit;
  if (t.quantity === 'rps') return null;
  if (t.quantity in LATENCY) {
    const metric = LATENCY[t.quantity as keyof typeof LATENCY];
    // Artillery's own threshold form is exactly `metric < value`.
    if (t.operator === '<') return { threshold: { [metric]: limit }, text: `${metric} < ${limit}` };
    return { expression: `${metric} ${t.operator} ${limit}`, text: `${metric} ${t.operator} ${limit}` };
  }
  const count = COUNTS[t.quantity as keyof typeof COUNTS];
  const value = t.unit === 'percent' ? `${count} / http.requests * 100` : count;
  return { expression: `${value} ${t.operator} ${limit}`, text: `${value} ${t.operator} ${limit}` };
}

/** load's default checks that no `--ensure` threshold replaces, as conditions (within-rate-limit has none). */
function defaultConditions(quantities: ReadonlySet<EnsureQuantity>): { expression: string; check: string }[] {
  const conditions: { expression: string; check: string }[] = [];
  if (!quantities.has('non2xx')) conditions.push({ check: 'no-5xx', expression: `${or0('http.response_time.5xx.count')} == 0` });
  // all-answered: every failed call is unanswered or a transport error; with only `timeouts` bounded, the rest still judges.
  if (!quantities.has('errors') && !quantities.has('unanswered')) {
    const failed = quantities.has('timeouts') ? `${or0('vusers.failed')} - ${COUNTS.timeouts}` : or0('vusers.failed');
    conditions.push({ check: 'all-answered', expression: `${failed} == 0` });
  }
  return conditions;
}

/**
 * The `ensure` checks for `--ensure` and load's defaults; `rps` and the rate-limit reading (when a
 * limit would be judged) are listed as unmapped, with why.
 */
export function artilleryEnsure(thresholds: readonly Threshold[], rateLimit: RateLimitWindow | null): ArtilleryEnsure {
  const out = { thresholds: [] as Record<string, number>[], conditions: [] as { expression: string }[], mapped: [] as string[], unmapped: [] as string[] };
  for (const t of thresholds) {
    const check = thresholdCheck(t);
    if (check === null) {
      out.unmapped.push(`${t.text}: ${RPS_UNMAPPED}`);
      continue;
    }
    if (check.threshold) out.thresholds.push(check.threshold);
    if (check.expression) out.conditions.push({ expression: check.expression });
    out.mapped.push(`${t.text} → ${check.text}`);
  }
  for (const d of defaultConditions(new Set(thresholds.map((t) => t.quantity)))) {
    out.conditions.push({ expression: d.expression });
    out.mapped.push(`${d.check} (load's default) → ${d.expression}`);
  }
  if (rateLimit !== null) out.unmapped.push(LIMIT_UNMAPPED);
  return out;
}
