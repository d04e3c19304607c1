import type { RuleId } from '../contract/rules.ts';
import { formatDuration } from '../duration.ts';
import { judgeThreshold, type LoadMeasures, type ThresholdCheck } from '../load/judge-thresholds.ts';
import { maxServedCalls, type RateLimitWindow } from '../load/load-verdict.ts';
import type { ServedLatencyFigures } from '../load/served-latency.ts';
import type { CheckResult } from '../report/model.ts';
import type { SampleReport } from './answer-sample.ts';
import { describeArrival } from './arrival.ts';
import type { OperationFigures } from './operation-stats.ts';
import type { WorkloadThreshold } from './workload-ensure.ts';
import type { WorkloadOutcome } from './workload-engine.ts';
import type { Arrival, Workload } from './workload-file.ts';
import type { WorkloadOperationName } from './workload-operations.ts';

export const WORKLOAD_REPORT_SCHEMA_VERSION = '1.0.0';

/** One line of a workload run's verdict, for the whole run (`operation` null) or one operation. */
export interface WorkloadCheck {
  readonly id: 'no-5xx' | 'all-answered' | 'within-rate-limit' | 'ensure' | 'answers-conform' | 'no-lost-writes';
  readonly operation: WorkloadOperationName | null;
  readonly title: string;
  readonly rule?: RuleId;
  readonly status: 'passed' | 'failed' | 'skipped';
  readonly detail: string;
  /** For an `ensure` line: the threshold and what was measured. */
  readonly threshold?: ThresholdCheck['threshold'];
}

/** One operation's results: its figures and its share of the requests. */
export interface OperationResult extends OperationFigures {
  readonly operation: WorkloadOperationName;
  /** Percent of all requests sent, to 0.01. */
  readonly share: number;
}

/** One scenario's flows. */
export interface ScenarioResult {
  readonly name: string;
  readonly weight: number;
  readonly started: number;
  /** Every step answered 2xx; null where not known (an Artillery report counts completed virtual users over all scenarios only). */
  readonly completed: number | null;
  /** Stopped at an answer that was not 2xx, by reason, most first. */
  readonly stopped: readonly { readonly reason: string; readonly count: number }[];
  readonly cutAtEnd: number;
  /** Length of the completed flows, think times included, ms. */
  readonly durationMs: ServedLatencyFigures | null;
}

/** load.json of a workload run (`clockcheck load --workload`). Holds no secret. */
export interface WorkloadReport {
  readonly kind: 'workload';
  readonly schemaVersion: string;
  /** Who measured the run: clockcheck itself, or Artillery (`--from-artillery`: its report rendered). */
  readonly source: 'clockcheck' | 'artillery';
  /** What this report could not judge, each `what: why` (empty for clockcheck's own runs). */
  readonly notJudged: readonly string[];
  readonly runId: string;
  readonly tool: { readonly name: 'clockcheck'; readonly version: string };
  readonly target: { readonly origin: string; readonly apiPrefix: string; readonly embedded: boolean };
  readonly workload: {
    readonly name: string;
    readonly source: string;
    readonly seed: number;
    readonly readOnly: boolean;
    readonly arrival: Arrival;
    /** In words: `open model: 10 flows/s for 30 s (at most 50 in flight)`. */
    readonly arrivalText: string;
    /**
     * Open: flows start on a schedule that does not wait for the target, so a slow server shows as
     * latency and dropped arrivals, not as fewer requests (no coordinated omission). Closed: each
     * connection starts its next flow when the last ends, so a slow server is sent less.
     */
    readonly model: string;
    readonly ensure: readonly string[];
  };
  readonly startedAt: string;
  readonly finishedAt: string;
  /** First request sent → last answer. */
  readonly durationMs: number;
  readonly arrivals: WorkloadOutcome['arrivals'];
  readonly total: OperationFigures;
  readonly operations: readonly OperationResult[];
  readonly scenarios: readonly ScenarioResult[];
  /** The sampled answers judged by the rules `run` judges an answer by alone. */
  readonly sample: SampleReport;
  /** What the load wrote, read back after it (null: it wrote no user, timesheet or break). */
  readonly readBack: CheckResult | null;
  /** Records created (and edited) with a 2xx, by kind. */
  readonly written: { readonly created: Readonly<Record<string, number>>; readonly edited: Readonly<Record<string, number>>; readonly notKept: number };
  readonly verdict: { readonly status: 'passed' | 'failed'; readonly checks: readonly WorkloadCheck[] };
  readonly exitCode: 0 | 1;
}

