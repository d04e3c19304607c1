import { currentCheck } from './current-check.ts';
import { CreatedIdWatch } from '../records/created-ids.ts';
import { ReadBackWatch } from '../records/read-back/read-back.ts';
import { randomBytes } from 'node:crypto';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Pacer } from '../client/pacer.ts';
import { formatRateLimit } from '../contract/rate-limit.ts';
import { estimateWithPhase } from '../ratelimit/phase.ts';
import { Progress } from '../report/progress.ts';
import type { RunSink, SinkProfile } from '../webhooks/run-sink.ts';
import type { BudgetedPlan } from '../plan/budget.ts';
import { budgetNote } from '../plan/budget.ts';
import type { CertifyOptions, QuickPacing } from '../run/certify-options.ts';
import { Ledger } from '../needs/ledger.ts';
import { pacerFor, type RunPlan } from '../plan/plan.ts';
import { refusesToken } from '../needs/preflight.ts';
import { RunGuard, defaultMaxTimeMs, stallBudgetMs } from './run-guard.ts';
import { RunTransport } from './run-transport.ts';
import { startSinkOrExplain, usesSink } from './sink-setup.ts';
import { TokenWatch } from './token-watch.ts';
import { uniqueValues, type UniqueValues } from '../needs/unique-values.ts';
import { SYSTEM_CLOCK } from '../clock.ts';

/**
 * A run, opened: what every later stage sends through and writes to. One paced client (the
 * transport, its pacer and monitor), the guard of the run's time and request limits, the token
 * watch, the webhook sink when the plan needs one, the ledger of created records, the run's notes.
 */
export interface OpenRun {
  readonly options: CertifyOptions;
  readonly plan: RunPlan;
  readonly startedAt: Date;
  /** The embedded server's quick window for the paced checks (the rate-limit phase then runs at the profile's). */
  readonly quick: QuickPacing | undefined;
  readonly pacer: Pacer;
  readonly transport: RunTransport;
  readonly guard: RunGuard;
  readonly watch: TokenWatch;
  /** Every request of a check: paced, guarded, watched for a revoked token. */
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly sink: RunSink | null;
  /** The webhook subscription's secret: the profile's, or one made for the embedded server. */
  readonly webhookSecret: string | null;
  readonly ledger: Ledger;
  /** ID-INTEGER over every create answer of the run (created-ids.ts). */
  readonly createdIds: CreatedIdWatch;
  /** What the run wrote, read back at its end (read-back.ts). */
  readonly readBack: ReadBackWatch;
  readonly unique: UniqueValues;
  /** Run-wide observations for the report, in the order they were made. */
  readonly notes: string[];
  /** The run's time limit, ms from `startedAt`. */
  readonly maxTimeMs: number;
  /** The progress line's ETA counts the rate-limit phase's span from when it starts. */
  markRateLimitPhaseStarted(): void;
  close(): Promise<void>;
}

