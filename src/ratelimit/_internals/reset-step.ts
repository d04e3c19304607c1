import { sleepUntil } from '../../clock.ts';
import { formatDuration } from '../../duration.ts';
import type { Exchange } from '../../client/exchange.ts';
import { burstSpan, type BurstOutcome } from '../boundary.ts';
import type { CheckOutcome } from '../check-outcome.ts';
import { POLLS_PER_WINDOW } from '../phase-figures.ts';
import { outcomeOf } from '../window-count.ts';
import { endOf, type PhaseState } from './phase-state.ts';

/** The call the reset check found served again, and the earliest a window that opened with it can have begun. */
export interface Opened {
  readonly opener: Exchange;
  /** The last refused poll's sending, or the opener's: a clock-aligned window reset no sooner. */
  readonly windowFrom: number;
}

/**
 * Step 2, the reset: single calls every window/POLLS_PER_WINDOW until one is served again (the first call of a new
 * window); if none is within a window and a guard, a window with no calls and then one call.
 * Returns the call that was served again (it opens the sliding check's window), if any.
 */
export async function resetStep(phase: PhaseState, boundary: BurstOutcome, reset: CheckOutcome): Promise<Opened | undefined> {
  const { deps, probe } = phase;
  const windowMs = deps.profile.rate_limit.window;
  const step = Math.max(5, windowMs / POLLS_PER_WINDOW);
  const deadline = phase.lastEnd + windowMs + deps.guardMs + step;
  const polls: Exchange[] = [];
  let opener: Exchange | undefined;
  for (let next = phase.lastEnd; !opener && phase.clock.now() < deadline; ) {
    await sleepUntil(phase.clock, next);
    const poll = await deps.call(probe, 'poll');
    polls.push(poll);
    if (outcomeOf(poll) === 'served') opener = poll;
    next = poll.sentAtMs + step;
  }
  phase.keepServed(polls, 'poll');
  phase.lastEnd = polls.length > 0 ? endOf(polls) : phase.lastEnd;
  const refused = polls.filter((p) => outcomeOf(p) !== 'served');
  reset.keep([...refused.slice(0, 1), ...refused.slice(-1)]);
  if (!opener) {
    const after = await resetAfterQuietWindow(phase, polls.length, step, reset);
    return after ? { opener: after, windowFrom: after.sentAtMs } : undefined;
  }
  reset.keep([opener]);
  reset.note(`served again ${formatDuration(opener.sentAtMs - burstSpan(boundary).from)} after the burst began, after ${refused.length} refused polls (one every ${step} ms)`);
  return { opener, windowFrom: refused.at(-1)?.sentAtMs ?? opener.sentAtMs };
}

/** Some servers count refused calls too: a whole window without calls, then one call, which must be served. */
async function resetAfterQuietWindow(phase: PhaseState, polls: number, step: number, reset: CheckOutcome): Promise<Exchange | undefined> {
  const { deps } = phase;
  const windowMs = deps.profile.rate_limit.window;
  await sleepUntil(phase.clock, phase.lastEnd + windowMs + deps.guardMs);
  const after = await deps.call(phase.probe, 'reset');
  phase.lastEnd = endOf([after]);
  reset.keep([after]);
  if (outcomeOf(after) === 'served') {
    phase.keepServed([after], 'reset');
    reset.note(`not served while polled every ${step} ms (refused calls count toward the window); served after ${formatDuration(windowMs + deps.guardMs)} without calls`);
    return after;
  }
  if (outcomeOf(after) === 'limited') {
    // Only a 429 shows the limiter still refusing; a 5xx or another status shows no limiter decision.
    reset.fail('RATE-LIMIT-RESET', `a call served once ${formatDuration(windowMs + deps.guardMs)} passed without any call`, `status 429, ${polls} polls over the window before all refused`, [after]);
  }
  return undefined;
}

/** The last call the reset check kept (the one after the quiet window), if any. */
export function lastResetCall(outcome: CheckOutcome): Exchange | undefined {
  return outcome.kept().at(-1);
}

/** Why the reset check reached no verdict: the call after a quiet window was neither served nor limited. */
export function resetUnjudged(after: Exchange | undefined): string {
  const answer = !after ? 'was not sent' : after.response ? `answered ${after.response.status}` : `got no response (${after.error?.code ?? 'OTHER'})`;
  return `the call after a quiet window ${answer}, neither served (2xx) nor limited (429): the reset could not be judged`;
}
