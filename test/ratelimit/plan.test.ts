import { describe, expect, it } from 'vitest';
import { estimateWithPhase, plannedRateLimitPhase, straddleAfterCalls, type RateLimitCheckId } from '../../src/ratelimit/phase.ts';
import { defaultProfile } from '../../src/profile/profile.ts';

const all = () => true;

describe('plannedRateLimitPhase', () => {
  it('plans every burst, the polls of a window and the page sizes, and three windows of time: the page sizes go inside the straddle', () => {
    const profile = defaultProfile();
    // boundary 64 + polls 11 + page sizes 5 × 4 (the straddle's calls before the reset) + the burst after it: one more
    // than a sliding window leaves free after the page sizes a conforming target certainly serves (page_size=100 ×4)
    expect(plannedRateLimitPhase(profile, all)).toEqual({ requests: 64 + 11 + 20 + 57, ms: 3 * (60_000 + 60) + 7 * 250 });
  });

  it('without the page sizes, the straddle sends a few probe calls before the reset instead', () => {
    const profile = defaultProfile();
    const windowChecks = (id: RateLimitCheckId) => id !== 'rate-limit/page-size-under-load';
    expect(plannedRateLimitPhase(profile, windowChecks)).toEqual({ requests: 64 + 11 + 4 + 57, ms: 3 * (60_000 + 60) + 3 * 250 });
  });

  it('plans only what is selected, and nothing when the profile turns the bursts off', () => {
    const profile = defaultProfile();
    const only = (id: RateLimitCheckId) => id === 'rate-limit/page-size-under-load';
    expect(plannedRateLimitPhase(profile, only)).toEqual({ requests: 20, ms: 60_000 + 60 + 5 * 250 });
    expect(plannedRateLimitPhase({ ...profile, rate_limit: { ...profile.rate_limit, bursts: false } }, all)).toEqual({ requests: 0, ms: 0 });
  });

  it('plans the burst after the reset from the page sizes the profile says are served: 101 and 1000 too where it clamps', () => {
    const profile = { ...defaultProfile(), page_size_over_max: 'clamp' as const };
    expect(plannedRateLimitPhase(profile, all).requests).toBe(64 + 11 + 20 + (60 - 12 + 1));
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
  it("adds the phase's time to the paced estimate of the other requests until the phase starts", () => {
    let started = false;
    const eta = estimateWithPhase((n) => n * 1000, { requests: 100, ms: 240_000 }, () => started);
    expect(eta(150)).toBe(50_000 + 240_000);
    expect(eta(80)).toBe(240_000);
    started = true;
    expect(eta(80)).toBe(0);
  });
});
