import { sleepUntil } from '../../clock.ts';
import type { Exchange } from '../../client/exchange.ts';
import type { CheckResult } from '../../report/model.ts';
import type { BurstOutcome } from '../boundary.ts';
import { BEFORE_RESET_UNTIL, PRE_RESET_CALLS, preResetDelayMs } from '../phase-figures.ts';
import { pacedCalls } from './paced-calls.ts';
import { askPageSizes } from './page-size-step.ts';
import { endOf, type PhaseState } from './phase-state.ts';
import type { Opened } from './reset-step.ts';

/**
 * Step 3, the calls before the reset: a fifth of a window after the opener and once the boundary's calls
 * left the window: the page sizes when they are asked (judged here), else PRE_RESET_CALLS probe
 * calls when the straddle needs them; then, for the straddle, the paced checks' calls.
 */
export async function preResetStep(phase: PhaseState, opened: Opened, pageSizes: boolean, boundaryEnd: number): Promise<{ calls: BurstOutcome | null; pageSizes: CheckResult | null }> {
  const { deps } = phase;
  const windowMs = deps.profile.rate_limit.window;
  const straddle = deps.selected('rate-limit/sliding');
  if (!pageSizes && !straddle) return { calls: null, pageSizes: null };
  await sleepUntil(phase.clock, Math.max(opened.opener.sentAtMs + opened.opener.durationMs + preResetDelayMs(windowMs), boundaryEnd + windowMs + deps.guardMs));
  let calls: BurstOutcome = { exchanges: [], unanswered: 0 };
  let result: CheckResult | null = null;
  if (!pageSizes) {
    calls = await deps.burst([phase.probe], PRE_RESET_CALLS, 'straddle-before');
    phase.keepServed(calls.exchanges, 'straddle-before');
    phase.lastEnd = calls.exchanges.length > 0 ? endOf(calls.exchanges) : phase.lastEnd;
  } else {
    const asked: Exchange[] = [];
    let unanswered = 0;
    result = await askPageSizes(phase, (burst) => {
      asked.push(...burst.exchanges);
      unanswered += burst.unanswered;
    });
    calls = { exchanges: asked, unanswered };
  }
  if (straddle && deps.traffic && deps.interleaved) {
    const paced = await pacedCalls(phase.clock, deps.traffic, Infinity, opened.windowFrom + BEFORE_RESET_UNTIL * windowMs);
    phase.keepServed(paced, 'paced');
    if (paced.length > 0) phase.lastEnd = Math.max(phase.lastEnd, endOf(paced));
    calls = { ...calls, exchanges: [...calls.exchanges, ...paced] };
  }
  return { calls, pageSizes: result };
}
