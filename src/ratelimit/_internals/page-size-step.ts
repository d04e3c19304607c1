import { sleepUntil } from '../../clock.ts';
import { retainExchange } from '../../client/retained.ts';
import type { CheckResult } from '../../report/model.ts';
import type { BurstOutcome } from '../boundary.ts';
import { judgePageSizesUnderLoad, PAGE_SIZES_UNDER_LOAD } from '../page-size-under-load.ts';
import { PAGE_SIZE_COPIES } from '../phase-figures.ts';
import { rateLimitOutcome } from '../rate-limit-checks.ts';
import { endOf, type PhaseState } from './phase-state.ts';

/**
 * The page sizes with no opener to follow (the window checks not selected, or no call served again
 * after the boundary): after a quiet window, or a restart of the embedded server's limiter, when
 * the window checks sent their bursts; at once otherwise (the phase starts after a quiet window).
 */
export async function pageSizeStep(phase: PhaseState, afterWindowChecks: boolean): Promise<CheckResult> {
  const { deps } = phase;
  if (afterWindowChecks) {
    if (deps.restartLimiter) await deps.restartLimiter();
    else await sleepUntil(phase.clock, phase.lastEnd + deps.profile.rate_limit.window + deps.guardMs);
  }
  return askPageSizes(phase, () => {});
}

/** Each page size asked several times at once, one size after another, judged; `onBurst` sees each size's copies. */
export async function askPageSizes(phase: PhaseState, onBurst: (burst: BurstOutcome) => void): Promise<CheckResult> {
  const { deps } = phase;
  const probePath = deps.profile.rate_limit.probe_path;
  const pageSizes = rateLimitOutcome('rate-limit/page-size-under-load', deps);
  const separator = probePath.includes('?') ? '&' : '?';
  const ask = async (size: number) => {
    const burst = await deps.burst([{ method: 'GET', path: `${probePath}${separator}page_size=${size}` }], PAGE_SIZE_COPIES, 'page-size', true);
    // Kept as a report keeps them: the phase holds the calls' timing, not their pages of up to 1 MiB.
    const kept = burst.exchanges.map(retainExchange);
    phase.keepServed(kept, 'page-size');
    phase.lastEnd = burst.exchanges.length > 0 ? endOf(burst.exchanges) : phase.lastEnd;
    onBurst({ ...burst, exchanges: kept });
    return burst.exchanges;
  };
  return judgePageSizesUnderLoad(PAGE_SIZES_UNDER_LOAD, ask, deps.profile, pageSizes);
}