/** Opens a run for its plan: the client, the guard and the watch, the sink; the notes the plan already gives. */
export async function openRun(options: CertifyOptions, planned: BudgetedPlan, startedAt: Date): Promise<OpenRun> {
  const { plan, choice } = planned;
  const { profile } = options;
  const quick = profile.rate_limit.bursts ? options.quickPacing : undefined;
  const pacer = pacerFor(profile, plan.pacedAt);
  let phaseStartedAt: number | null = null;
  const estimateMs = estimateWithPhase((n) => pacer.estimateMs(n), plan.rateLimit, () => phaseStartedAt);
  const progress = options.progress ? new Progress({ stream: options.progress, total: plan.requests, label: 'certifying', estimateMs }) : null;
  const sinkProfile = profile.webhook?.sink && plan.scenarios.some(usesSink) ? (profile.webhook as SinkProfile) : null;
  const webhookSecret = options.webhookSecret ?? (sinkProfile && options.embedded ? randomBytes(16).toString('hex') : null);
  let guard: RunGuard | undefined;
  const transport = new RunTransport({
    ...options,
    ...(webhookSecret ? { secrets: [webhookSecret] } : {}),
    allowPlainHttp: options.allowPlainHttp ?? false,
    pacer,
    progress,
    // A call that waited its turn in the pacer past a signal or the run's limit is not sent (the preflight's included).
    halt: () => guard?.stopError() ?? options.interruption?.stopped() ?? null,
    ...(options.interruption ? { abortSignal: options.interruption.abortSignal } : {}),
    timeLeftMs: () => guard?.timeLeftMs() ?? Number.POSITIVE_INFINITY,
    onStall: (ms, what) => guard?.noteStall(ms, what),
    onCertificateChange: (reason) => guard!.stopForTarget(`the target's certificate no longer verified on a burst's connection (${reason})`),
  });
  const createdIds = new CreatedIdWatch(profile);
  transport.tap((exchange) => createdIds.observe(exchange));
  const readBack = new ReadBackWatch(profile);
  transport.tap((exchange) => readBack.observe(exchange, currentCheck()));
  const sink = sinkProfile ? await startSinkOrExplain(sinkProfile, webhookSecret, () => transport.client.reserveExchangeIds(1), transport) : null;
  const maxTimeMs = options.maxTimeMs ?? options.runBudget?.withinMs ?? defaultMaxTimeMs(plan.etaMs);
  guard = new RunGuard({
    send: (request) => transport.send(request),
    maxTimeMs,
    startedAtMs: startedAt.getTime(),
    timeIsBudget: options.maxTimeMs === undefined && options.runBudget?.withinMs !== undefined,
    waitMs: () => (pacer.inUnpaced ? 0 : pacer.estimateMs(1)),
    waitBoundMs: pacer.spanMs * 2,
    refusalWindowMs: profile.rate_limit.window,
    provoking: () => transport.provoking,
    stallBudgetMs: stallBudgetMs(profile.timeouts.exchange),
    ...(options.interruption ? { interruption: options.interruption } : {}),
    maxTimeSource: options.maxTimeMs !== undefined ? '--max-time' : options.runBudget?.withinMs !== undefined ? '--within' : "--max-time's default, three times the plan's ETA and at least 10 min",
    ...(options.runBudget?.maxRequests === undefined ? {} : { maxRequests: options.runBudget.maxRequests, made: () => transport.made }),
  });
  const runGuard = guard;
  const watch = new TokenWatch((request) => runGuard.send(request), (status) => refusesToken(status, profile));
  return {
    options,
    plan,
    startedAt,
    quick,
    pacer,
    transport,
    guard: runGuard,
    watch,
    send: (request) => watch.send(request),
    sink,
    webhookSecret,
    ledger: new Ledger(),
    createdIds,
    readBack,
    unique: uniqueValues(),
    notes: openingNotes(options, quick, choice ? budgetNote(choice) : null),
    maxTimeMs,
    markRateLimitPhaseStarted: () => void (phaseStartedAt = SYSTEM_CLOCK.now()),
    close: async () => {
      progress?.finish();
      // An interrupted run does not wait for the calls in flight of the checks it stopped waiting for.
      await (options.interruption?.signal ? transport.destroy() : transport.close());
      await sink?.close();
    },
  };
}

/** The notes a run has before it sends anything: the budget's choice, the embedded server's two windows, what --last-failed re-runs. */
function openingNotes(options: CertifyOptions, quick: QuickPacing | undefined, budget: string | null): string[] {
  const { profile } = options;
  const notes: string[] = [];
  if (budget) notes.push(budget);
  if (quick) {
    notes.push(`the embedded server served the paced checks at ${formatRateLimit(quick.rateLimit)} and the rate-limit phase at the profile's ${formatRateLimit({ limit: profile.rate_limit.limit, windowMs: profile.rate_limit.window })}, on a fresh limiter`);
  }
  if (options.rerunOf) {
    notes.push(`--last-failed: re-ran the checks that failed, errored or were not run in run ${options.rerunOf.runId} (${options.rerunOf.reportPath}), with its seed ${options.seed}`);
  }
  return notes;
}
