import { describe, expect, it } from 'vitest';
import { parseEnsure } from '../../src/load/ensure.ts';
import { loadVerdict, maxServedCalls, type LoadObservation } from '../../src/load/load-verdict.ts';
import type { UnansweredCalls } from '../../src/load/unanswered.ts';

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

const none: UnansweredCalls = { total: 0, timedOut: 0, lostWithConnection: 0, heldToEnd: 0, cutOffAtEnd: 0, silentBeforeStopMs: null };
const served = { count: 50, mean: 3, p50: 2.5, p90: 4, p95: 5, p99: 9.75, max: 12 };

/** An observation of 200 calls in half a second at 50/60s: 50 served, 150 limited, every call answered. */
function observe(overrides: Partial<LoadObservation> & { ensure?: string[] } = {}): LoadObservation {
  const { ensure = [], ...rest } = overrides;
  return {
    statuses: new Map([[200, 50], [429, 150]]),
    errors: 0,
    timeouts: 0,
    unanswered: none,
    durationMs: 500,
    rateLimit: { limit: 50, windowMs: W },
    thresholds: parseEnsure(ensure),
    measures: { sent: 200, served, errors: 0, timeouts: 0, unanswered: 0, non2xx: 0, limited: 150, requestsPerSecond: 400 },
    ...rest,
  };
}

describe('loadVerdict', () => {
  it('passes 50 served and 150 limited in half a second at 50/60s', () => {
    const verdict = loadVerdict(observe());
    expect(verdict.status).toBe('passed');
    expect(verdict.checks.map((c) => [c.id, c.status])).toEqual([['no-5xx', 'passed'], ['all-answered', 'passed'], ['within-rate-limit', 'passed'], ['ran-to-end', 'passed']]);
    expect(verdict.limit).toEqual({ limit: 50, windowMs: W, durationMs: 500, served: 50, maxServed: 50, beyondLimit: 0 });
  });

  it('fails a run the target stopped before its end (nothing answered for 30 s, a certificate that changed), with the reason', () => {
    const verdict = loadVerdict(observe({ stoppedEarly: 'nothing was answered for 30 s (EXCHANGE_TIMEOUT)' }));
    expect(verdict.status).toBe('failed');
    expect(verdict.checks.find((c) => c.id === 'ran-to-end')).toMatchObject({ status: 'failed', detail: 'the run stopped before its end: nothing was answered for 30 s (EXCHANGE_TIMEOUT)' });
  });

  it('fails on 5xx and names the codes', () => {
    const verdict = loadVerdict(observe({ statuses: new Map([[200, 50], [503, 149], [500, 1]]) }));
    expect(verdict.status).toBe('failed');
    expect(verdict.checks[0]).toMatchObject({ id: 'no-5xx', status: 'failed', detail: '150 responses were 5xx (500 ×1, 503 ×149)' });
  });

  it('fails when requests got no answer, saying how many of how many and why', () => {
    const held = { ...none, total: 8, heldToEnd: 8, silentBeforeStopMs: 1983 };
    const verdict = loadVerdict(observe({ statuses: new Map([[200, 1]]), unanswered: held, measures: { ...observe().measures, sent: 9, unanswered: 8 } }));
    expect(verdict.status).toBe('failed');
    expect(verdict.checks[1]).toEqual({
      id: 'all-answered',
      title: 'Every request answered',
      status: 'failed',
      detail: '8 of 9 requests got no answer (8 still waiting when the run stopped, the target silent for 2.0 s, longer than any answer took)',
    });
  });

  it('fails on timeouts, calls lost with their connection and transport errors, in one line', () => {
    const lost = { ...none, total: 3, timedOut: 2, lostWithConnection: 1 };
    const verdict = loadVerdict(observe({ errors: 5, timeouts: 2, unanswered: lost }));
    expect(verdict.checks[1]).toMatchObject({ status: 'failed', detail: '3 of 200 requests got no answer (2 timed out, 1 lost with its connection); 3 transport errors' });
    const refused = loadVerdict(observe({ errors: 2, timeouts: 0 }));
    expect(refused.checks[1]).toMatchObject({ status: 'failed', detail: 'every request was answered, but 2 transport errors' });
  });

  it('passes the calls a timed run cut off at its end, and says so', () => {
    const verdict = loadVerdict(observe({ unanswered: { ...none, cutOffAtEnd: 10, silentBeforeStopMs: 2 } }));
    expect(verdict.checks[1]).toMatchObject({ status: 'passed', detail: 'every request answered; 10 calls were in flight when the time was up, cut off by the run (not judged)' });
  });

  it('fails when more calls were served than the limit allows in the run, counting them', () => {
    const verdict = loadVerdict(observe({ statuses: new Map([[200, 51], [429, 149]]) }));
    expect(verdict.status).toBe('failed');
    expect(verdict.checks[2]).toMatchObject({ id: 'within-rate-limit', rule: 'RATE-LIMIT-CAP', status: 'failed' });
    expect(verdict.checks[2]?.detail).toMatch(/51 calls served .* at most 50 can be: 1 accepted beyond the limit/);
    expect(verdict.limit?.beyondLimit).toBe(1);
  });

  it('skips the limit check without a limit, or without any response', () => {
    const noLimit = loadVerdict(observe({ rateLimit: null, statuses: new Map([[200, 5000]]) }));
    expect(noLimit.status).toBe('passed');
    expect(noLimit.checks[2]).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/no limit given/) });
    expect(noLimit.limit).toBeNull();
    const silent = loadVerdict(observe({ durationMs: null, statuses: new Map(), errors: 4, unanswered: { ...none, total: 4, lostWithConnection: 4 } }));
    expect(silent.checks[2]).toMatchObject({ status: 'skipped', detail: expect.stringMatching(/no response came back/) });
    expect(silent.status).toBe('failed');
  });
});

