import type { Profile } from '../profile/profile.ts';
import { PAGE_SIZES_UNDER_LOAD } from './page-size-under-load.ts';

// The rate-limit phase's figures: how many calls each of its steps makes and when they go. Its plan
// (planned-phase.ts) counts with them and its steps (_internals/*-step.ts) send by them, so the
// plan's promise and the phase's calls cannot drift apart.

/**
 * Of the boundary's window, the calls its burst leaves to be served at least: the paced checks' calls
 * open the window, up to limit less these, and the burst (these and burst_extra) crosses the limit at
 * once, so the race and the off-by-one show in it as in a burst of limit + K.
 */
export const BOUNDARY_BURST_SERVED = 2;

/** What a burst adds to the run's time beyond its windows (its calls and answers; autocannon's start and end), ms: an allowance, so a budget that admits a burst keeps its promise. */
export const BURST_ALLOWANCE_MS = 250;

/** Concurrent copies of each page size in the page-size check. */
export const PAGE_SIZE_COPIES = 4;

/** The page-size check's calls: conformance calls (PAG-PAGE-SIZE-MAX), the only ones of the phase. */
export const PAGE_SIZE_CALLS = PAGE_SIZES_UNDER_LOAD.length * PAGE_SIZE_COPIES;

/**
 * The reset check polls this many times a window. The straddle needs the opener only to come after
 * the reset it follows (any poll step does); a finer step finds it sooner, at a poll a step.
 */
export const POLLS_PER_WINDOW = 10;

/**
 * The straddle's calls before the reset, when the page sizes are not asked there: a few probe
 * calls, enough that a fixed window's full serving after its reset certainly exceeds the limit.
 */
export const PRE_RESET_CALLS = 4;

/**
 * Until when, after the earliest a fixed window holding the opener began (Opened.windowFrom), the
 * paced checks' calls may go before the reset: 0.8 of a window, so they are answered well before the
 * earliest reset a window later.
 */
export const BEFORE_RESET_UNTIL = 0.8;

/**
 * Whether the page sizes can go right after the reset check's opener: their calls, the opener and a
 * window of polls (a limiter that counts refused calls still holds them) must fit under the limit.
 * Below that (a limit of 31 or less), they wait a quiet window of their own at the end.
 */
export function pageSizesAfterOpener(profile: Profile): boolean {
  return PAGE_SIZE_CALLS + POLLS_PER_WINDOW + 1 < profile.rate_limit.limit;
}

/**
 * How long after the opener the calls before the reset go at the soonest (the page sizes, or
 * PRE_RESET_CALLS, then the paced checks' calls): a fifth of the window, and not before the
 * boundary's calls left a sliding window (they went out within an eighth of it). The calls sit well
 * before the reset a window after the opener; and the burst after that reset has the rest of the
 * fifth, less a fiftieth, to be answered in, for the straddle to fit in one window.
 */
export function preResetDelayMs(windowMs: number): number {
  return windowMs / 5;
}

/**
 * The burst after the reset: one call more than a sliding window leaves free after `servedBefore`
 * calls before it that certainly count (limit - servedBefore + 1, at most limit; certainlyCounted: a
 * 4xx answer counts too, §8's "all requests"). A sliding window serves all but one; a fixed window,
 * fresh after its reset, serves all, and with the calls before that is limit + 1 counted within one
 * window: the excess the verdict needs, with no call more. With no call counted before, nothing can
 * be straddled, and the burst is `limit` calls (the busiest span still counts).
 */
export function straddleAfterCalls(limit: number, servedBefore: number): number {
  return servedBefore <= 0 ? limit : Math.max(1, Math.min(limit, limit - servedBefore + 1));
}
