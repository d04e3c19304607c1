import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.ts';
import { holds, parseEnsure, parseThreshold } from '../../src/load/ensure.ts';

describe('parseThreshold', () => {
  it('reads latency limits in ms (bare numbers too) or s, as k6 does', () => {
    expect(parseThreshold('p99<=500ms')).toEqual({ text: 'p99<=500ms', quantity: 'p99', operator: '<=', limit: 500, unit: 'ms' });
    expect(parseThreshold('p95 < 0.25s')).toEqual({ text: 'p95<0.25s', quantity: 'p95', operator: '<', limit: 250, unit: 'ms' });
    expect(parseThreshold('max<2000')).toMatchObject({ quantity: 'max', limit: 2000, unit: 'ms' });
    expect(parseThreshold('MEAN<=1.5ms')).toMatchObject({ quantity: 'mean', limit: 1.5, unit: 'ms' });
    for (const q of ['p50', 'p90']) expect(parseThreshold(`${q}>1ms`)).toMatchObject({ quantity: q, operator: '>' });
  });

  it('reads counts as a number of requests or a percent of those sent, and rps as responses per second', () => {
    expect(parseThreshold('errors<=1%')).toMatchObject({ quantity: 'errors', limit: 1, unit: 'percent' });
    expect(parseThreshold('unanswered<=0')).toMatchObject({ quantity: 'unanswered', limit: 0, unit: 'requests' });
    expect(parseThreshold('timeouts<5')).toMatchObject({ quantity: 'timeouts', operator: '<', limit: 5, unit: 'requests' });
    expect(parseThreshold('non2xx<=0.5%')).toMatchObject({ quantity: 'non2xx', limit: 0.5, unit: 'percent' });
    expect(parseThreshold('limited>=10%')).toMatchObject({ quantity: 'limited', operator: '>=', unit: 'percent' });
    expect(parseThreshold('rps>=100')).toMatchObject({ quantity: 'rps', operator: '>=', limit: 100, unit: 'per-second' });
    expect(parseEnsure(['p99<=500ms', 'errors<=1%']).map((t) => t.quantity)).toEqual(['p99', 'errors']);
  });

  it.each([
    ['p98<=500ms', /^--ensure "p98<=500ms": no quantity "p98" \(did you mean p99\?\); one of p50, p90, p95, p99, max, mean, errors, unanswered, timeouts, non2xx, limited, rps$/],
    ['p(95)<200', /no quantity "p\(95\)" \(did you mean p95\?\)/],
    ['p(99.9)<=1s', /no quantity "p\(99\.9\)" \(did you mean p99\?\)/],
    ['avg<200', /no quantity "avg" \(did you mean mean\?\)/],
    ['erors<=1%', /no quantity "erors" \(did you mean errors\?\)/],
    ['p99=<500ms', /operator "=<" is not one of < <= > >= \(did you mean <=\?\)/],
    ['p99==500ms', /operator "==" is not one of < <= > >=/],
    ['p99<=', /the value is missing/],
    ['p99', /not QUANTITY OP VALUE, e\.g\. p99<=500ms, errors<=1%, rps>=100/],
    ['p99<=fast', /"fast" is not a number with a unit; write p99<=500ms or p99<=0\.5s/],
    ['p99<=5%', /p99 is a latency, not a share/],
    ['p99<=-5ms', /"-5ms" is not a number/],
    ['errors<=5ms', /errors is a number of requests, not a time; write errors<=10 or errors<=1%/],
    ['errors<=150%', /150% is more than every request/],
    ['timeouts<=2.5', /give a whole number, or a percent such as 2\.5%/],
    ['rps>=5%', /rps is responses per second, not a share/],
  ])('refuses "%s" with a UsageError naming it and saying what to write', (text, message) => {
    expect(() => parseThreshold(text)).toThrow(UsageError);
    expect(() => parseThreshold(text)).toThrow(message);
  });
});

describe('holds', () => {
  it('applies each operator, the limit itself included only by <= and >=', () => {
    expect([holds(5, '<', 5), holds(5, '<=', 5), holds(5, '>', 5), holds(5, '>=', 5)]).toEqual([false, true, false, true]);
    expect([holds(4, '<', 5), holds(6, '>', 5)]).toEqual([true, true]);
  });
});
