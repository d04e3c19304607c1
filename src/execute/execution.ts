import { BUILTIN_CHECKS } from '../checks/registry.ts';
import type { ScenarioDeps } from '../scenarios/scenario-deps.ts';
import { runDates } from '../scenarios/template-context.ts';
import { SharedBaselines } from '../scenarios/shared-baselines.ts';
import { SharedSetups } from '../scenarios/shared-setups.ts';
import type { TemplateContext } from '../scenarios/template-context.ts';
import type { CheckResult } from '../report/model.ts';
import type { PropertyPhaseOptions } from '../properties/run-properties.ts';
import { runRateLimitPhase } from '../ratelimit/phase.ts';
import { runRefusedCalls } from '../ratelimit/refused-calls.ts';
import type { PacedTraffic } from '../ratelimit/phase-deps.ts';
import type { Exchange } from '../client/exchange.ts';
import { defaultGuardMs } from '../client/pacer.ts';
import { retainExchange } from '../client/retained.ts';
import type { QuickPacing } from './run-settings.ts';
import type { OpenRun } from './open.ts';
import { templateProfile } from './sink-setup.ts';
import type { Fates } from '../needs/meet-needs.ts';
import type { Profile } from '../profile/profile.ts';
import { SYSTEM_CLOCK } from '../clock.ts';
import { READ_BACK_CHECK_ID } from '../records/read-back/read-back-check.ts';
import { runUserSequences } from '../properties/user-sequences.ts';
import { runIsolation } from '../isolation/run-isolation.ts';
import { ISOLATION_UNIT_ID } from '../isolation/isolation-check.ts';
import { asCheck } from './current-check.ts';

/** What the checks of a plan run with: the scenarios' context, the property phase's, and the rate-limit phase. */
export interface Execution {
  /** What the run decided for each check's data needs, and the profile completed with what it found and made. */
  readonly fates: Fates;
  readonly scenarioDeps: ScenarioDeps;
  readonly properties: PropertyPhaseOptions;
  /** The rate-limit phase; `interleaved`: paced checks run beside it (RunPlan.rateLimit.at). */
  readonly rateLimitPhase: (interleaved: boolean) => Promise<CheckResult[]>;
  /** The refused calls' bursts (refused-calls.ts), after the run's last paced call. */
  readonly refusedCalls: () => Promise<CheckResult>;
  /** The stateful family's sequences (user-sequences.ts). */
  readonly userSequences: () => Promise<CheckResult>;
  /** The isolation checks between the two companies (isolation/run-isolation.ts), as the check ISOLATION_UNIT_ID (its writes are not the read-back's). */
  readonly isolation: () => Promise<CheckResult[]>;
  /** Reads back what the run wrote, in at most `maxRequests` (read-back.ts). */
  readonly readBack: (maxRequests: number) => Promise<CheckResult>;
}

/** The contexts the checks of an open run run in: every send the run's `send`, every replay command the run's. */
export function executionOf(run: OpenRun, fates: Fates): Execution {
  return {
    fates,
    scenarioDeps: scenarioDeps(run, fates),
    properties: propertyOptions(run, fates.profile),
    rateLimitPhase: (interleaved) => rateLimitPhase(run, interleaved),
    refusedCalls: () => refusedCalls(run),
    userSequences: () =>
      runUserSequences({ send: run.send, profile: fates.profile, runSeed: run.checks.seed, uniqueTag: run.unique.tag, replayBase: run.checks.replayBase, readOnly: run.checks.readOnly }),
    isolation: () =>
      asCheck(ISOLATION_UNIT_ID, () =>
        runIsolation({ send: run.send, profile: fates.profile, seed: run.checks.seed, unique: run.unique.next, replayBase: run.checks.replayBase, readOnly: run.checks.readOnly, onCreated: (resource) => run.ledger.add(resource) }),
      ),
    readBack: (maxRequests) =>
      run.readBack.check({ send: run.send, profile: fates.profile, clock: SYSTEM_CLOCK, nonce: run.unique.nonce, maxRequests, replay: `${run.checks.replayBase} --only ${READ_BACK_CHECK_ID}` }),
  };
}

function scenarioDeps(run: OpenRun, fates: Fates): ScenarioDeps {
  const { checks, sink, webhookSecret } = run;
  const { profile } = fates;
  const template: Omit<TemplateContext, 'vars'> = {
    fixtures: profile.fixtures as Record<string, unknown>,
    profile: templateProfile(profile, sink, webhookSecret),
    companyTimezone: profile.company_timezone,
    dates: runDates(checks.seed),
    unique: run.unique.next,
    ...(sink ? { sink: { url: sink.url, secret: webhookSecret } } : {}),
  };
  return {
    send: run.send,
    acquire: () => run.pacer.acquire(),
    profile,
    origin: run.origin,
    template,
    builtins: BUILTIN_CHECKS,
    readOnly: checks.readOnly,
    replay: (id) => `${checks.replayBase} --only ${id} --seed ${checks.seed}`,
    onCreated: (resource, company) => run.ledger.add(resource, company),
    onRemoved: (kind, _checkId, company) => run.ledger.remove(kind, company),
    baselines: new SharedBaselines(),
    setups: new SharedSetups(),
    sink,
    deadlineMs: run.startedAt.getTime() + run.maxTimeMs,
    adaptations: fates.adaptations,
  };
}