export interface WorkloadReportContext {
  readonly runId: string;
  readonly toolVersion: string;
  readonly origin: string;
  readonly apiPrefix: string;
  readonly embedded: boolean;
  readonly workload: Workload;
  readonly seed: number;
  readonly readOnly: boolean;
  readonly ensure: readonly WorkloadThreshold[];
  readonly rateLimit: RateLimitWindow | null;
  readonly sample: SampleReport;
  readonly readBack: CheckResult | null;
  /** Epoch ms of the run's start and end, for the report's times. */
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
}

const MODEL_TEXT = {
  open: 'open: flows arrive on a schedule that does not wait for the target (a slow target shows as latency and dropped arrivals, never as fewer requests sent: no coordinated omission)',
  closed: 'closed: each connection starts its next flow when its last one ends (a slow target is sent less: its slowness partly hides, as in autocannon or a k6 constant-VUs run)',
} as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function measuresOf(f: OperationFigures): LoadMeasures {
  return {
    sent: f.sent,
    served: f.latencyServedMs,
    errors: f.counts.errors,
    timeouts: f.counts.timeouts,
    unanswered: f.counts.errors,
    non2xx: f.completed - f.counts.status2xx - f.counts.status429,
    limited: f.counts.status429,
    requestsPerSecond: f.requestsPerSecond,
  };
}

/** Default checks of one operation (or the run): no 5xx, every request answered. A threshold on non2xx or errors takes the place of the default it bounds. */
function defaultChecks(operation: WorkloadOperationName | null, f: OperationFigures, bounded: ReadonlySet<string>): WorkloadCheck[] {
  const on = operation ?? 'every operation';
  const checks: WorkloadCheck[] = [];
  if (!bounded.has('non2xx')) {
    const fives = f.statuses.filter((s) => s.status >= 500 && s.status < 600);
    checks.push({
      id: 'no-5xx',
      operation,
      title: `${on}: no 5xx`,
      status: fives.length === 0 ? 'passed' : 'failed',
      detail: fives.length === 0 ? `no 5xx among ${plural(f.completed, 'answer', 'answers')}` : `${fives.map((s) => `${s.count} × ${s.status}`).join(', ')} of ${f.completed} answers`,
    });
  }
  if (!bounded.has('errors') && !bounded.has('unanswered') && !bounded.has('timeouts')) {
    const errors = Object.entries(f.errorsBy).map(([code, n]) => `${n} ${code}`);
    checks.push({
      id: 'all-answered',
      operation,
      title: `${on}: every request answered`,
      status: f.counts.errors === 0 ? 'passed' : 'failed',
      detail: f.counts.errors === 0 ? `${plural(f.sent, 'request', 'requests')}, each answered` : `${f.counts.errors} of ${f.sent} requests got no answer (${errors.join(', ')})`,
    });
  }
  return checks;
}

/** RATE-LIMIT-CAP (§8) over the whole run: no more 2xx than a conforming sliding window serves in its length. */
function limitCheck(total: OperationFigures, durationMs: number, rateLimit: RateLimitWindow | null): WorkloadCheck {
  const base = { id: 'within-rate-limit', operation: null, title: 'No more calls served than the limit allows', rule: 'RATE-LIMIT-CAP' } as const;
  if (rateLimit === null) return { ...base, status: 'skipped', detail: 'not judged: no limit given (--rate-limit, or a profile)' };
  const max = maxServedCalls(rateLimit.limit, rateLimit.windowMs, durationMs);
  const served = total.counts.status2xx;
  const within = `${served} served in ${formatDuration(durationMs)}; a limit of ${rateLimit.limit} per ${formatDuration(rateLimit.windowMs)} serves at most ${max}`;
  return served <= max ? { ...base, status: 'passed', detail: within } : { ...base, status: 'failed', detail: `${within}: ${served - max} beyond the limit` };
}

