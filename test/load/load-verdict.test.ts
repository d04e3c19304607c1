import { describe, expect, it } from 'vitest';
import { loadVerdict, maxServedCalls } from '../../src/load/load-verdict.ts';

const W = 60_000;

describe('maxServedCalls', () => {
  it('allows one window of calls in a run shorter than the window, even an instantaneous one', () => {
    expect(maxServedCalls(60, W, 0)).toBe(60);
    expect(maxServedCalls(60, W, 1)).toBe(60);
    expect(maxServedCalls(60, W, W - 1)).toBe(60);
  });

  it('allows a second burst at exactly one window after the first: the window (t-W, t] has left it', () => {
    expect(maxServedCalls(60, W, W)).toBe(120);
    expect(maxServedCalls(60, W, 2 * W - 1)).toBe(120);
    expect(maxServedCalls(60, W, 2 * W)).toBe(180);
    expect(maxServedCalls(50, 1000, 10_500)).toBe(550);
  });
});

const clean = { errors: 0, timeouts: 0, durationMs: 500, rateLimit: { limit: 50, windowMs: W } };

describe('loadVerdict', () => {
  it('passes 50 served and 150 limited in half a second at 50/60s', () => {
    const verdict = loadVerdict({ ...clean, statuses: new Map([[200, 50], [429, 150]]) });
    expect(verdict.status).toBe('passed');
    expect(verdict.checks.map((c) => [c.id, c.status])).toEqual([['no-5xx', 'passed'], ['no-transport-errors', 'passed'], ['within-rate-limit', 'passed']]);
    expect(verdict.limit).toEqual({ limit: 50, windowMs: W, durationMs: 500, served: 50, maxServed: 50, beyondLimit: 0 });
  });

  it('fails on 5xx and names the codes', () => {
    const verdict = loadVerdict({ ...clean, statuses: new Map([[200, 50], [503, 149], [500, 1]]) });
    expect(verdict.status).toBe('failed');
    expect(verdict.checks[0]).toMatchObject({ id: 'no-5xx', status: 'failed', detail: '150 responses were 5xx (500 ×1, 503 ×149)' });
  });

  it('fails on transport errors and timeouts', () => {
    const verdict = loadVerdict({ ...clean, statuses: new Map([[200, 10]]), errors: 3, timeouts: 2 });
    expect(verdict.status).toBe('failed');
    expect(verdict.checks[1]).toMatchObject({ id: 'no-transport-errors', status: 'failed', detail: '3 calls failed without a response (2 timed out)' });
  });

  it('fails when more calls were served than the limit allows in the run, counting them', () => {
    const verdict = loadVerdict({ ...clean, statuses: new Map([[200, 51], [429, 149]]) });
    expect(verdict.status).toBe('failed');
    expect(verdict.checks[2]).toMatchObject({ id: 'within-rate-limit', rule: 'RATE-LIMIT-CAP', status: 'failed' });
    expect(verdict.checks[2]?.detail).toMatch(/51 calls served .* at most 50 can be: 1 accepted beyond the limit/);
    expect(verdict.limit?.beyondLimit).toBe(1);
  });

  it('skips the limit check without a limit, or without any response', () => {
    const noLimit = loadVerdict({ ...clean, rateLimit: null, statuses: new Map([[200, 5000]]) });
    expect(noLimit.status).toBe('passed');
    expect(noLimit.checks[2]).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/no limit given/) });
    expect(noLimit.limit).toBeNull();
    const silent = loadVerdict({ ...clean, durationMs: null, statuses: new Map(), errors: 4 });
    expect(silent.checks[2]).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/no response came back/) });
    expect(silent.status).toBe('failed');
  });
});
