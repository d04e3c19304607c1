import { describe, expect, it } from 'vitest';
import { estimateWithPhase } from '../../src/ratelimit/estimate-with-phase.ts';
import { plannedRateLimitPhase } from '../../src/ratelimit/planned-phase.ts';
import { straddleAfterCalls } from '../../src/ratelimit/phase-figures.ts';
import type { RateLimitCheckId } from '../../src/ratelimit/rate-limit-checks.ts';
import { join } from 'node:path';
import { defaultProfile } from '../../src/profile/profile.ts';
import { embeddedProfile, unstartedEmbeddedFacts } from '../../src/embedded/embedded-profile.ts';
import { planRun } from '../../src/plan/plan.ts';
import { ROOT } from '../support/cli.ts';

const all = () => true;

describe('plannedRateLimitPhase', () => {
  it('plans every burst, the polls of a window and the page sizes, and three windows of time: the page sizes go inside the straddle', () => {
    const profile = defaultProfile();
    // boundary 64 + polls 11 + page sizes 5 × 4 (the straddle's calls before the reset) + the burst after it: one more
    // than a sliding window leaves free after the page sizes (each counts, served or answered 4xx)
    const ms = 3 * (60_000 + 60) + 7 * 250;
    expect(plannedRateLimitPhase(profile, all)).toEqual({ requests: 64 + 11 + 20 + 41, ms, carried: 0, spanMs: ms });
  });

  it('without the page sizes, the straddle sends a few probe calls before the reset instead', () => {
    const profile = defaultProfile();
    const windowChecks = (id: RateLimitCheckId) => id !== 'rate-limit/page-size-under-load';
    expect(plannedRateLimitPhase(profile, windowChecks)).toMatchObject({ requests: 64 + 11 + 4 + 57, ms: 3 * (60_000 + 60) + 3 * 250 });
  });

  it('plans only what is selected, and nothing when the profile turns the bursts off', () => {
    const profile = defaultProfile();
    const only = (id: RateLimitCheckId) => id === 'rate-limit/page-size-under-load';
    expect(plannedRateLimitPhase(profile, only)).toMatchObject({ requests: 20, ms: 60_000 + 60 + 5 * 250 });
    expect(plannedRateLimitPhase({ ...profile, rate_limit: { ...profile.rate_limit, bursts: false } }, all)).toEqual({ requests: 0, ms: 0, carried: 0, spanMs: 0 });
  });

});

describe('plannedRateLimitPhase beside paced checks', () => {
  it('carries paced requests in the boundary\'s window and the straddle\'s, once a window of them filled the pacer\'s', () => {
    const profile = defaultProfile();
    const alone = plannedRateLimitPhase(profile, all);
    const beside = plannedRateLimitPhase(profile, all, 1000);
    // Boundary: 58 paced calls, then 60 - 58 + 4 at once; the straddle: 59 less 8 polls, the opener and the 20 page sizes.
    expect(beside.carried).toBe(58 + 30);
    expect(beside.requests).toBe(6 + 11 + 20 + (60 - (20 + 30) + 1));
    // The boundary to the opener, then a fifth of a window, a window and a guard until the calls before the reset leave the pacer's.
    expect(beside.spanMs).toBe(60_060 + 12_000 + 60_060 + 7 * 250);
    expect(beside.ms).toBeCloseTo(beside.spanMs - (88 * 60_060) / 59, 6);
    // What it adds is less than one window; alone, three.
    expect(beside.ms).toBeLessThan(60_000);
    expect(alone.ms).toBeGreaterThan(3 * 60_000);
  });

  it('carries only what comes after a window of paced requests', () => {
    const profile = defaultProfile();
    expect(plannedRateLimitPhase(profile, all, 59 + 10).carried).toBe(10);
    expect(plannedRateLimitPhase(profile, all, 59 + 70).carried).toBe(70);
  });
});

describe('straddleAfterCalls', () => {
  it('is one call more than a sliding window leaves free, limit at most, and limit when nothing was served before', () => {
    expect(straddleAfterCalls(60, 20)).toBe(41);
    expect(straddleAfterCalls(60, 1)).toBe(60);
    expect(straddleAfterCalls(60, 0)).toBe(60);
    expect(straddleAfterCalls(60, 60)).toBe(1);
    expect(straddleAfterCalls(60, 75)).toBe(1);
  });
});

describe('estimateWithPhase', () => {
  it("until the phase starts, adds its span to the paced estimate of the requests it neither sends nor carries; then what is left of the span", () => {
    let startedAt: number | null = null;
    const eta = estimateWithPhase((n) => n * 1000, { requests: 100, carried: 20, spanMs: 240_000 }, () => startedAt);
    expect(eta(150)).toBe(30_000 + 240_000);
    expect(eta(80)).toBe(240_000);
    startedAt = Date.now() - 40_000;
    const left = eta(80);
    expect(left).toBeGreaterThan(199_000);
    expect(left).toBeLessThanOrEqual(200_000);
  });
});

describe('where the plan starts the phase', () => {
  const profile = (() => {
    const embedded = embeddedProfile(unstartedEmbeddedFacts());
    return { ...embedded, rate_limit: { ...embedded.rate_limit, limit: 60, window: 60_000 } };
  })();
  const plan = (only: string[]) => planRun({ profile, suitesDir: join(ROOT, 'suites'), suiteGlob: '**/*.yaml', only, budget: 110 });

  it('after the last scenario that sends calls without the run\'s token, carrying paced requests after it, and the ETA with it', async () => {
    const full = await plan([]);
    const at = full.rateLimit.at!;
    expect(full.scenarios[at - 1]!.id).toBe('transport/https-only');
    // No scenario after it sends without the token: the boundary's window counts each call.
    expect(full.scenarios.slice(at).some((s) => JSON.stringify(s.scenario).match(/"auth":"none"|"auth":\{"raw"|"check":"plain-http"/))).toBe(false);
    expect(full.rateLimit.carried).toBe(88);
    // Issue 37's bound for the full run at 60 calls a minute (10 min 14 s planned with the read-back and the edges).
    expect(full.etaMs).toBeLessThan(12 * 60_000);
  });

  it('alone, after everything, when too few paced requests follow (--only rate-limit, or a small selection)', async () => {
    expect((await plan(['rate-limit'])).rateLimit).toMatchObject({ at: null, carried: 0 });
    expect((await plan(['auth', 'rate-limit'])).rateLimit).toMatchObject({ at: null, carried: 0 });
  });
});
