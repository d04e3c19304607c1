import { BUILTIN_CHECKS } from '../checks/registry.ts';
import type { ScenarioDeps } from '../scenarios/scenario-deps.ts';
import { runDates } from '../scenarios/template-context.ts';
import { SharedBaselines } from '../scenarios/shared-baselines.ts';
import { SharedSetups } from '../scenarios/shared-setups.ts';
import type { TemplateContext } from '../scenarios/template-context.ts';
import type { CheckResult } from '../report/model.ts';
import type { PropertyPhaseOptions } from '../properties/run-properties.ts';
import type { RateMonitor } from '../ratelimit/monitor.ts';
import { runRateLimitPhase } from '../ratelimit/phase.ts';
import type { QuickPacing } from './certify-options.ts';
import type { OpenRun } from './open.ts';
import { templateProfile } from './sink-setup.ts';
import type { Fates } from './meet-needs.ts';
import type { Profile } from '../profile/profile.ts';

/** What the checks of a plan run with: the scenarios' context, the property phase's, and the rate-limit phase. */
export interface Execution {
  /** What the run decided for each check's data needs, and the profile completed with what it found and made. */
  readonly fates: Fates;
  readonly scenarioDeps: ScenarioDeps;
  readonly properties: PropertyPhaseOptions;
  readonly rateLimitPhase: () => Promise<CheckResult[]>;
}

/** The contexts the checks of an open run run in: every send the run's `send`, every replay command the run's. */
export function executionOf(run: OpenRun, fates: Fates): Execution {
  return { fates, scenarioDeps: scenarioDeps(run, fates), properties: propertyOptions(run, fates.profile), rateLimitPhase: () => rateLimitPhase(run) };
}

function scenarioDeps(run: OpenRun, fates: Fates): ScenarioDeps {
  const { options, sink, webhookSecret } = run;
  const { profile } = fates;
  const template: Omit<TemplateContext, 'vars'> = {
    fixtures: profile.fixtures as Record<string, unknown>,
    profile: templateProfile(profile, sink, webhookSecret),
    companyTimezone: profile.company_timezone,
    dates: runDates(options.seed),
    unique: run.unique.next,
    ...(sink ? { sink: { url: sink.url, secret: webhookSecret } } : {}),
  };
  return {
    send: run.send,
    acquire: () => run.pacer.acquire(),
    profile,
    origin: options.origin,
    template,
    builtins: BUILTIN_CHECKS,
    readOnly: options.readOnly,
    replay: (id) => `${options.replayBase} --only ${id} --seed ${options.seed}`,
    onCreated: (resource) => run.ledger.add(resource),
    onRemoved: (kind) => run.ledger.remove(kind),
    baselines: new SharedBaselines(),
    setups: new SharedSetups(),
    sink,
    deadlineMs: run.startedAt.getTime() + run.maxTimeMs,
    adaptations: fates.adaptations,
  };
}

function propertyOptions(run: OpenRun, profile: Profile): PropertyPhaseOptions {
  const { options, plan } = run;
  return {
    cases: plan.casesPerFamily,
    budget: options.budget,
    runSeed: options.seed,
    ...(options.path ? { path: options.path } : {}),
    ...(options.casePaths ? { casePaths: options.casePaths } : {}),
    send: run.send,
    profile,
    dates: runDates(options.seed),
    uniqueTag: run.unique.tag,
    uniqueEmail: () => run.unique.next().email,
    // A family's generated cases are its share of the budget: replayed alone, it gets that share (a
    // replay of one case, --path, sends that case alone whatever the budget, so it passes its own on).
    replayBase: `${options.replayBase} --budget ${options.path ? options.budget : plan.casesPerFamily}`,
    readOnly: options.readOnly,
  };
}

/**
 * The rate-limit phase: it starts after a window without calls (inside `pacer.exclusive`), and the
 * pacer counts its bursts for what follows. Against the embedded server the limiter restarts at
 * the profile's limit first, which stands in for the quiet window.
 */
function rateLimitPhase(run: OpenRun): Promise<CheckResult[]> {
  const { options, plan, transport, guard, pacer, quick } = run;
  const { profile } = options;
  const phase = () =>
    runRateLimitPhase({
      profile,
      call: (request, label) => transport.call(run.send, request, label),
      burst: (requests, amount, label, wholeBodies) => {
        guard.assertRunning(amount);
        return transport.burst(requests, amount, label, wholeBodies);
      },
      guardMs: pacer.spanMs - plan.pacedAt.windowMs,
      ...(quick ? { restartLimiter: () => restartTargetLimiter(quick, transport.monitor, profile.rate_limit.window) } : {}),
      replay: (id) => `${options.replayBase} --only ${id}`,
      selected: plan.rateLimit.selected,
    });
  if (!profile.rate_limit.bursts) return phase();
  return pacer.exclusive(async () => {
    if (quick) await restartTargetLimiter(quick, transport.monitor, profile.rate_limit.window);
    run.markRateLimitPhaseStarted();
    return phase();
  });
}

/** The embedded server's limiter restarted at the profile's rate limit (`windowMs`), and the monitor told so. */
async function restartTargetLimiter(quick: QuickPacing, monitor: RateMonitor, windowMs: number): Promise<void> {
  await quick.switchToProfileRateLimit();
  monitor.limiterRestarted(windowMs);
}
