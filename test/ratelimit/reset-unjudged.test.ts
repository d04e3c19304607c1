import { describe, expect, it } from 'vitest';
import { runRateLimitPhase } from '../../src/ratelimit/phase.ts';
import type { RateLimitCheckId } from '../../src/ratelimit/rate-limit-checks.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import { call } from './synthetic.ts';

/** A 40 ms window of 5 calls, so the phase runs in a fraction of a second against a fake target. */
const profile = (): Profile => {
  const base = defaultProfile();
  return { ...base, rate_limit: { ...base.rate_limit, limit: 5, window: 40, burst_extra: 2 } };
};

/** The phase against a fake target: the boundary burst answers `burst`, every single call answers `single`. */
function phase(burst: readonly (number | null)[], single: number | null, selected: readonly RateLimitCheckId[]) {
  return runRateLimitPhase({
    profile: profile(),
    call: async () => call(Date.now(), single),
    burst: async (_requests, amount) => ({ exchanges: Array.from({ length: amount }, (_, i) => call(Date.now() + i, burst[i] ?? 429)), unanswered: 0 }),
    guardMs: 10,
    replay: (id) => `clockcheck run --only ${id}`,
    selected: (id) => selected.includes(id),
  });
}

describe('the rate-limit phase draws no verdict from calls the limiter did not decide', () => {
  it('errs the reset check, never fails RATE-LIMIT-RESET, when the call after a quiet window answers 500', async () => {
    const results = await phase([200, 200, 200, 200, 200, 429, 429], 500, ['rate-limit/boundary', 'rate-limit/reset']);
    const reset = results.find((r) => r.id === 'rate-limit/reset')!;
    expect(results.find((r) => r.id === 'rate-limit/boundary')!.status).toBe('passed');
    expect(reset).toMatchObject({ status: 'errored', findings: [] });
    expect(reset.reason).toBe('the call after a quiet window answered 500, neither served (2xx) nor limited (429): the reset could not be judged');
  });

  it('still fails RATE-LIMIT-RESET when that call is refused with 429', async () => {
    const results = await phase([200, 200, 200, 200, 200, 429, 429], 429, ['rate-limit/reset']);
    expect(results).toHaveLength(1);
    expect(results[0]!.status).toBe('failed');
    expect(results[0]!.findings.map((f) => f.ruleId)).toEqual(['RATE-LIMIT-RESET']);
  });

  it('errs the boundary and skips the checks built on it when everything answers 500', async () => {
    const results = await phase(Array(7).fill(500), 500, ['rate-limit/boundary', 'rate-limit/reset', 'rate-limit/sliding']);
    expect(Object.fromEntries(results.map((r) => [r.id, r.status]))).toEqual({ 'rate-limit/boundary': 'errored', 'rate-limit/reset': 'skipped', 'rate-limit/sliding': 'skipped' });
    expect(results.every((r) => r.findings.length === 0)).toBe(true);
  });
});