/** Each rule an operation's sampled answers broke, as a failed line; one passed line when none was broken. */
function sampleChecks(sample: SampleReport): WorkloadCheck[] {
  if (sample.every === 0) return [{ id: 'answers-conform', operation: null, title: 'Sampled answers conform', status: 'skipped', detail: 'not judged: --sample none' }];
  const broken = sample.rules.filter((r) => r.broken > 0);
  if (broken.length === 0) {
    const rules = new Set(sample.rules.map((r) => r.rule)).size;
    return [{ id: 'answers-conform', operation: null, title: 'Sampled answers conform', status: 'passed', detail: `${sample.judged} answers judged (1 in ${sample.every} of each operation, and every one not 2xx) by ${rules} rules: none broken` }];
  }
  return broken.map((r) => {
    const first = r.findings[0];
    return {
      id: 'answers-conform',
      operation: r.operation,
      title: `${r.operation}: ${r.rule}`,
      rule: r.rule,
      status: 'failed',
      detail: `${r.broken} of ${r.held + r.broken} sampled answers broke it${first ? `: expected ${first.expected}; got ${first.actual} (exchange ${first.exchangeIds.join(', ')})` : ''}`,
    };
  });
}

/** No lost writes: the read-back's verdict, with the rule of the first difference. */
function readBackCheck(readBack: CheckResult | null): WorkloadCheck {
  const base = { id: 'no-lost-writes', operation: null, title: 'Every record written with a 2xx reads back as written' } as const;
  if (readBack === null) return { ...base, status: 'skipped', detail: 'not judged: the load wrote no user, timesheet or break' };
  const first = readBack.findings[0];
  if (readBack.status === 'failed' && first) {
    return { ...base, rule: first.ruleId, status: 'failed', detail: `${readBack.findings.length}${readBack.findings.length >= 12 ? '+' : ''} differences, first ${first.ruleId}: expected ${first.expected}; got ${first.actual}` };
  }
  if (readBack.status === 'passed') return { ...base, status: 'passed', detail: readBack.reason ?? 'read back' };
  return { ...base, status: 'skipped', detail: `not judged: ${readBack.reason ?? readBack.status}` };
}

/** What a workload report is made from, whoever measured the run. */
export interface WorkloadFigures {
  readonly source: WorkloadReport['source'];
  readonly notJudged: readonly string[];
  readonly durationMs: number;
  readonly total: OperationFigures;
  readonly operations: readonly { readonly operation: WorkloadOperationName; readonly figures: OperationFigures }[];
  readonly scenarios: readonly ScenarioResult[];
  readonly arrivals: WorkloadOutcome['arrivals'];
  readonly written: WorkloadReport['written'];
  readonly sample: SampleReport | null;
  readonly readBack: CheckResult | null;
}

/** The report of a workload run, with its verdict. */
export function buildWorkloadReport(outcome: WorkloadOutcome, context: WorkloadReportContext): WorkloadReport {
  const durationMs = Math.max(0, outcome.endMs - outcome.startMs);
  const count = (edits: boolean) => {
    const out: Record<string, number> = {};
    for (const w of outcome.written) if (w.operation.startsWith('PUT') === edits) out[w.kind] = (out[w.kind] ?? 0) + 1;
    return out;
  };
  return assembleWorkloadReport(
    {
      source: 'clockcheck',
      notJudged: [],
      durationMs,
      total: outcome.total.figures(durationMs),
      operations: [...outcome.operations].map(([operation, stats]) => ({ operation, figures: stats.figures(durationMs) })),
      scenarios: outcome.scenarios.map((s) => ({
        name: s.name,
        weight: s.weight,
        started: s.started,
        completed: s.completed,
        stopped: [...s.stopped].map(([reason, n]) => ({ reason, count: n })).sort((a, b) => b.count - a.count),
        cutAtEnd: s.cutAtEnd,
        durationMs: s.durations.summary(),
      })),
      arrivals: outcome.arrivals,
      written: { created: count(false), edited: count(true), notKept: outcome.writesNotKept },
      sample: context.sample,
      readBack: context.readBack,
    },
    context,
  );
}