function propertyOptions(run: OpenRun, profile: Profile): PropertyPhaseOptions {
  const { checks, plan } = run;
  return {
    cases: plan.casesPerFamily,
    budget: checks.budget,
    runSeed: checks.seed,
    ...(checks.path ? { path: checks.path } : {}),
    ...(checks.casePaths ? { casePaths: checks.casePaths } : {}),
    send: run.send,
    profile,
    dates: runDates(checks.seed),
    uniqueTag: run.unique.tag,
    uniqueEmail: () => run.unique.next().email,
    // A family's generated cases are its share of the budget: replayed alone, it gets that share (a
    // replay of one case, --path, sends that case alone whatever the budget, so it passes its own on).
    replayBase: `${checks.replayBase} --budget ${checks.path ? checks.budget : plan.casesPerFamily}`,
    readOnly: checks.readOnly,
  };
}

/**
 * The rate-limit phase. Beside paced checks (`interleaved`: the plan starts it before some of them,
 * RunPlan.rateLimit.at), it steers the pacer's gate so their calls fill the windows it needs; else
 * it runs alone after a window without calls. Against the embedded server the limiter restarts at
 * the profile's limit instead of that window (the pacer with it), and at the quick one when the
 * phase ends. `started` is told when the phase starts waiting for its window, for the ETA.
 */
function rateLimitPhase(run: OpenRun, interleaved: boolean): Promise<CheckResult[]> {
  const { checks, plan, transport, guard, pacer, quick } = run;
  const { profile } = checks;
  const traffic: PacedTraffic = {
    hold: () => pacer.hold(),
    admit: (count) => pacer.admit(count),
    untilIdle: () => pacer.untilIdle(),
    untilQuiet: () => pacer.untilQuiet(),
    untilBlocked: () => pacer.untilBlocked(),
    watch: () => {
      const kept: Exchange[] = [];
      // Kept as a report keeps them: the phase holds the calls' timing and statuses, not their bodies.
      // A second company's calls in a window of their own (second_company.rate_limit: per-token) are not the token's the phase counts.
      const own = (exchange: Exchange) => exchange.company !== 'second' || profile.second_company?.rate_limit !== 'per-token';
      const stop = transport.tap((exchange, segment) => void (segment === 'paced' && own(exchange) && kept.push(retainExchange(exchange))));
      return {
        stop: () => {
          stop();
          return kept;
        },
      };
    },
    get allowed() {
      return pacer.allowed;
    },
  };
  const restartLimiter = quick
    ? async () => {
        await quick.switchToProfileRateLimit();
        pacer.retime(profile.rate_limit.limit, profile.rate_limit.window);
        transport.monitor.limiterRestarted(profile.rate_limit.window);
      }
    : undefined;
  run.markRateLimitPhaseStarted();
  return pacer.unpaced(async () => {
    try {
      return await runRateLimitPhase({
        profile,
        call: (request, label) => transport.call(run.send, request, label),
        burst: (requests, amount, label, wholeBodies) => {
          guard.assertRunning(amount);
          return transport.burst(requests, amount, label, wholeBodies);
        },
        guardMs: defaultGuardMs(profile.rate_limit.window),
        ...(restartLimiter ? { restartLimiter } : {}),
        replay: (id) => `${checks.replayBase} --only ${id}`,
        selected: plan.rateLimit.selected,
        traffic,
        interleaved,
      });
    } finally {
      if (quick && profile.rate_limit.bursts) await backToQuick(run, quick);
    }
  });
}

/**
 * The refused calls' bursts, unpaced (the pacer counts them, so nothing comes too soon after): once
 * every other call of the run is answered. Against the embedded server its limiter restarts at the
 * profile's limit first (the quick window is too short for a burst's timing to be certain); nothing
 * after them needs the quick one back.
 */
async function refusedCalls(run: OpenRun): Promise<CheckResult> {
  const { checks, transport, guard, pacer, quick } = run;
  const { profile } = checks;
  if (quick && profile.rate_limit.bursts) {
    pacer.hold();
    await pacer.untilIdle();
    await quick.switchToProfileRateLimit();
    pacer.retime(profile.rate_limit.limit, profile.rate_limit.window);
    transport.monitor.limiterRestarted(profile.rate_limit.window);
    pacer.admit();
  }
  return pacer.unpaced(() =>
    runRefusedCalls({
      profile,
      authorization: transport.client.authorization(),
      burst: (request, amount, segment, authorization) => {
        guard.assertRunning(amount);
        return transport.burst([request], amount, segment, false, authorization);
      },
      replay: (id) => `${checks.replayBase} --only ${id}`,
    }),
  );
}

/** The embedded server's quick window again, on a fresh limiter, and the pacer and monitor with it (the paced checks after the phase). */
async function backToQuick(run: OpenRun, quick: QuickPacing): Promise<void> {
  run.pacer.hold();
  await run.pacer.untilIdle();
  await quick.switchToQuickRateLimit();
  run.pacer.retime(quick.rateLimit.limit, quick.rateLimit.windowMs);
  run.transport.monitor.limiterRestarted(quick.rateLimit.windowMs);
  run.pacer.admit();
}
