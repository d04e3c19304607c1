import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClockcheckError } from '../../src/errors.ts';
import { Pacer } from '../../src/client/pacer.ts';
import { FakeClock } from '../support/fake-clock.ts';

/** The largest number of sends in any half-open span [t, t + spanMs). */
function busiestSpan(times: readonly number[], spanMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while ((sorted[j] as number) < (sorted[i] as number) + spanMs && j < sorted.length) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

describe('Pacer rule', () => {
  it('allows limit - 1 calls to count at once by default, each for a window + guard after its answer', () => {
    const clock = new FakeClock();
    expect(new Pacer({ limit: 60, windowMs: 60_000, clock })).toMatchObject({ allowed: 59, spanMs: 60_060 });
    expect(new Pacer({ limit: 10, windowMs: 1000, clock })).toMatchObject({ allowed: 9, spanMs: 1025 });
    expect(new Pacer({ limit: 1, windowMs: 1000, clock }).allowed).toBe(1);
    expect(new Pacer({ limit: 100, windowMs: 1000, reserve: 25, guardMs: 0, clock })).toMatchObject({ allowed: 75, spanMs: 1000 });
  });

  it('refuses options out of range as misuse', () => {
    expect(() => new Pacer({ limit: 0, windowMs: 1000 })).toThrow(ClockcheckError);
    expect(() => new Pacer({ limit: 1.5, windowMs: 1000 })).toThrow(ClockcheckError);
    expect(() => new Pacer({ limit: 10, windowMs: 0 })).toThrow(ClockcheckError);
    expect(() => new Pacer({ limit: 10, windowMs: 1000, reserve: 0.5 })).toThrow(ClockcheckError);
  });
});

/** The most arrivals in any half-open window [t, t + windowMs). */
function busiestWindow(arrivals: readonly number[], windowMs: number): number {
  return busiestSpan(arrivals, windowMs);
}

describe('Pacer.acquire', () => {
  it('never lets more than `allowed` calls arrive in any window, whatever each call\'s latency, over random schedules', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 100, max: 60_000 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(
          fc.record({ gap: fc.double({ min: 0, max: 2, noNaN: true }), burst: fc.integer({ min: 1, max: 12 }), latency: fc.double({ min: 0, max: 0.5, noNaN: true }), arrival: fc.double({ min: 0, max: 1, noNaN: true }) }),
          { minLength: 1, maxLength: 40 },
        ),
        async (limit, windowMs, reserve, schedule) => {
          const clock = new FakeClock();
          const pacer = new Pacer({ limit, windowMs, reserve, clock });
          // Each call arrives at the target somewhere between being let go and being answered.
          const arrivals: number[] = [];
          const pending: Promise<void>[] = [];
          let at = 0;
          for (const { gap, burst, latency, arrival } of schedule) {
            at += Math.round(gap * windowMs * 0.3);
            await clock.advanceTo(at);
            for (let i = 0; i < burst; i++) {
              pending.push(
                pacer.acquire().then(async (send) => {
                  const roundTrip = Math.round(latency * windowMs);
                  arrivals.push(clock.now() + arrival * roundTrip);
                  await clock.sleep(roundTrip);
                  send.done();
                }),
              );
            }
          }
          await clock.run(Promise.all(pending));
          expect(busiestWindow(arrivals, windowMs)).toBeLessThanOrEqual(pacer.allowed);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps 100 concurrent acquirers within the limit', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 10, windowMs: 1000, clock });
    const times: number[] = [];
    await clock.run(Promise.all(Array.from({ length: 100 }, () => pacer.acquire().then((send) => {
      times.push(clock.now());
      send.done();
    }))));
    expect(times).toHaveLength(100);
    expect(busiestSpan(times, pacer.spanMs)).toBe(9);
    // 100 answered-at-once sends at 9 per 1025 ms: the 100th goes out in the 12th span.
    expect(Math.max(...times)).toBe(11 * 1025);
  });

  it('counts a call in flight until its answer, and from the answer on for the span', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 2, windowMs: 1000, guardMs: 0, clock });
    const first = await clock.run(pacer.acquire());
    let second = false;
    const waiting = pacer.acquire().then(() => {
      second = true;
    });
    await clock.advanceTo(5000);
    expect(second).toBe(false); // the first is still in flight: it may not have arrived yet
    first.done();
    await clock.advanceTo(5999);
    expect(second).toBe(false);
    await clock.run(waiting);
    expect(clock.now()).toBe(6000);
  });

  it('never waits when the limit is Infinity', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: Infinity, windowMs: 60_000, clock });
    await Promise.all(Array.from({ length: 1000 }, () => pacer.acquire()));
    expect(clock.now()).toBe(0);
    expect(pacer.estimateMs(1000)).toBe(0);
  });
});

