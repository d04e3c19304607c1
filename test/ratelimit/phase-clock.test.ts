import { describe, expect, it } from 'vitest';
import { runRateLimitPhase } from '../../src/ratelimit/phase.ts';
import type { RateLimitCheckId } from '../../src/ratelimit/rate-limit-checks.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import { defaultGuardMs } from '../../src/client/pacer.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import { FixedWindowLimiter, RacyWindowLimiter, SlidingWindowLimiter, type RateLimiter } from '../../src/reference/rate-limiter.ts';
import type { CheckResult } from '../../src/report/model.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { call } from './synthetic.ts';

/**
 * The rate-limit phase's logic on a controlled clock: the reference server's own limiters (the clean
 * sliding window and the faulty kinds its faults switch on) count each call at the clock's time, so
 * every verdict and every wait is exact, and a window of one second costs no real time. The same
 * servers over HTTPS, with real bursts and real time, are test/ratelimit/phase.test.ts's.
 */

/** A call's round trip in the fake target, ms: it arrives halfway. */
const LATENCY_MS = 6;
/** A burst's calls leave together and arrive this far apart, ms (autocannon's connections in turn). */
const BURST_SPACING_MS = 0.25;

/** The checks judged here: the page sizes under load need pages of records, which the HTTP test serves. */
const WINDOW_CHECKS: readonly RateLimitCheckId[] = ['rate-limit/boundary', 'rate-limit/reset', 'rate-limit/sliding'];

function profileAt(limit: number, windowMs: number): Profile {
  const base = defaultProfile();
  return { ...base, rate_limit: { ...base.rate_limit, limit, window: windowMs, bursts: true } };
}

/**
 * A target whose every call `limiter` decides at its arrival on `clock`; each answer comes LATENCY_MS
 * after it was sent. With `lateBefore`, the last that many calls before the reset arrive just after the
 * earliest reset a fixed window of `windowMs` can make (a busy machine answers them late).
 */
function fakeTarget(clock: FakeClock, limiter: RateLimiter, windowMs: number, lateBefore = 0) {
  const arrivals: Array<{ at: number; allowed: boolean; segment: string }> = [];
  const decide = (at: number, segment: string): number => {
    const { allowed } = limiter.attempt('token', at);
    arrivals.push({ at, allowed, segment });
    return allowed ? 200 : 429;
  };
  return {
    arrivals,
    call: async (_request: unknown, segment: string): Promise<Exchange> => {
      const sent = clock.now();
      await clock.sleep(LATENCY_MS / 2);
      const status = decide(clock.now(), segment);
      await clock.sleep(LATENCY_MS / 2);
      return call(sent, status, { durationMs: LATENCY_MS });
    },
    burst: async (_requests: unknown, amount: number, segment: string) => {
      const sent = clock.now();
      const late = segment === 'straddle-before' ? Math.min(amount - 1, lateBefore) : 0;
      if (late > 0) {
        // The opener's arrival began any fixed window holding it: these arrive 5 ms after that window's end, and are answered 3 ms later.
        const openerAt = arrivals.find((a) => a.segment === 'poll' && a.allowed)!.at;
        const lateAt = Math.max(sent + LATENCY_MS, openerAt + windowMs + 5);
        const inTime = Array.from({ length: amount - late }, () => call(sent, decide(sent + LATENCY_MS / 2, segment), { durationMs: LATENCY_MS }));
        const lateStatuses = Array.from({ length: late }, () => decide(lateAt, segment));
        await clock.sleep(lateAt + LATENCY_MS / 2 - sent);
        return { exchanges: [...inTime, ...lateStatuses.map((status) => call(sent, status, { durationMs: lateAt + LATENCY_MS / 2 - sent }))], unanswered: 0 };
      }
      await clock.sleep(LATENCY_MS / 2);
      const statuses = Array.from({ length: amount }, (_, i) => decide(clock.now() + i * BURST_SPACING_MS, segment));
      await clock.sleep(LATENCY_MS / 2 + amount * BURST_SPACING_MS);
      return { exchanges: statuses.map((status, i) => call(sent, status, { durationMs: LATENCY_MS + i * BURST_SPACING_MS })), unanswered: 0 };
    },
  };
}

interface PhaseRun {
  readonly results: readonly CheckResult[];
  readonly arrivals: ReturnType<typeof fakeTarget>['arrivals'];
  /** The phase's length on the clock, ms. */
  readonly tookMs: number;
}

async function phaseAgainst(limiter: RateLimiter, limit = 40, windowMs = 1000, lateBefore = 0): Promise<PhaseRun> {
  const clock = new FakeClock(1_800_000_000_000);
  const target = fakeTarget(clock, limiter, windowMs, lateBefore);
  const started = clock.now();
  const results = await clock.run(
    runRateLimitPhase({
      profile: profileAt(limit, windowMs),
      call: (request, segment) => target.call(request, segment),
      burst: (requests, amount, segment) => target.burst(requests, amount, segment),
      guardMs: defaultGuardMs(windowMs),
      replay: (id) => `clockcheck run --only ${id}`,
      selected: (id) => WINDOW_CHECKS.includes(id),
      clock,
    }),
  );
  return { results, arrivals: target.arrivals, tookMs: clock.now() - started };
}

const verdicts = (run: PhaseRun) => Object.fromEntries(run.results.map((r) => [r.id, r.status]));
const failedRules = (run: PhaseRun) => [...new Set(run.results.flatMap((r) => r.findings.map((f) => f.ruleId)))].sort();

