import { currentCheck } from './current-check.ts';
import { CreatedIdWatch } from '../records/created-ids.ts';
import { AnswersWatch } from './answers-watch.ts';
import { SecretsWatch } from '../records/secrets-watch.ts';
import { ISOLATION_UNIT_ID } from '../isolation/isolation-check.ts';
import { ReadBackWatch } from '../records/read-back/read-back-watch.ts';
import { randomBytes } from 'node:crypto';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Pacer } from '../client/pacer.ts';
import { NO_SECOND_COMPANY, type Profile } from '../profile/profile.ts';
import { estimateWithPhase } from '../ratelimit/estimate-with-phase.ts';
import { Progress, type ProgressStream } from '../report/progress.ts';
import type { RunSink, SinkProfile } from '../webhooks/run-sink.ts';
import type { BudgetedPlan } from '../plan/budget.ts';
import { budgetNote } from '../plan/budget.ts';
import type { CheckSettings, QuickPacing, RunLimits, TargetAccess } from './run-settings.ts';
import { Ledger } from '../needs/ledger.ts';
import { pacerFor, type RunPlan } from '../plan/run-plan.ts';
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
  /** What the checks run with: the profile, the seed, the replay commands, --read-only, the generated cases. */
  readonly checks: CheckSettings;
  /** What ends the run before its plan does (the guard's, the budget's admission, the signals). */
  readonly limits: RunLimits;
  /** The target's `{base_url}`. */
  readonly origin: string;
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
  /** Whether the run made that secret itself (the embedded server). */
  readonly madeWebhookSecret: boolean;
  readonly ledger: Ledger;
  /** ID-INTEGER over every create answer of the run (created-ids.ts). */
  readonly createdIds: CreatedIdWatch;
  readonly answers: AnswersWatch;
  /** SEC-TOKEN-NOT-RETURNED and SEC-PASSWORD-NOT-RETURNED over every answer of the run (secrets-watch.ts). */
  readonly secrets: SecretsWatch;
  /** Hands the webhook notifications the sink got so far to the secrets watch (once, before its verdict). */
  observeNotifications(): void;
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

/** What a run is opened with, each part for the layer that uses it (resolved once: run/certify-options.ts). */
export interface OpenOptions {
  readonly access: TargetAccess;
  readonly checks: CheckSettings;
  readonly limits: RunLimits;
  /** Where progress goes; null for none. */
  readonly progress: ProgressStream | null;
  /** The embedded server's quick window for the paced checks, when the profile has bursts. */
  readonly quick?: QuickPacing;
  /** What the run says before it sends anything (the embedded server's two windows, what --last-failed re-runs). */
  readonly notes: readonly string[];
}

