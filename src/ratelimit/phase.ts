import { SYSTEM_CLOCK, sleepUntil, within, type Clock } from '../clock.ts';
import { defaultGuardMs, pacedAllowed } from '../client/pacer.ts';
import { formatDuration } from '../duration.ts';
import type { CheckResult } from '../report/model.ts';
import type { RuleId } from '../contract/rules.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import type { LoadRequest } from '../load/autocannon-run.ts';
import { CheckOutcome } from './check-outcome.ts';
import { judgeBoundary, burstSpan, type BurstOutcome } from './boundary.ts';
import { judgeSliding, type Straddle } from './sliding.ts';
import { judgePageSizesUnderLoad, PAGE_SIZES_UNDER_LOAD } from './page-size-under-load.ts';
import { certainlyCounted, outcomeOf, timed, type TimedCall } from './window-count.ts';
import { retainExchange } from '../client/retained.ts';

/** The rules a rate-limit check names only when the profile asks for them: the rule, the profile key, and whether it is set. */
export const PROFILE_RULES_OF_CHECK: Readonly<Partial<Record<string, { readonly rule: RuleId; readonly key: string; readonly asserted: (profile: Profile) => boolean }>>> = {
  'rate-limit/boundary': { rule: 'RATE-LIMIT-BODY', key: 'rate_limit.body_text', asserted: (profile) => profile.rate_limit.body_text !== undefined },
};

/** The rate-limit checks, by ID, with the rules each one names. */
export const RATE_LIMIT_CHECKS = {
  'rate-limit/boundary': { title: 'A burst of limit + K calls after a quiet window: exactly limit served, the rest 429', rules: ['RATE-LIMIT-CAP', 'RATE-LIMIT-QUOTA', 'RATE-LIMIT-STATUS'] },
  'rate-limit/reset': { title: 'Once the window since the served calls has passed, calls are served again', rules: ['RATE-LIMIT-RESET'] },
  'rate-limit/sliding': { title: 'No window-length interval serves more than limit calls, across a fixed-window reset at the first call or at the clock', rules: ['RATE-LIMIT-SLIDING'] },
  'rate-limit/page-size-under-load': { title: 'page_size 100, 101, 1000, 0 and -1, each asked several times at once: never more than 100 items, the same answer for each copy', rules: ['PAG-PAGE-SIZE-MAX'] },
} as const satisfies Record<string, { title: string; rules: readonly RuleId[] }>;

export type RateLimitCheckId = keyof typeof RATE_LIMIT_CHECKS;

/**
 * Of the boundary's window, the calls its burst leaves to be served at least: the paced checks' calls
 * open the window, up to limit less these, and the burst (these and burst_extra) crosses the limit at
 * once, so the race and the off-by-one show in it as in a burst of limit + K.
 */
export const BOUNDARY_BURST_SERVED = 2;

/** Concurrent copies of each page size in the page-size check. */
const PAGE_SIZE_COPIES = 4;

/** The page-size check's calls: conformance calls (PAG-PAGE-SIZE-MAX), the only ones of the phase. */
export const PAGE_SIZE_CALLS = PAGE_SIZES_UNDER_LOAD.length * PAGE_SIZE_COPIES;

/**
 * The reset check polls this many times a window. The straddle needs the opener only to come after
 * the reset it follows (any poll step does); a finer step finds it sooner, at a poll a step.
 */
const POLLS_PER_WINDOW = 10;

/**
 * The straddle's calls before the reset, when the page sizes are not asked there: a few probe
 * calls, enough that a fixed window's full serving after its reset certainly exceeds the limit.
 */
const PRE_RESET_CALLS = 4;

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
function preResetDelayMs(windowMs: number): number {
  return windowMs / 5;
}

/**
 * Until when, after the earliest a fixed window holding the opener began (Opened.windowFrom), the
 * paced checks' calls may go before the reset: 0.8 of a window, so they are answered well before the
 * earliest reset a window later.
 */