/** The report and its verdict from the figures: per-operation default checks, the limit, the sample, the read-back, the thresholds. */
export function assembleWorkloadReport(figures: WorkloadFigures, context: Omit<WorkloadReportContext, 'sample' | 'readBack'>): WorkloadReport {
  const { durationMs, total } = figures;
  const operations: OperationResult[] = figures.operations
    .map((o) => ({ operation: o.operation, ...o.figures, share: total.sent === 0 ? 0 : Math.round((o.figures.sent / total.sent) * 10_000) / 100 }))
    .sort((a, b) => b.sent - a.sent || a.operation.localeCompare(b.operation));
  const boundedOn = (operation: WorkloadOperationName | null) => new Set(context.ensure.filter((t) => t.operation === operation).map((t) => t.threshold.quantity));
  const notJudged = (why: string) => (check: WorkloadCheck): WorkloadCheck => ({ ...check, status: 'skipped', detail: `not judged: ${why}` });
  const checks: WorkloadCheck[] = [
    ...operations.flatMap((o) => defaultChecks(o.operation, o, boundedOn(o.operation))),
    figures.source === 'artillery' ? notJudged("Artillery keeps counts per period, not each call's time")(limitCheck(total, durationMs, null)) : limitCheck(total, durationMs, context.rateLimit),
    ...(figures.sample ? sampleChecks(figures.sample) : [notJudged('Artillery does not judge answers by the spec\'s rules')({ id: 'answers-conform', operation: null, title: 'Sampled answers conform', status: 'skipped', detail: '' })]),
    figures.source === 'artillery' ? notJudged('Artillery does not read back what it wrote (clockcheck load --workload does)')({ id: 'no-lost-writes', operation: null, title: 'Every record written with a 2xx reads back as written', status: 'skipped', detail: '' }) : readBackCheck(figures.readBack),
    ...context.ensure.map((t): WorkloadCheck => {
      const measured = t.operation === null ? total : operations.find((o) => o.operation === t.operation);
      if (measured === undefined) return { id: 'ensure', operation: t.operation, title: t.text, status: 'failed', detail: `the run has no ${t.operation} to judge` };
      const judged = judgeThreshold(t.threshold, measuresOf(measured));
      return { id: 'ensure', operation: t.operation, title: t.text, status: judged.status, detail: judged.detail, threshold: judged.threshold };
    }),
  ];
  const failed = checks.some((c) => c.status === 'failed');
  return {
    kind: 'workload',
    schemaVersion: WORKLOAD_REPORT_SCHEMA_VERSION,
    source: figures.source,
    notJudged: figures.notJudged,
    runId: context.runId,
    tool: { name: 'clockcheck', version: context.toolVersion },
    target: { origin: context.origin, apiPrefix: context.apiPrefix, embedded: context.embedded },
    workload: {
      name: context.workload.name,
      source: context.workload.source,
      seed: context.seed,
      readOnly: context.readOnly,
      arrival: context.workload.arrival,
      arrivalText: describeArrival(context.workload.arrival),
      model: MODEL_TEXT[context.workload.arrival.model],
      ensure: context.ensure.map((t) => t.text),
    },
    startedAt: new Date(context.startedAtMs).toISOString(),
    finishedAt: new Date(context.finishedAtMs).toISOString(),
    durationMs,
    arrivals: figures.arrivals,
    total,
    operations,
    scenarios: figures.scenarios,
    sample: figures.sample ?? { every: 0, judged: 0, judgedBy: {}, rules: [], exchanges: [] },
    readBack: figures.readBack,
    written: figures.written,
    verdict: { status: failed ? 'failed' : 'passed', checks },
    exitCode: failed ? 1 : 0,
  };
}
