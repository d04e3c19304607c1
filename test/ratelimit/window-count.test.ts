import { describe, expect, it } from 'vitest';
import { busiestSpan, callsThatCouldCount, certainlyCounted, outcomeOf, timed } from '../../src/ratelimit/window-count.ts';
import { call, calls } from './synthetic.ts';

describe('outcomeOf and certainlyCounted', () => {
  it('tells served (2xx), limited (429) and other answers apart', () => {
    expect(outcomeOf(call(0, 200))).toBe('served');
    expect(outcomeOf(call(0, 204))).toBe('served');
    expect(outcomeOf(call(0, 429))).toBe('limited');
    expect(outcomeOf(call(0, 503))).toBe('other');
    expect(outcomeOf(call(0, 422))).toBe('other');
    expect(outcomeOf(call(0, null))).toBe('other');
  });
  it('counts a call with the token answered anything but 401, 429 and 5xx as certainly counted toward the token', () => {
    expect([200, 422, 404, 401, 429, 500, 503].map((s) => certainlyCounted(call(0, s)))).toEqual([true, true, true, false, false, false, false]);
    expect(certainlyCounted(call(0, null))).toBe(false);
    const withoutToken = call(0, 200);
    expect(certainlyCounted({ ...withoutToken, request: { ...withoutToken.request, headers: {} } })).toBe(false);
  });
});

describe('busiestSpan', () => {
  const t = (e: ReturnType<typeof call>, segment = 's') => timed(e, segment);

  it('finds the calls that certainly fell into one window', () => {
    const spread = [...calls(0, 3, 200, 10), ...calls(500, 4, 200, 10), ...calls(2000, 2, 200)].map((e) => t(e));
    const busiest = busiestSpan(spread, 1000);
    expect(busiest.calls).toHaveLength(7);
    expect(busiest.spanMs).toBe(535);
  });

  it('never counts calls whose intervals stretch over a whole window', () => {
    // Two calls 990 ms apart, each taking 20 ms: the server may have decided them 1010 ms apart.
    const pair = [call(0, 200, { durationMs: 20 }), call(990, 200, { durationMs: 20 })].map((e) => t(e));
    expect(busiestSpan(pair, 1000).calls).toHaveLength(1);
    expect(busiestSpan(pair, 1011).calls).toHaveLength(2);
  });

  it('handles no calls', () => {
    expect(busiestSpan([], 1000)).toEqual({ calls: [], spanMs: 0 });
  });
});

describe('callsThatCouldCount', () => {
  it('counts every call (refused ones too) whose interval overlaps the window before the refusal', () => {
    const before = calls(0, 5, 200, 100).map((e) => timed(e, 'paced'));
    const old = timed(call(-2000, 200), 'paced');
    const refused = timed(call(900, 429), 'paced');
    const later = timed(call(2000, 200), 'paced');
    expect(callsThatCouldCount(refused, [old, ...before, refused, later], 1000)).toBe(5);
  });
});