/** The most calls a limiter let through in any window-long span (the cap §8 sets). */
function mostServedInAWindow(run: PhaseRun, windowMs: number): number {
  const served = run.arrivals.filter((a) => a.allowed).map((a) => a.at);
  let most = 0;
  for (let i = 0, j = 0; i < served.length; i++) {
    while (j < served.length && (served[j] as number) < (served[i] as number) + windowMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

describe('the rate-limit phase on a controlled clock', () => {
  it.each([
    [40, 1000],
    [20, 1000],
    [60, 60_000],
  ])('passes the sliding window at %i per %i ms: boundary, reset and sliding, within the limit in every window, in a few windows', async (limit, windowMs) => {
    const run = await phaseAgainst(new SlidingWindowLimiter(limit, windowMs), limit, windowMs);
    expect(verdicts(run)).toEqual({ 'rate-limit/boundary': 'passed', 'rate-limit/reset': 'passed', 'rate-limit/sliding': 'passed' });
    expect(mostServedInAWindow(run, windowMs)).toBe(limit);
    // The boundary's burst is the limit and K more: exactly K refused.
    expect(run.arrivals.filter((a) => a.segment === 'boundary' && !a.allowed)).toHaveLength(defaultProfile().rate_limit.burst_extra);
    expect(run.tookMs).toBeGreaterThan(2 * windowMs);
    expect(run.tookMs).toBeLessThan(4 * windowMs);
  });

  it('finds the reset at the first poll after the burst\'s window, one poll step (a tenth of the window) late at most', async () => {
    const run = await phaseAgainst(new SlidingWindowLimiter(40, 1000));
    const reset = run.results.find((r) => r.id === 'rate-limit/reset')!;
    const boundaryFirst = run.arrivals.find((a) => a.segment === 'boundary')!.at;
    const opener = run.arrivals.find((a) => a.segment === 'poll' && a.allowed)!;
    expect(opener.at - boundaryFirst).toBeGreaterThan(1000);
    expect(opener.at - boundaryFirst).toBeLessThanOrEqual(1000 + 100 + LATENCY_MS);
    expect(reset.notes).toContain('served again 1.0 s after the burst began, after 10 refused polls (one every 100 ms)');
  });

  describe('calls before the reset that arrive after the earliest reset (answered late on a busy machine)', () => {
    it('still fails a fixed window that counts them in its new window: the burst after the reset fits beside them and is served whole', async () => {
      const run = await phaseAgainst(new FixedWindowLimiter(40, 1000), 40, 1000, 3);
      expect(run.arrivals.filter((a) => a.segment === 'straddle-before')).toHaveLength(4);
      expect(verdicts(run)['rate-limit/sliding']).toBe('failed');
      expect(run.results.find((r) => r.id === 'rate-limit/sliding')!.findings[0]!.actual).toMatch(/^41 calls served within .* \(straddle-before: 4, straddle-after: 37\)$/);
    });

    it('passes a sliding window, noting how many were answered after the earliest reset', async () => {
      const run = await phaseAgainst(new SlidingWindowLimiter(40, 1000), 40, 1000, 3);
      const sliding = run.results.find((r) => r.id === 'rate-limit/sliding')!;
      expect(sliding.status).toBe('passed');
      expect(sliding.notes?.[0]).toMatch(/^before the reset: 4 calls \(4 counted, 3 of them answered after the earliest reset\)/);
    });
  });

  it('passes a limiter that counts refused attempts too (another valid reading of §8)', async () => {
    for (const limit of [40, 20]) {
      const run = await phaseAgainst(new SlidingWindowLimiter(limit, 1000, true, 'attempts'), limit);
      expect(failedRules(run)).toEqual([]);
      expect(verdicts(run)['rate-limit/reset']).toBe('passed');
    }
  });

  it.each([
    ['a fixed window from the first call (rate-limit-fixed-window)', () => new FixedWindowLimiter(40, 1000), ['RATE-LIMIT-SLIDING'], { 'rate-limit/boundary': 'passed', 'rate-limit/reset': 'passed', 'rate-limit/sliding': 'failed' }],
    ['a window aligned to the clock (rate-limit-clock-window)', () => new FixedWindowLimiter(40, 1000, 'clock'), ['RATE-LIMIT-SLIDING'], null],
    // RATE-LIMIT-QUOTA too, from the page sizes under load (test/ratelimit/phase.test.ts); nothing served again, so no window to straddle.
    ['a block that never expires (rate-limit-never-resets)', () => new SlidingWindowLimiter(40, 1000, false), ['RATE-LIMIT-RESET'], { 'rate-limit/boundary': 'passed', 'rate-limit/reset': 'failed', 'rate-limit/sliding': 'errored' }],
    ['a racy count (rate-limit-race)', () => new RacyWindowLimiter(40, 1000), ['RATE-LIMIT-CAP'], null],
    ['one call too many (rate-limit-one-extra)', () => new SlidingWindowLimiter(41, 1000), ['RATE-LIMIT-CAP'], null],
    ['one call too few (rate-limit-too-strict)', () => new SlidingWindowLimiter(39, 1000), ['RATE-LIMIT-QUOTA'], null],
  ] as const)('catches %s under its rules', async (_, limiter, rules, expected) => {
    const run = await phaseAgainst(limiter());
    expect(failedRules(run)).toEqual(expect.arrayContaining([...rules]));
    if (expected) expect(verdicts(run)).toEqual(expected);
    // On a controlled clock the timing is certain: nothing errors for want of it.
    for (const r of run.results.filter((r) => r.status === 'errored')) expect(r.reason).toBe('no call was served again after the boundary burst, so no window could be straddled');
  });
});