const BEFORE_RESET_UNTIL = 0.8;

/**
 * The paced checks' traffic as the phase steers it (the run's Pacer, and its transport's view of the
 * checks' calls): the phase runs beside the paced checks, and their calls fill the windows the
 * contract needs (docs/rate-limit-and-load.md, "The phase rides on the checks' calls").
 */
export interface PacedTraffic {
  /** Closes the gate: no paced call is let go until `admit`. */
  hold(): void;
  /** Lets `count` more paced calls go (then the gate closes by itself), or all from now on. */
  admit(count?: number): void;
  /** Resolves once the gate is closed and no paced call is in flight. */
  untilIdle(): Promise<void>;
  /** Resolves once no call counts any more (a window and the guard since the last answer). */
  untilQuiet(): Promise<void>;
  /** Resolves when a paced call finds the window full (the window's calls are all out). */
  untilBlocked(): Promise<void>;
  /** Starts keeping the paced checks' exchanges; `stop` ends it and returns them. */
  watch(): { stop(): readonly Exchange[] };
  /** Paced calls the pacer lets count at once (limit less its reserve). */
  readonly allowed: number;
}

/** What the phase needs from the run. */
export interface RateLimitPhaseDeps {
  readonly profile: Profile;
  /** One call through the harness's client, kept under `segment` (not paced inside the phase). */
  readonly call: (request: TargetRequest, segment: string) => Promise<Exchange>;
  /**
   * `amount` calls at once over the profile's connections (autocannon), kept under `segment`;
   * `wholeBodies` keeps each body up to the client's 1 MiB (a page of 100 records), else BURST_BODY_BYTES.
   */
  readonly burst: (requests: readonly LoadRequest[], amount: number, segment: string, wholeBodies?: boolean) => Promise<BurstOutcome>;
  /** The pacer's margin on top of the window, ms: a "quiet window" is window + guard without calls. */
  readonly guardMs: number;
  /**
   * Instead of a quiet window before the page sizes, a fresh limiter: the embedded server's limiter
   * is restarted (CertifyOptions.quickPacing), which empties its window at once. Absent: a target's
   * window is waited out.
   */
  readonly restartLimiter?: () => Promise<void>;
  readonly replay: (checkId: string) => string;
  /** Which checks to run (by ID or rule, as --only selects). */
  readonly selected: (checkId: RateLimitCheckId) => boolean;
  /**
   * The paced checks' traffic. With `interleaved`, paced checks run beside the phase: their calls
   * open the boundary's window and fill the straddle's. Absent: the caller started the phase after
   * a quiet window and no paced call goes while it runs (a test's fake target).
   */
  readonly traffic?: PacedTraffic;
  readonly interleaved?: boolean;
  /** The time the phase waits on (default SYSTEM_CLOCK; the exchanges' `sentAtMs` must be on it too). */
  readonly clock?: Clock;
}

const PHASE_CHECKS = Object.keys(RATE_LIMIT_CHECKS) as RateLimitCheckId[];

function outcome(id: RateLimitCheckId, deps: RateLimitPhaseDeps): CheckOutcome {
  const { title, rules } = RATE_LIMIT_CHECKS[id];
  const conditional = PROFILE_RULES_OF_CHECK[id];
  const named: RuleId[] = conditional?.asserted(deps.profile) ? [...rules, conditional.rule] : [...rules];
  return new CheckOutcome(id, title, named, deps.replay(id));
}

/** The last call the reset check kept (the one after the quiet window), if any. */
function lastResetCall(outcome: CheckOutcome): Exchange | undefined {
  return outcome.kept().at(-1);
}

/** Why the reset check reached no verdict: the call after a quiet window was neither served nor limited. */
function resetUnjudged(after: Exchange | undefined): string {
  const answer = !after ? 'was not sent' : after.response ? `answered ${after.response.status}` : `got no response (${after.error?.code ?? 'OTHER'})`;
  return `the call after a quiet window ${answer}, neither served (2xx) nor limited (429): the reset could not be judged`;
}

