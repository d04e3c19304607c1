import { sleepUntil } from '../../clock.ts';
import type { CheckResult } from '../../report/model.ts';
import type { BurstOutcome } from '../boundary.ts';
import { straddleAfterCalls } from '../phase-figures.ts';
import { rateLimitOutcome } from '../rate-limit-checks.ts';
import { judgeSliding, type Straddle } from '../sliding.ts';
import { certainlyCounted } from '../window-count.ts';
import { endOf, type PhaseState } from './phase-state.ts';
import type { Opened } from './reset-step.ts';

/** Step 4, the sliding window: a window after the opener, just after the reset a fixed window would make there, one call more than a sliding window leaves free. */
export async function slidingStep(phase: PhaseState, boundary: BurstOutcome | null, opened: Opened | undefined, before: BurstOutcome | null): Promise<CheckResult> {
  const { deps, probe } = phase;
  const { limit, window: windowMs } = deps.profile.rate_limit;
  const sliding = rateLimitOutcome('rate-limit/sliding', deps);
  if (!boundary) return sliding.skipped('the boundary burst reached no verdict');
  if (!opened || !before) return judgeSliding(phase.served, null, limit, windowMs, sliding);
  const { opener } = opened;
  const afterAt = opener.sentAtMs + opener.durationMs + windowMs + windowMs / 50;
  await sleepUntil(phase.clock, afterAt);
  const servedBefore = before.exchanges.filter(certainlyCounted).length;
  const after = await deps.burst([probe], straddleAfterCalls(limit, servedBefore), 'straddle-after');
  phase.keepServed(after.exchanges, 'straddle-after');
  phase.lastEnd = endOf([...after.exchanges, opener]);
  const straddle: Straddle = { opener, windowFrom: opened.windowFrom, before, after };
  return judgeSliding(phase.served, straddle, limit, windowMs, sliding);
}