describe('loadVerdict with --ensure', () => {
  it('adds one line per threshold, the measured value beside the limit', () => {
    const verdict = loadVerdict(observe({ ensure: ['p99<=500ms', 'p95<1ms', 'limited<=80%', 'rps>=100'] }));
    const lines = verdict.checks.filter((c) => c.id === 'ensure');
    expect(lines.map((c) => [c.title, c.status, c.detail])).toEqual([
      ['p99<=500ms', 'passed', 'p99 9.75 ms over 50 served calls; limit <= 500 ms'],
      ['p95<1ms', 'failed', 'p95 5 ms over 50 served calls; limit < 1 ms'],
      ['limited<=80%', 'passed', '150 answers 429, 75% of 200 sent; limit <= 80%'],
      ['rps>=100', 'passed', '400 responses/s; limit >= 100/s'],
    ]);
    expect(lines[1]).toMatchObject({ threshold: { quantity: 'p95', operator: '<', limit: 1, unit: 'ms', measured: 5 } });
    expect(verdict.status).toBe('failed');
  });

  it('judges a percent exactly: 1 of 30 000 is not 0%', () => {
    const verdict = loadVerdict(observe({ ensure: ['errors<=0%'], errors: 1, measures: { ...observe().measures, sent: 30_000, errors: 1 } }));
    expect(verdict.checks.at(-1)).toMatchObject({ status: 'failed', detail: '1 transport errors and timeouts, <0.01% of 30000 sent; limit <= 0%' });
  });

  it('fails a latency threshold when no call was served, since there is nothing to judge', () => {
    const verdict = loadVerdict(observe({ ensure: ['p99<=500ms'], measures: { ...observe().measures, served: null } }));
    expect(verdict.checks.at(-1)).toMatchObject({ status: 'failed', detail: 'no call was served (2xx): no p99 to judge; limit <= 500 ms', threshold: { measured: null } });
  });

  it('lets a limit on unanswered take the place of the default: 2 of 200 within 1% pass, once', () => {
    const lost = { ...none, total: 2, timedOut: 1, heldToEnd: 1, silentBeforeStopMs: 900 };
    const base = observe({ errors: 1, timeouts: 1, unanswered: lost, measures: { ...observe().measures, errors: 1, timeouts: 1, unanswered: 2 } });
    expect(loadVerdict(base).status).toBe('failed');
    const ensured = loadVerdict({ ...base, thresholds: parseEnsure(['unanswered<=1%']) });
    expect(ensured.status).toBe('passed');
    expect(ensured.checks[1]).toMatchObject({ id: 'all-answered', status: 'passed', detail: expect.stringMatching(/^every other request answered; 1 timed out, 1 still waiting .*: judged by --ensure unanswered<=1%$/) });
    expect(ensured.checks.at(-1)).toMatchObject({ id: 'ensure', status: 'passed', detail: '2 requests got no answer, 1% of 200 sent; limit <= 1%' });
  });

  it('keeps judging by default what a threshold does not bound: timeouts<=5 leaves a held call failing', () => {
    const mixed = { ...none, total: 3, timedOut: 2, heldToEnd: 1, silentBeforeStopMs: 900 };
    const verdict = loadVerdict(observe({ ensure: ['timeouts<=5'], errors: 2, timeouts: 2, unanswered: mixed, measures: { ...observe().measures, timeouts: 2, errors: 2 } }));
    expect(verdict.checks[1]).toMatchObject({ status: 'failed', detail: expect.stringMatching(/^1 of 200 requests got no answer \(1 still waiting .*\); 2 timed out: judged by --ensure timeouts<=5$/) });
    expect(verdict.checks.at(-1)).toMatchObject({ status: 'passed' });
  });

  it('leaves the default check to --ensure when unanswered and errors are both bounded', () => {
    const verdict = loadVerdict(observe({ ensure: ['unanswered<=1', 'errors<=3'] }));
    expect(verdict.checks[1]).toMatchObject({ id: 'all-answered', status: 'skipped', detail: 'left to --ensure unanswered<=1, errors<=3' });
  });

  it('lets a limit on non2xx take the place of no-5xx (5xx are non-2xx answers), and non2xx leaves out 429', () => {
    const statuses = new Map([[200, 50], [429, 149], [503, 1]]);
    const verdict = loadVerdict(observe({ statuses, ensure: ['non2xx<=1%'], measures: { ...observe().measures, non2xx: 1, limited: 149 } }));
    expect(verdict.checks[0]).toMatchObject({ id: 'no-5xx', status: 'skipped', detail: '5xx are non-2xx answers: judged by --ensure non2xx<=1% (1 seen)' });
    expect(verdict.checks.at(-1)).toMatchObject({ status: 'passed', detail: '1 answers neither 2xx nor 429, 0.5% of 200 sent; limit <= 1%' });
    expect(verdict.status).toBe('passed');
  });
});
