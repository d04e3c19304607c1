import { SYSTEM_CLOCK, within } from '../clock.ts';
import type { CheckResult } from '../report/model.ts';
import { pageSizesAfterOpener } from './phase-figures.ts';
import type { RateLimitPhaseDeps } from './phase-deps.ts';
import { PHASE_CHECK_IDS, rateLimitOutcome, type PhaseCheckId } from './rate-limit-checks.ts';
import { boundaryStep } from './_internals/boundary-step.ts';
import { pageSizeStep } from './_internals/page-size-step.ts';
import { PhaseState } from './_internals/phase-state.ts';
import { preResetStep } from './_internals/pre-reset-step.ts';
import { lastResetCall, resetStep, resetUnjudged } from './_internals/reset-step.ts';
import { slidingStep } from './_internals/sliding-step.ts';

/**
 * The rate-limit phase (§8, §7). It starts with a window in which nothing counts: beside paced
 * checks (`interleaved`), once their calls filled a window, the gate closes and those calls leave it
 * (the embedded server's limiter is restarted instead); else the caller started it after such a window.
 *
 * 1. boundary: the paced checks' calls open the window (up to limit - BOUNDARY_BURST_SERVED, within an
 *    eighth of it), then a burst of what is left of the limit + K calls at once.
 * 2. reset: single calls every window/10 until one is served again (the first call of a new
 *    window: the opener); if none is within a window and a guard, a window with no calls and then one call.
 * 3. page sizes: a fifth of a window after the opener (the boundary's calls have left the window),
 *    each page size asked several times at once; then the paced checks' calls, until 0.8 of a
 *    window after the opener's window can have begun. They are the straddle's calls before the reset.
 *    Under a limit too small for the page sizes there (pageSizesAfterOpener), they come last, after
 *    a quiet window, and a few probe calls stand before the reset instead.
 * 4. sliding: a window after the opener, just after the reset a fixed window would make there, one
 *    call more at once than a sliding window leaves free (straddleAfterCalls); with the calls
 *    before it they straddle that reset.
 *
 * The paced checks wait at the gate from the boundary's burst to the opener and around the reset;
 * the gate is open again when the phase ends, whatever happened. Every burst is at most limit + K
 * calls. Returns the selected checks' results.
 */
export async function runRateLimitPhase(deps: RateLimitPhaseDeps): Promise<CheckResult[]> {
  const { profile } = deps;
  const wanted = PHASE_CHECK_IDS.filter((id) => deps.selected(id));
  if (wanted.length === 0) return [];
  if (!profile.rate_limit.bursts) {
    return wanted.map((id) => rateLimitOutcome(id, deps).skipped('the profile turns the rate-limit bursts off (rate_limit.bursts: false)'));
  }
  try {
    await emptyWindow(deps);
    return await phaseSteps(new PhaseState(deps), wanted);
  } finally {
    deps.traffic?.admit();
  }
}

async function phaseSteps(phase: PhaseState, wanted: readonly PhaseCheckId[]): Promise<CheckResult[]> {
  const { deps } = phase;
  const byId = new Map<PhaseCheckId, CheckResult>();
  const pageSizes = deps.selected('rate-limit/page-size-under-load');
  const pageSizesInside = pageSizes && pageSizesAfterOpener(deps.profile);
  if (wanted.some((id) => id !== 'rate-limit/page-size-under-load')) {
    const boundary = await boundaryStep(phase);
    byId.set('rate-limit/boundary', boundary.result);
    const usable = boundary.burst.exchanges.length > 0 && boundary.result.status !== 'errored';
    const reset = rateLimitOutcome('rate-limit/reset', deps);
    const opened = usable ? await resetStep(phase, boundary.burst, reset) : undefined;
    byId.set('rate-limit/reset', !usable ? reset.skipped('the boundary burst reached no verdict') : reset.failed || opened ? reset.result() : reset.errored(resetUnjudged(lastResetCall(reset))));
    const beforeReset = opened ? await preResetStep(phase, opened, pageSizesInside, boundary.end) : null;
    if (beforeReset?.pageSizes) byId.set('rate-limit/page-size-under-load', beforeReset.pageSizes);
    if (deps.selected('rate-limit/sliding')) byId.set('rate-limit/sliding', await slidingStep(phase, usable ? boundary.burst : null, opened, beforeReset?.calls ?? null));
  }
  if (pageSizes && !byId.has('rate-limit/page-size-under-load')) byId.set('rate-limit/page-size-under-load', await pageSizeStep(phase, byId.has('rate-limit/boundary')));
  return wanted.map((id) => byId.get(id)!);
}

/**
 * A window in which nothing counts, before the boundary. Beside paced checks, it waits (at most a
 * window) until their calls filled the pacer's window, so the wait for them to leave it is one the
 * pacer would have made anyway; then the gate closes, and the window empties, or the embedded
 * server's limiter restarts.
 */
async function emptyWindow(deps: RateLimitPhaseDeps): Promise<void> {
  const { traffic } = deps;
  if (!traffic) return;
  if (deps.interleaved) await within(deps.clock ?? SYSTEM_CLOCK, traffic.untilBlocked(), deps.profile.rate_limit.window);
  traffic.hold();
  if (deps.restartLimiter) {
    await traffic.untilIdle();
    await deps.restartLimiter();
  } else {
    await traffic.untilQuiet();
  }
}
