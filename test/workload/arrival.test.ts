import { describe, expect, it } from 'vitest';
import { arrivalSpanMs, arrivalTimes, describeArrival, maxFlows } from '../../src/workload/arrival.ts';

const times = (phases: Parameters<typeof arrivalTimes>[0]) => [...arrivalTimes(phases)];

describe('arrivalTimes (the open model)', () => {
  it('spaces a constant rate evenly: 4 flows/s for 2 s is every 250 ms from 0', () => {
    expect(times([{ durationMs: 2000, rate: 4, rampTo: null }])).toEqual([0, 250, 500, 750, 1000, 1250, 1500, 1750]);
  });

  it('a rate below 1/s: one flow every 2 s', () => {
    expect(times([{ durationMs: 5000, rate: 0.5, rampTo: null }])).toEqual([0, 2000, 4000]);
  });

  it('ramps linearly: 1→9 flows/s over 2 s sends 10 flows, the k-th where the count N(t) = t + 2t² reaches k, ever closer together', () => {
    const t = times([{ durationMs: 2000, rate: 1, rampTo: 9 }]);
    expect(t).toHaveLength(10);
    t.forEach((ms, k) => expect(ms).toBeCloseTo(((-1 + Math.sqrt(1 + 8 * k)) / 4) * 1000, 2));
    const gaps = t.slice(1).map((ms, i) => ms - t[i]!);
    expect(gaps.every((g, i) => i === 0 || g < gaps[i - 1]!)).toBe(true);
  });

  it('ramps down as well as up, and chains phases end to end', () => {
    const t = times([
      { durationMs: 1000, rate: 2, rampTo: null },
      { durationMs: 2000, rate: 4, rampTo: 2 },
    ]);
    expect(t.slice(0, 2)).toEqual([0, 500]);
    expect(t.filter((ms) => ms >= 1000)).toHaveLength(6); // (4 + 2) / 2 · 2 s
    expect(t[2]).toBe(1000);
  });

  it('counts the flows and the span each model plans, and says the arrival in words', () => {
    const open = { model: 'open', phases: [{ durationMs: 30_000, rate: 10, rampTo: null }], maxInFlight: 50 } as const;
    expect(maxFlows(open)).toBe(300);
    expect(arrivalSpanMs(open)).toBe(30_000);
    expect(describeArrival(open)).toBe('open model: 10 flows/s for 30 s (at most 50 in flight)');
    const closed = { model: 'closed', connections: 1, durationMs: 5_000, maxFlows: 77 } as const;
    expect(maxFlows(closed)).toBe(77);
    expect(describeArrival(closed)).toBe('closed model: 1 connection for 5 s (at most 77 flows)');
    expect(describeArrival({ model: 'open', phases: [{ durationMs: 10_000, rate: 1, rampTo: 5 }, { durationMs: 5_000, rate: 5, rampTo: null }], maxInFlight: 9 })).toBe(
      'open model: 1→5 flows/s for 10 s, then 5 flows/s for 5 s (at most 9 in flight)',
    );
  });
});
