import { defaultGuardMs, pacedAllowed } from '../client/pacer.ts';
import type { Profile } from '../profile/profile.ts';
import { PAGE_SIZES_UNDER_LOAD } from './page-size-under-load.ts';
import type { RateLimitCheckId } from './rate-limit-checks.ts';
import { BOUNDARY_BURST_SERVED, BURST_ALLOWANCE_MS, PAGE_SIZE_CALLS, POLLS_PER_WINDOW, PRE_RESET_CALLS, pageSizesAfterOpener, preResetDelayMs, straddleAfterCalls } from './phase-figures.ts';


/** What the phase plans for: its own requests, the time it adds, and the paced checks' requests it carries in its windows. */
export interface PlannedPhase {
  /** The phase's own calls (bursts, polls, page sizes). */
  readonly requests: number;
  /** The time it adds to the run beyond the paced requests it carries, ms (what a budget counts). */
  readonly ms: number;
  /** The paced checks' requests that go inside its windows (0 when it runs alone). */
  readonly carried: number;
  /** From its boundary to when the paced checks go on at their pace, ms (for the ETA). */
  readonly spanMs: number;
}

/**
 * The requests and time the phase plans for, for the progress ETA and a budget. Alone (`pacedAfter`
 * 0: no paced checks after it), its time is its windows (the quiet one after the paced calls, the
 * reset's, the straddle's; page sizes asked alone wait a quiet window of their own), each a window
 * and the pacer's guard, and an allowance per burst. Beside `pacedAfter` paced requests, the quiet
 * window is the pacer's own wait after a full window, and those requests fill the boundary's window
 * (up to limit - BOUNDARY_BURST_SERVED) and the straddle's (what the pacer leaves beside the polls
 * and the page sizes), once a window of them filled the pacer's.
 */
export function plannedRateLimitPhase(profile: Profile, selected: (id: RateLimitCheckId) => boolean, pacedAfter = 0): PlannedPhase {
  const { limit, burst_extra: extra, window: windowMs, bursts } = profile.rate_limit;
  if (!bursts) return { requests: 0, ms: 0, carried: 0, spanMs: 0 };
  const windowChecks = selected('rate-limit/boundary') || selected('rate-limit/reset') || selected('rate-limit/sliding');
  const straddle = selected('rate-limit/sliding');
  const pageSizes = selected('rate-limit/page-size-under-load');
  // The page sizes go after the reset check's opener (inside the straddle's window) when they fit; else, or without the window checks, after a quiet window.
  const inside = pageSizes && windowChecks && pageSizesAfterOpener(profile);
  const guard = defaultGuardMs(windowMs);
  const allowed = pacedAllowed(limit);
  const free = Math.max(0, pacedAfter - allowed);
  const boundaryCarried = windowChecks ? Math.min(free, allowed, limit - BOUNDARY_BURST_SERVED) : 0;
  // The pacer still counts the polls of the last window, the opener and the calls before the reset.
  const straddleRoom = Math.max(0, allowed - (POLLS_PER_WINDOW - 2) - 1 - (inside ? PAGE_SIZE_CALLS : PRE_RESET_CALLS));
  const straddleCarried = straddle ? Math.min(free - boundaryCarried, straddleRoom) : 0;
  const before = (inside ? PAGE_SIZE_CALLS : PRE_RESET_CALLS) + straddleCarried;
  const requests =
    (windowChecks ? limit - boundaryCarried + extra + POLLS_PER_WINDOW + 1 : 0) + (straddle ? straddleAfterCalls(limit, before) + (inside ? 0 : PRE_RESET_CALLS) : 0) + (pageSizes ? PAGE_SIZE_CALLS : 0);
  const burstCount = (windowChecks ? 1 : 0) + (straddle ? (inside ? 1 : 2) : 0) + (pageSizes ? PAGE_SIZES_UNDER_LOAD.length : 0);
  const allowances = burstCount * BURST_ALLOWANCE_MS;
  if (pacedAfter === 0) {
    const windows = (windowChecks ? 2 : 0) + (straddle ? 1 : 0) + (pageSizes && !inside ? 1 : 0);
    const tail = inside && !straddle ? preResetDelayMs(windowMs) : 0;
    const ms = windows * (windowMs + guard) + tail + allowances;
    return { requests, ms, carried: 0, spanMs: ms };
  }
  // Beside paced checks: the boundary's burst to the opener; the opener to the paced checks' going on (the calls before the reset leave the pacer's window a window after them).
  const afterOpener = straddle ? preResetDelayMs(windowMs) + windowMs + guard : inside ? preResetDelayMs(windowMs) : 0;
  const spanMs = (windowChecks ? windowMs + guard + afterOpener : 0) + (pageSizes && !inside ? windowMs + guard : 0) + allowances;
  const carried = boundaryCarried + straddleCarried;
  return { requests, ms: Math.max(0, spanMs - (carried * (windowMs + guard)) / allowed), carried, spanMs };
}