/** Opens a run for its plan: the client, the guard and the watch, the sink; the notes the plan already gives. */
export async function openRun(options: OpenOptions, planned: BudgetedPlan, startedAt: Date): Promise<OpenRun> {
  const { plan, choice } = planned;
  const { access, checks, limits, quick } = options;
  const { profile } = checks;
  const pacer = pacerFor(profile, plan.pacedAt);
  let phaseStartedAt: number | null = null;
  const estimateMs = estimateWithPhase((n) => pacer.estimateMs(n), plan.rateLimit, () => phaseStartedAt);
  const progress = options.progress ? new Progress({ stream: options.progress, total: plan.requests, label: 'certifying', estimateMs }) : null;
  const sinkProfile = profile.webhook?.sink && plan.scenarios.some(usesSink) ? (profile.webhook as SinkProfile) : null;
  const madeWebhookSecret = access.webhookSecret === undefined && sinkProfile !== null && access.embedded;
  const webhookSecret = access.webhookSecret ?? (madeWebhookSecret ? randomBytes(16).toString('hex') : null);
  const maxTimeMs = limits.maxTimeMs ?? limits.runBudget?.withinMs ?? defaultMaxTimeMs(plan.etaMs);
  let guard: RunGuard | undefined;
  const transport = new RunTransport({
    origin: access.origin,
    profile,
    token: access.token,
    secondToken: access.secondToken,
    caPem: access.caPem,
    insecure: access.insecure,
    allowPlainHttp: access.allowPlainHttp,
    onExchange: access.onExchange,
    ...(webhookSecret ? { secrets: [webhookSecret] } : {}),
    pacer,
    progress,
    // A call that waited its turn in the pacer past a signal or the run's limit is not sent (the preflight's included).
    halt: () => guard?.stopError() ?? limits.interruption?.stopped() ?? null,
    ...(limits.interruption ? { abortSignal: limits.interruption.abortSignal } : {}),
    timeLeftMs: () => guard?.timeLeftMs() ?? Number.POSITIVE_INFINITY,
    onStall: (ms, what) => guard?.noteStall(ms, what),
    onCertificateChange: (reason) => guard!.stopForTarget(`the target's certificate no longer verified on a burst's connection (${reason})`),
  });
  const { createdIds, answers, secrets, readBack } = tapWatches(transport, plan, profile);
  const sink = sinkProfile ? await startSinkOrExplain(sinkProfile, webhookSecret, () => transport.client.reserveExchangeIds(1), transport) : null;
  const guarded = runGuard(limits, { transport, pacer, profile, maxTimeMs, startedAt });
  guard = guarded;
  const watch = new TokenWatch((request) => guarded.send(request), (status) => refusesToken(status, profile));
  return {
    checks,
    limits,
    origin: access.origin,
    plan,
    startedAt,
    quick,
    pacer,
    transport,
    guard: guarded,
    watch,
    send: (request) => watch.send(request),
    sink,
    webhookSecret,
    madeWebhookSecret,
    ledger: new Ledger(),
    createdIds,
    answers,
    secrets,
    observeNotifications: () => {
      for (const delivery of sink?.sink.deliveries ?? []) secrets.observe(sink!.exchangeOf(delivery));
    },
    readBack,
    unique: uniqueValues(),
    notes: [...(choice ? [budgetNote(choice)] : []), ...options.notes, ...(plan.checks.some((c) => c.kind === 'isolation' && c.skip === NO_SECOND_COMPANY) ? [NO_SECOND_COMPANY] : [])],
    maxTimeMs,
    markRateLimitPhaseStarted: () => void (phaseStartedAt = SYSTEM_CLOCK.now()),
    close: async () => {
      progress?.finish();
      // An interrupted run does not wait for the calls in flight of the checks it stopped waiting for.
      await (limits.interruption?.signal ? transport.destroy() : transport.close());
      await sink?.close();
    },
  };
}

/** The run-wide watches, each on the transport's tap: created IDs, every answer (when planned), the secrets (when planned), what the run wrote. */
function tapWatches(transport: RunTransport, plan: RunPlan, profile: Profile) {
  const createdIds = new CreatedIdWatch(profile);
  transport.tap((exchange) => createdIds.observe(exchange));
  const answers = new AnswersWatch(profile);
  if (plan.everyAnswer) transport.tap((exchange) => answers.observe(exchange));
  const secrets = new SecretsWatch(profile);
  if (plan.secrets.length > 0) transport.tap((exchange) => secrets.observe(exchange));
  const readBack = new ReadBackWatch(profile);
  // The isolation checks judge what they write themselves, in each company (the read-back reads the first company's only).
  transport.tap((exchange) => {
    const check = currentCheck();
    if (check !== ISOLATION_UNIT_ID) readBack.observe(exchange, check);
  });
  return { createdIds, answers, secrets, readBack };
}

/** The guard of a run's time and request limits, its stalls and its signals, over the transport. */
function runGuard(limits: RunLimits, run: { transport: RunTransport; pacer: Pacer; profile: Profile; maxTimeMs: number; startedAt: Date }): RunGuard {
  const { transport, pacer, profile } = run;
  const within = limits.runBudget?.withinMs;
  return new RunGuard({
    send: (request) => transport.send(request),
    maxTimeMs: run.maxTimeMs,
    startedAtMs: run.startedAt.getTime(),
    timeIsBudget: limits.maxTimeMs === undefined && within !== undefined,
    waitMs: () => (pacer.inUnpaced ? 0 : pacer.estimateMs(1)),
    waitBoundMs: pacer.spanMs * 2,
    refusalWindowMs: profile.rate_limit.window,
    provoking: () => transport.provoking,
    stallBudgetMs: stallBudgetMs(profile.timeouts.exchange),
    ...(limits.interruption ? { interruption: limits.interruption } : {}),
    maxTimeSource: limits.maxTimeMs !== undefined ? '--max-time' : within !== undefined ? '--within' : "--max-time's default, three times the plan's ETA and at least 10 min",
    ...(limits.runBudget?.maxRequests === undefined ? {} : { maxRequests: limits.runBudget.maxRequests, made: () => transport.made }),
  });
}