function endOf(exchanges: readonly Exchange[]): number {
  return Math.max(...exchanges.map((e) => e.sentAtMs + e.durationMs));
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

/** What a burst adds to the phase's time beyond its windows (its calls and answers; autocannon's start and end), ms: an allowance, so a budget that admits the phase keeps its promise. */
const BURST_ALLOWANCE_MS = 250;

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

/**
 * The ETA of a run with this phase: until it starts, the paced requests it does not carry, as the
 * pacer estimates them, and its span; once it started, what is left of its span and those paced
 * requests still to come (`remaining` counts down as calls go).
 */
export function estimateWithPhase(
  pacedMs: (requests: number) => number,
  plan: { readonly requests: number; readonly carried: number; readonly spanMs: number },
  phaseStartedAt: () => number | null,
): (remaining: number) => number {
  return (remaining) => {
    const startedAt = phaseStartedAt();
    const paced = pacedMs(Math.max(0, remaining - plan.requests - plan.carried));
    return paced + (startedAt === null ? plan.spanMs : Math.max(0, startedAt + plan.spanMs - SYSTEM_CLOCK.now()));
  };
}

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
  const wanted = PHASE_CHECKS.filter((id) => deps.selected(id));
  if (wanted.length === 0) return [];
  if (!profile.rate_limit.bursts) {
    return wanted.map((id) => outcome(id, deps).skipped('the profile turns the rate-limit bursts off (rate_limit.bursts: false)'));
  }
  try {
    await emptyWindow(deps);
    return await phaseSteps(new PhaseState(deps), wanted);
  } finally {
    deps.traffic?.admit();
  }
}

