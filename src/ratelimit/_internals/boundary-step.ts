import type { CheckResult } from '../../report/model.ts';
import { judgeBoundary, type BurstOutcome } from '../boundary.ts';
import { BOUNDARY_BURST_SERVED } from '../phase-figures.ts';
import { rateLimitOutcome } from '../rate-limit-checks.ts';
import { certainlyCounted } from '../window-count.ts';
import { pacedCalls } from './paced-calls.ts';
import { endOf, type PhaseState } from './phase-state.ts';

/**
 * Step 1, the boundary: the paced checks' calls open the window, up to limit - BOUNDARY_BURST_SERVED within an
 * eighth of it; then what is left of the limit (as far as they certainly count) + K calls at once.
 */
export async function boundaryStep(phase: PhaseState): Promise<{ burst: BurstOutcome; result: CheckResult; end: number }> {
  const { deps } = phase;
  const { limit, burst_extra: extra, window: windowMs } = deps.profile.rate_limit;
  const { traffic } = deps;
  const room = traffic && deps.interleaved ? Math.min(traffic.allowed, limit - BOUNDARY_BURST_SERVED) : 0;
  const paced = room > 0 ? await pacedCalls(phase.clock, traffic!, room, phase.clock.now() + windowMs / 8) : [];
  phase.keepServed(paced, 'paced');
  const burst = await deps.burst([phase.probe], limit - paced.filter(certainlyCounted).length + extra, 'boundary');
  phase.keepServed(burst.exchanges, 'boundary');
  const result = judgeBoundary(burst, deps.profile, rateLimitOutcome('rate-limit/boundary', deps), deps.restartLimiter ? 'on a fresh limiter' : undefined, paced);
  phase.lastEnd = burst.exchanges.length > 0 ? endOf(burst.exchanges) : phase.clock.now();
  return { burst, result, end: phase.lastEnd };
}
