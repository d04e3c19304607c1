import { describe, expect, it } from 'vitest';
import { admission, unitCost, type AdmissionDeps } from '../../src/plan/admission.ts';
import type { PlannedCheck } from '../../src/plan/run-plan.ts';
import { FakeClock } from '../support/fake-clock.ts';

/**
 * The budget's promise at run time (issue 23, on a controlled clock since issue 36): before each
 * unit, its cost at the target's limit is set against what is left of `--within` / `--max-requests`,
 * less what the rate-limit phase ahead needs. Exact times, no wall clock.
 */
const MS_PER_CALL = 1_000; // 60 calls a minute
const checks: PlannedCheck[] = [
  { id: 'a', kind: 'scenario', rules: ['AUTH-REQUIRED'], requests: 10 },
  { id: 'b', kind: 'scenario', rules: ['JSON-RESPONSE'], requests: 20 },
  { id: 'waits', kind: 'scenario', rules: ['HEAD-SUPPORTED'], requests: 2, waitMs: 5_000 },
  { id: 'skipped', kind: 'scenario', rules: ['PUT-PARTIAL'], requests: 50, skip: 'read-only' },
  { id: 'rate-limit/boundary', kind: 'rate-limit', rules: ['HTTPS-ONLY'], requests: 0 },
];
const rateLimit = { any: true, requests: 70, ms: 20_000 };
const cost = unitCost({ checks, rateLimit: rateLimit as never }, MS_PER_CALL);

/** An admission on `clock` that started at its current time, with `made` requests sent so far. */
function admit(budget: AdmissionDeps['budget'], clock: FakeClock, made: { n: number }, phase = rateLimit) {
  const start = clock.now();
  return admission({ budget, phase, costOf: cost, elapsedMs: () => clock.now() - start, made: () => made.n });
}

describe('unitCost', () => {
  it('costs a unit as its paced requests, its planned waits, and the phase when it holds a rate-limit check; a skipped check costs nothing', () => {
    expect(cost(['a'])).toEqual({ requests: 10, ms: 10_000, phase: false });
    expect(cost(['a', 'b'])).toEqual({ requests: 30, ms: 30_000, phase: false });
    expect(cost(['waits'])).toEqual({ requests: 2, ms: 7_000, phase: false });
    expect(cost(['skipped'])).toEqual({ requests: 0, ms: 0, phase: false });
    expect(cost(['rate-limit/boundary'])).toEqual({ requests: 70, ms: 20_000, phase: true });
    expect(cost(['unknown'])).toEqual({ requests: 0, ms: 0, phase: false });
  });

  it('costs no time per request when the target is unpaced', () => {
    expect(unitCost({ checks, rateLimit: rateLimit as never }, 0)(['b'])).toEqual({ requests: 20, ms: 0, phase: false });
  });
});

describe('admission', () => {
  it('admits everything without a budget', () => {
    const clock = new FakeClock();
    expect(admit(undefined, clock, { n: 10_000 })(['a'])).toBeNull();
    expect(admit({}, clock, { n: 10_000 })(['rate-limit/boundary'])).toBeNull();
  });

  it('--within: admits a unit that fits to the millisecond beside the phase reserve (its time and a tenth), and not one more', async () => {
    const clock = new FakeClock(1_000_000);
    // 10 s for `a` + 22 s kept for the phase = 32 s.
    const exact = admit({ withinMs: 32_000 }, clock, { n: 0 });
    expect(exact(['a'])).toBeNull();
    const short = admit({ withinMs: 31_999 }, clock, { n: 0 });
    expect(short(['a'])).toBe("not run: budget (--within 32.0 s): it takes about 10.0 s at the target's limit and 32.0 s were left, 22.0 s of them kept for the rate-limit phase");
  });

  it('--within: what is left shrinks with the clock, so a run slower than planned leaves out the units that no longer fit', async () => {
    const clock = new FakeClock();
    const gate = admit({ withinMs: 60_000 }, clock, { n: 0 });
    expect(gate(['a'])).toBeNull(); // 10 s + 22 s kept <= 60 s
    await clock.advance(20_000); // `a` took twice its plan
    expect(gate(['waits'])).toBeNull(); // 7 s + 22 s <= 40 s
    await clock.advance(10_000);
    expect(gate(['b'])).toBe("not run: budget (--within 1 min 00 s): it takes about 20.0 s at the target's limit and 30.0 s were left, 22.0 s of them kept for the rate-limit phase");
    expect(gate(['rate-limit/boundary'])).toBeNull(); // the phase itself: 20 s <= 30 s
    // The phase has run: nothing is kept for it any more.
    await clock.advance(20_000);
    expect(gate(['a'])).toBeNull(); // 10 s <= 10 s
    await clock.advance(1);
    expect(gate(['a'])).toBe("not run: budget (--within 1 min 00 s): it takes about 10.0 s at the target's limit and 10.0 s were left");
  });

  it('--within: once the phase no longer fits, nothing is kept for it and the paced checks use the rest', async () => {
    const clock = new FakeClock();
    const gate = admit({ withinMs: 40_000 }, clock, { n: 0 });
    await clock.advance(18_001); // 21.999 s left < 22 s reserve
    expect(gate(['waits'])).toBeNull(); // 7 s, where the 22 s reserve would have left it out
    await clock.advance(7_000);
    expect(gate(['rate-limit/boundary'])).toBe("not run: budget (--within 40.0 s): it takes about 20.0 s at the target's limit and 15.0 s were left");
  });

  it('--max-requests: counts what was sent and what the phase keeps, exactly', () => {
    const clock = new FakeClock();
    const made = { n: 0 };
    const gate = admit({ maxRequests: 100 }, clock, made);
    expect(gate(['b'])).toBeNull(); // 20 + 70 <= 100
    made.n = 20;
    expect(gate(['a'])).toBeNull(); // 10 + 70 <= 80
    made.n = 21;
    expect(gate(['a'])).toBe('not run: budget (--max-requests 100): it sends 10 requests and 79 were left, 70 of them kept for the rate-limit phase');
    expect(gate(['rate-limit/boundary'])).toBeNull();
    made.n = 91;
    expect(gate(['a'])).toBe('not run: budget (--max-requests 100): it sends 10 requests and 9 were left');
    expect(gate(['skipped'])).toBeNull();
  });

  it('keeps nothing for a phase the plan does not hold', () => {
    const clock = new FakeClock();
    const gate = admit({ withinMs: 10_000 }, clock, { n: 0 }, { any: false, requests: 0, ms: 0 });
    expect(gate(['a'])).toBeNull();
    expect(gate(['b'])).toBe("not run: budget (--within 10.0 s): it takes about 20.0 s at the target's limit and 10.0 s were left");
  });
});
