import { describe, expect, it } from 'vitest';
import { discoverRateLimit, parsePolicy } from '../../src/init/discover-rate-limit.ts';
import { isFound } from '../../src/init/discovery.ts';
import { exchangeFor } from '../scenarios/support.ts';

const SPEC = { limit: 60, windowMs: 60_000 };
const answer = (path: string, status: number, headers: Record<string, string> = {}) => exchangeFor({ method: 'GET', path }, { status, json: { items: [] }, headers });
const why = (d: ReturnType<typeof discoverRateLimit>) => (isFound(d) ? d.how : d.why);

describe('discoverRateLimit', () => {
  it('takes --rate-limit when given, and says the answers stated another limit', () => {
    const given = discoverRateLimit({ limit: 60, windowMs: 1000 }, [answer('/users', 200, { 'x-ratelimit-limit': '100' })], SPEC);
    expect(given.value).toEqual({ limit: 60, window: '1s' });
    expect(why(given)).toBe('from --rate-limit, which init paced itself by (the answers state X-RateLimit-Limit: 100)');
  });

  it("takes X-RateLimit-Limit from the answers, with §8's minute as its window, and names the answer", () => {
    const found = discoverRateLimit(undefined, [answer('/users', 200), answer('/users?active=1', 200, { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '97' })], SPEC);
    expect(found.value).toEqual({ limit: 100, window: '1m' });
    expect(why(found)).toBe("GET /api/public/users?active=1 → 200: X-RateLimit-Limit: 100; no header states the window, so it is §8's (1m)");
  });

  it('takes a RateLimit-Policy, which states the window too, over X-RateLimit-Limit', () => {
    const found = discoverRateLimit(undefined, [answer('/users', 200, { 'x-ratelimit-limit': '100', 'ratelimit-policy': '100;w=10' })], SPEC);
    expect(found.value).toEqual({ limit: 100, window: '10s' });
    expect(why(found)).toBe('GET /api/public/users → 200: RateLimit-Policy: 100;w=10');
  });

  it('mentions a 429 it got, with its Retry-After', () => {
    const found = discoverRateLimit(undefined, [answer('/users', 200, { 'x-ratelimit-limit': '30' }), answer('/breaks', 429, { 'x-ratelimit-limit': '30', 'retry-after': '12' })], SPEC);
    expect(found.value).toEqual({ limit: 30, window: '1m' });
    expect(why(found)).toMatch(/; GET \/api\/public\/breaks → 429 with Retry-After: 12$/);
  });

  it('leaves the key to the user when the answers disagree, when a Retry-After shows a longer window, or when a 429 came with no stated limit', () => {
    const disagree = discoverRateLimit(undefined, [answer('/users', 200, { 'x-ratelimit-limit': '60' }), answer('/breaks', 200, { 'x-ratelimit-limit': '120' })], SPEC);
    expect(disagree.value).toBeUndefined();
    expect(why(disagree)).toMatch(/^the answers disagree, X-RateLimit-Limit: 60 \(GET \/api\/public\/users → 200\), X-RateLimit-Limit: 120 /);
    const longer = discoverRateLimit(undefined, [answer('/users', 429, { 'x-ratelimit-limit': '60', 'retry-after': '3600' })], SPEC);
    expect(longer.value).toBeUndefined();
    expect(why(longer)).toContain('with Retry-After: 3600');
    expect(why(longer)).toContain("a window longer than §8's minute");
    const throttled = discoverRateLimit(undefined, [answer('/users', 429)], SPEC);
    expect(throttled.value).toBeUndefined();
    expect(why(throttled)).toMatch(/^GET \/api\/public\/users → 429 \(no Retry-After\) although init paced itself at §8's 60 calls a minute, and no answer states the limit: the target's limit is lower, or other clients share the token/);
  });

  it("says the spec's 60 a minute applies when no answer states a limit", () => {
    const none = discoverRateLimit(undefined, [answer('/users', 200, { 'x-ratelimit-limit': 'many' })], SPEC);
    expect(none.value).toBeUndefined();
    expect(why(none)).toMatch(/^no answer states the target's limit \(no X-RateLimit-Limit or RateLimit-Policy header\) and no --rate-limit was given: the spec's 60 calls a minute \(§8\) applies$/);
  });
});

describe('parsePolicy', () => {
  it('reads the first policy of either draft form, and nothing without a window', () => {
    expect(parsePolicy('60;w=60')).toEqual({ limit: 60, windowMs: 60_000 });
    expect(parsePolicy('"default";q=100;w=10, "daily";q=1000;w=86400')).toEqual({ limit: 100, windowMs: 10_000 });
    expect(parsePolicy('60')).toBeNull();
    expect(parsePolicy('abc;w=60')).toBeNull();
  });
});