describe('Pacer gate (the rate-limit phase steering the paced checks)', () => {
  it('holds paced sends at a closed gate, runs unpaced sends beside them, and keeps the unpaced ones in the history', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 10, windowMs: 1000, clock });
    (await clock.run(pacer.acquire())).done();
    await clock.advanceTo(300);
    (await clock.run(pacer.acquire())).done();
    pacer.hold();
    const log: string[] = [];
    const paced = pacer.acquire().then((send) => {
      log.push(`paced at ${clock.now()}`);
      send.done();
    });
    await clock.run(pacer.untilQuiet());
    log.push(`quiet at ${clock.now()}`);
    await pacer.unpaced(async () => {
      await Promise.all(Array.from({ length: 30 }, () => pacer.acquire()));
      log.push(`30 unpaced sends at ${clock.now()}`);
    });
    pacer.admit();
    await clock.run(paced);
    // Quiet from 300 + 1025; the paced send waits for the gate, then for the burst to leave the window.
    expect(log).toEqual(['quiet at 1325', '30 unpaced sends at 1325', `paced at ${1325 + 1025}`]);
  });

  it('lets `count` paced sends through an admitted gate, then closes it; untilIdle comes once they are answered', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 10, windowMs: 1000, clock });
    pacer.admit(3);
    const sends = await Promise.all([pacer.acquire(), pacer.acquire(), pacer.acquire()]);
    let fourth = false;
    const later = pacer.acquire().then((send) => {
      fourth = true;
      send.done();
    });
    let idle = false;
    const waiting = pacer.untilIdle().then(() => (idle = true));
    await clock.advanceTo(10);
    expect([fourth, idle]).toEqual([false, false]);
    for (const send of sends) send.done();
    await waiting;
    expect(idle).toBe(true);
    pacer.admit();
    await clock.run(later);
    expect(fourth).toBe(true);
  });

  it('tells when a paced send finds the window full (untilBlocked)', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 3, windowMs: 1000, clock });
    let blocked = false;
    void pacer.untilBlocked().then(() => (blocked = true));
    for (let i = 0; i < 2; i++) (await pacer.acquire()).done();
    await clock.advanceTo(1);
    expect(blocked).toBe(false);
    const third = pacer.acquire();
    await clock.advanceTo(2);
    expect(blocked).toBe(true);
    await clock.run(third);
  });

  it('paces at another limit and window after retime, with nothing counted (a restarted limiter)', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 10, windowMs: 100, clock });
    for (let i = 0; i < 9; i++) (await pacer.acquire()).done();
    pacer.retime(4, 1000);
    expect([pacer.allowed, pacer.spanMs]).toEqual([3, 1025]);
    for (let i = 0; i < 3; i++) (await pacer.acquire()).done();
    expect(clock.now()).toBe(0);
    await clock.run(pacer.acquire());
    expect(clock.now()).toBe(1025);
  });
});

describe('Pacer.account', () => {
  it('counts sends made elsewhere as made now: later acquirers wait for them to leave the span', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ limit: 10, windowMs: 1000, guardMs: 0, clock });
    pacer.account(8);
    (await pacer.acquire()).done();
    expect(clock.now()).toBe(0);
    await clock.run(pacer.acquire());
    expect(clock.now()).toBe(1000);
  });
});

describe('Pacer.estimateMs', () => {
  it('is 0 for a fresh pacer within the allowance', () => {
    const pacer = new Pacer({ limit: 10, windowMs: 1000, clock: new FakeClock() });
    expect(pacer.estimateMs(9)).toBe(0);
    expect(pacer.estimateMs(10)).toBe(1025);
    expect(pacer.estimateMs(0)).toBe(0);
  });

  it('predicts when the last of n sequential sends goes out, given the history', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 60 }),
        async (limit, gaps, requests) => {
          const clock = new FakeClock();
          const pacer = new Pacer({ limit, windowMs: 1000, clock });
          for (const gap of gaps) {
            await clock.advanceTo(clock.now() + gap);
            (await clock.run(pacer.acquire())).done();
          }
          const start = clock.now();
          const estimate = pacer.estimateMs(requests);
          await clock.run((async () => {
            for (let i = 0; i < requests; i++) (await pacer.acquire()).done();
          })());
          expect(estimate).toBe(clock.now() - start);
        },
      ),
      { numRuns: 100 },
    );
  });
});
