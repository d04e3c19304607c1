import { describe, expect, it } from 'vitest';
import { REFUSED_SEGMENTS, runRefusedCalls, WRONG_TOKEN } from '../../src/ratelimit/refused-calls.ts';
import { RateMonitor } from '../../src/ratelimit/monitor.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import { SlidingWindowLimiter, type RateLimiter } from '../../src/reference/rate-limiter.ts';
import type { Exchange } from '../../src/client/exchange.ts';
import type { CheckResult } from '../../src/report/model.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { call } from './synthetic.ts';

/**
 * The refused calls' check (RATE-LIMIT-REFUSED) on a controlled clock: a fake target decides each
 * call with the reference server's sliding-window limiter at its arrival, so the bursts' timing, and
 * with it the verdict, is exact. The reference server over HTTPS is refused-calls.test.ts's.
 */

const LIMIT = 40;
const WINDOW_MS = 1000;
const LATENCY_MS = 6;

function profileAt(bursts = true): Profile {
  const base = defaultProfile();
  return { ...base, rate_limit: { ...base.rate_limit, limit: LIMIT, window: WINDOW_MS, bursts } };
}

/** How the fake target answers a call refused for its token: counted by `limiter` under one key (null: never counted), or `served`. */
interface RefusedCalls {
  readonly limiter: RateLimiter | null;
  /** Calls without a token are served (2xx): AUTH-REQUIRED broken, not this rule. */
  readonly served?: boolean;
  /** Each call of a burst arrives this far after the one before, ms. */
  readonly spacingMs?: number;
}

function fakeTarget(clock: FakeClock, refused: RefusedCalls) {
  const seen: Array<{ authorization: string | null; status: number }> = [];
  return {
    seen,
    burst: async (_request: unknown, amount: number, _segment: string, authorization: string | null) => {
      const sent = clock.now();
      const spacing = refused.spacingMs ?? 0.25;
      const statuses = Array.from({ length: amount }, (_, i) => {
        const allowed = refused.limiter ? refused.limiter.attempt('anonymous', sent + LATENCY_MS / 2 + i * spacing).allowed : true;
        const status = !allowed ? 429 : refused.served && authorization === null ? 200 : 401;
        seen.push({ authorization, status });
        return status;
      });
      await clock.sleep(LATENCY_MS + amount * spacing);
      return { exchanges: statuses.map((status, i) => call(sent, status, { durationMs: LATENCY_MS + i * spacing })), unanswered: 0 };
    },
  };
}

async function checkAgainst(refused: RefusedCalls, profile = profileAt()): Promise<{ result: CheckResult; seen: ReturnType<typeof fakeTarget>['seen'] }> {
  const clock = new FakeClock(1_800_000_000_000);
  const target = fakeTarget(clock, refused);
  const result = await clock.run(runRefusedCalls({ profile, authorization: 'the-run-token', burst: target.burst, replay: (id) => `clockcheck run --only ${id}` }));
  return { result, seen: target.seen };
}

const rulesOf = (result: CheckResult) => result.findings.map((f) => f.ruleId);

describe('rate-limit/refused-calls on a controlled clock', () => {
  it('passes a limiter that counts refused calls: the last call of the first burst is 429, the second burst shares its window', async () => {
    const { result, seen } = await checkAgainst({ limiter: new SlidingWindowLimiter(LIMIT, WINDOW_MS) });
    expect(result.status).toBe('passed');
    expect(seen).toHaveLength(2 * (LIMIT + 1));
    expect(seen.slice(0, LIMIT + 1).filter((s) => s.status === 429)).toHaveLength(1);
    // Never the run's token: a burst without Authorization, then the fixed wrong token.
    expect(new Set(seen.map((s) => s.authorization))).toEqual(new Set([null, WRONG_TOKEN]));
    expect(result.notes?.some((n) => /41 × 429 where the limit leaves 1: .*conforms/.test(n))).toBe(true);
  });

  it('passes a limiter stricter for refused calls (10 a window): a 429 before call limit + 1 conforms', async () => {
    const { result } = await checkAgainst({ limiter: new SlidingWindowLimiter(10, WINDOW_MS) });
    expect(result.status).toBe('passed');
    expect(result.findings).toEqual([]);
  });

  it('fails RATE-LIMIT-REFUSED for each burst when refused calls are never counted (rate-limit-skips-refused)', async () => {
    const { result } = await checkAgainst({ limiter: null });
    expect(result.status).toBe('failed');
    expect(rulesOf(result)).toEqual(['RATE-LIMIT-REFUSED', 'RATE-LIMIT-REFUSED']);
    expect(result.findings[0]!.actual).toMatch(/^all 41 refused for the token \(401 ×41\) within/);
  });

  it('judges nothing, never fails, when the burst took longer than the window', async () => {
    const { result } = await checkAgainst({ limiter: null, spacingMs: 30 });
    expect(result.status).toBe('errored');
    expect(result.reason).toMatch(/took 1\.2\d* s, not less than the 1\.0 s window/);
  });

  it('leaves calls without a token that were served to AUTH-REQUIRED: that burst draws no finding, the wrong token\'s is still judged', async () => {
    const { result } = await checkAgainst({ limiter: null, served: true });
    expect(result.status).toBe('failed');
    expect(result.findings.map((f) => f.expected)).toEqual([expect.stringContaining(`with the wrong token "${WRONG_TOKEN}"`)]);
    // A limit of 60 for them all: the 41 served, then the wrong token's limited after 19.
    const counting = await checkAgainst({ limiter: new SlidingWindowLimiter(60, WINDOW_MS), served: true });
    expect(counting.result.status).toBe('errored');
    expect(counting.result.reason).toMatch(/41 calls without Authorization: 41 served \(2xx: AUTH-REQUIRED's/);
    expect(counting.result.findings).toEqual([]);
  });

  it('is skipped, sending nothing, when the profile turns the bursts off', async () => {
    const { result, seen } = await checkAgainst({ limiter: null }, profileAt(false));
    expect(result.status).toBe('skipped');
    expect(seen).toEqual([]);
  });
});

describe('the run-wide monitor and the refused calls\' bursts', () => {
  /** 60 served calls in a second, then the two bursts: 429s and a wrong token's 403s. */
  const monitored = (): RateMonitor => {
    const monitor = new RateMonitor();
    const at = 1_800_000_000_000;
    for (let i = 0; i < 60; i++) monitor.observe(call(at + i * 10, 200), 'paced');
    const wrong = (e: Exchange): Exchange => ({ ...e, request: { ...e.request, headers: { authorization: WRONG_TOKEN } } });
    for (let i = 0; i < 61; i++) monitor.observe(call(at + 700, i < 3 ? 429 : 401), REFUSED_SEGMENTS.missing);
    for (let i = 0; i < 61; i++) monitor.observe(wrong(call(at + 800, 403)), REFUSED_SEGMENTS.wrong);
    return monitor;
  };

  it('neither counts them toward RATE-LIMIT-CAP nor takes their 429s for unintended (RATE-LIMIT-QUOTA)', () => {
    const monitor = monitored();
    const result = monitor.check(60, 60_000, 'clockcheck run --only rate-limit');
    expect(result.status).toBe('passed');
    expect(monitor.unintended429).toBe(0);
    expect(result.notes![0]).toMatch(/^182 calls watched/);
  });

  it('still judges the same 429 outside those bursts as unintended', () => {
    const monitor = new RateMonitor();
    monitor.observe(call(1_800_000_000_000, 200), 'paced');
    monitor.observe(call(1_800_000_000_010, 429), 'paced');
    expect(monitor.unintended429).toBe(1);
  });
});