async function phaseSteps(phase: PhaseState, wanted: readonly RateLimitCheckId[]): Promise<CheckResult[]> {
  const { deps } = phase;
  const byId = new Map<RateLimitCheckId, CheckResult>();
  const pageSizes = deps.selected('rate-limit/page-size-under-load');
  const pageSizesInside = pageSizes && pageSizesAfterOpener(deps.profile);
  if (wanted.some((id) => id !== 'rate-limit/page-size-under-load')) {
    const boundary = await boundaryStep(phase);
    byId.set('rate-limit/boundary', boundary.result);
    const usable = boundary.burst.exchanges.length > 0 && boundary.result.status !== 'errored';
    const reset = outcome('rate-limit/reset', deps);
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

/**
 * Lets paced checks' calls go (`count` at most) until `until` (or, with a count, until they are all
 * answered); then the gate closes and the calls in flight are answered. Returns the paced calls made.
 */
async function pacedCalls(clock: Clock, traffic: PacedTraffic, count: number, until: number): Promise<readonly Exchange[]> {
  const watch = traffic.watch();
  traffic.admit(count);
  if (count === Infinity) await sleepUntil(clock, until);
  else await within(clock, traffic.untilIdle(), until - clock.now());
  traffic.hold();
  await traffic.untilIdle();
  return watch.stop();
}

/** What the steps of the phase share: the probe, the calls served so far with their timing, when the last call ended. */
class PhaseState {
  readonly probe: LoadRequest;
  readonly served: TimedCall[] = [];
  readonly clock: Clock;
  lastEnd: number;

  constructor(readonly deps: RateLimitPhaseDeps) {
    this.probe = { method: 'GET', path: deps.profile.rate_limit.probe_path };
    this.clock = deps.clock ?? SYSTEM_CLOCK;
    this.lastEnd = this.clock.now();
  }

  /** Keeps the calls among `exchanges` that certainly count (served, or answered 4xx), with their timing, under `segment`. */
  keepServed(exchanges: readonly Exchange[], segment: string): void {
    for (const e of exchanges) if (certainlyCounted(e)) this.served.push(timed(e, segment));
  }
}

/** The call the reset check found served again, and the earliest a window that opened with it can have begun. */
interface Opened {
  readonly opener: Exchange;
  /** The last refused poll's sending, or the opener's: a clock-aligned window reset no sooner. */
  readonly windowFrom: number;
}

/**
 * 1. boundary: the paced checks' calls open the window, up to limit - BOUNDARY_BURST_SERVED within an
 * eighth of it; then what is left of the limit (as far as they certainly count) + K calls at once.
 */
async function boundaryStep(phase: PhaseState): Promise<{ burst: BurstOutcome; result: CheckResult; end: number }> {
  const { deps } = phase;
  const { limit, burst_extra: extra, window: windowMs } = deps.profile.rate_limit;
  const { traffic } = deps;
  const room = traffic && deps.interleaved ? Math.min(traffic.allowed, limit - BOUNDARY_BURST_SERVED) : 0;
  const paced = room > 0 ? await pacedCalls(phase.clock, traffic!, room, phase.clock.now() + windowMs / 8) : [];
  phase.keepServed(paced, 'paced');
  const burst = await deps.burst([phase.probe], limit - paced.filter(certainlyCounted).length + extra, 'boundary');
  phase.keepServed(burst.exchanges, 'boundary');
  const result = judgeBoundary(burst, deps.profile, outcome('rate-limit/boundary', deps), deps.restartLimiter ? 'on a fresh limiter' : undefined, paced);
  phase.lastEnd = burst.exchanges.length > 0 ? endOf(burst.exchanges) : phase.clock.now();
  return { burst, result, end: phase.lastEnd };
}

/**
 * 2. reset: single calls every window/40 until one is served again (the first call of a new
 * window); if none is within a window and a guard, a window with no calls and then one call.
 * Returns the call that was served again (it opens the sliding check's window), if any.
 */
async function resetStep(phase: PhaseState, boundary: BurstOutcome, reset: CheckOutcome): Promise<Opened | undefined> {
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

/**
 * 3. The calls before the reset, a fifth of a window after the opener and once the boundary's calls
 * left the window: the page sizes when they are asked (judged here), else PRE_RESET_CALLS probe
 * calls when the straddle needs them; then, for the straddle, the paced checks' calls.
 */
async function preResetStep(phase: PhaseState, opened: Opened, pageSizes: boolean, boundaryEnd: number): Promise<{ calls: BurstOutcome | null; pageSizes: CheckResult | null }> {
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

/** 4. sliding: a window after the opener, just after the reset a fixed window would make there, one call more than a sliding window leaves free. */
async function slidingStep(phase: PhaseState, boundary: BurstOutcome | null, opened: Opened | undefined, before: BurstOutcome | null): Promise<CheckResult> {
  const { deps, probe } = phase;
  const { limit, window: windowMs } = deps.profile.rate_limit;
  const sliding = outcome('rate-limit/sliding', deps);
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

/**
 * The page sizes with no opener to follow (the window checks not selected, or no call served again
 * after the boundary): after a quiet window, or a restart of the embedded server's limiter, when
 * the window checks sent their bursts; at once otherwise (the phase starts after a quiet window).
 */
async function pageSizeStep(phase: PhaseState, afterWindowChecks: boolean): Promise<CheckResult> {
  const { deps } = phase;
  if (afterWindowChecks) {
    if (deps.restartLimiter) await deps.restartLimiter();
    else await sleepUntil(phase.clock, phase.lastEnd + deps.profile.rate_limit.window + deps.guardMs);
  }
  return askPageSizes(phase, () => {});
}

/** Each page size asked several times at once, one size after another, judged; `onBurst` sees each size's copies. */
async function askPageSizes(phase: PhaseState, onBurst: (burst: BurstOutcome) => void): Promise<CheckResult> {
  const { deps } = phase;
  const probePath = deps.profile.rate_limit.probe_path;
  const pageSizes = outcome('rate-limit/page-size-under-load', deps);
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
