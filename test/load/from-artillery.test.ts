import { describe, expect, it } from 'vitest';
import { buildArtilleryLoadReport, type ArtilleryReportContext } from '../../src/load/from-artillery.ts';
import { renderLoadHtml } from '../../src/load/load-html.ts';
import { resolveLoadOptions, type LoadOptionsInput } from '../../src/load/load-options.ts';
import { LOAD_REPORT_SCHEMA_VERSION } from '../../src/load/load-report.ts';
import { loadSummary } from '../../src/load/load-summary.ts';

import { artilleryFixture as fixture } from './support.ts';

function context(options: LoadOptionsInput, overrides: Partial<ArtilleryReportContext> = {}): ArtilleryReportContext {
  return {
    runId: '2026-11-26T12-38-00-000Z-load',
    toolVersion: '0.0.0-test',
    origin: 'https://127.0.0.1:39675',
    apiPrefix: '/api/public',
    options: resolveLoadOptions(options),
    rateLimit: null,
    ...overrides,
  };
}

describe('an Artillery report as load.json', () => {
  const limited = buildArtilleryLoadReport(fixture('limited'), context({ amount: '200', connections: '4', ensure: ['p99<=2s', 'limited>=50%'] }, { rateLimit: { limit: 50, windowMs: 60_000 } }));

  it('is marked as Artillery\'s, in the same schema as load\'s own', () => {
    expect(limited.schemaVersion).toBe(LOAD_REPORT_SCHEMA_VERSION);
    expect(limited.source).toBe('artillery');
    expect(limited.target).toEqual({ origin: 'https://127.0.0.1:39675', apiPrefix: '/api/public', embedded: false });
    expect(limited.endpoint).toEqual({ method: 'GET', path: '/breaks' });
    expect(limited.options).toEqual({ connections: 4, durationSeconds: null, amount: 200, rate: null, rateLimit: { limit: 50, windowMs: 60_000 }, ensure: ['p99<=2s', 'limited>=50%'] });
  });

  it('counts the calls and the answers by status as Artillery counted them', () => {
    expect(limited.requests).toEqual({ sent: 200, completed: 200, unanswered: 0, unansweredBy: { timedOut: 0, lostWithConnection: 0, heldToEnd: 0 }, cutOffAtEnd: 0, silentBeforeStopMs: null });
    expect(limited.statuses).toEqual([{ status: 200, count: 50 }, { status: 429, count: 150 }]);
    expect(limited.counts).toEqual({ status2xx: 50, non2xx: 150, non2xxExcept429: 0, status4xx: 150, status5xx: 0, status429: 150, errors: 0, timeouts: 0 });
  });

  it('takes the latency of every answer and of the served calls from http.response_time and its 2xx, and shows 4xx as 429 when each was one', () => {
    const raw = fixture('limited').aggregate.summaries;
    expect(limited.latencyMs).toMatchObject({ p50: raw['http.response_time']?.p50, p99: raw['http.response_time']?.p99, p99_9: raw['http.response_time']?.p999, max: raw['http.response_time']?.max, p97_5: null, stddev: null });
    expect(limited.latencyServedMs).toEqual({ count: 50, mean: raw['http.response_time.2xx']?.mean, p50: raw['http.response_time.2xx']?.p50, p90: raw['http.response_time.2xx']?.p90, p95: raw['http.response_time.2xx']?.p95, p99: raw['http.response_time.2xx']?.p99, max: raw['http.response_time.2xx']?.max });
    expect(limited.latencyByStatus.map((s) => [s.kind, s.count])).toEqual([['2xx', 50], ['429', 150]]);
  });

  it('judges the statuses, the errors and --ensure, and says what needs each call\'s time: not judged', () => {
    expect(limited.verdict.checks.map((c) => [c.id, c.status])).toEqual([
      ['no-5xx', 'passed'],
      ['all-answered', 'passed'],
      ['within-rate-limit', 'skipped'],
      ['ran-to-end', 'skipped'],
      ['ensure', 'passed'],
      ['ensure', 'passed'],
    ]);
    expect(limited.verdict.checks[2]?.detail).toMatch(/^not judged: the rate-limit reading counts the calls served .* from each call's time, which Artillery's report does not keep$/);
    expect(limited.notJudged.map((line) => line.split(':')[0])).toEqual(['within-rate-limit', 'per-second throughput', 'unanswered requests', 'ran-to-end']);
    expect(limited.throughput.perSecond).toEqual([]);
    expect(limited.exitCode).toBe(0);
  });

  it('fails on calls that got no answer: each error of Artillery\'s a call lost', () => {
    const refused = buildArtilleryLoadReport(fixture('refused'), context({ amount: '20', connections: '2' }));
    expect(refused.requests).toMatchObject({ sent: 2, completed: 0, unanswered: 2, unansweredBy: { timedOut: 0, lostWithConnection: 2, heldToEnd: 0 } });
    expect(refused.counts).toMatchObject({ errors: 2, timeouts: 0 });
    expect(refused.verdict.checks.find((c) => c.id === 'all-answered')).toMatchObject({ status: 'failed', detail: '2 of 2 requests got no answer (2 lost with their connections); 2 transport errors' });
    expect(refused.latencyServedMs).toBeNull();
    // No limit was given: the rate-limit reading is not among what could not be judged.
    expect(refused.notJudged.some((line) => line.startsWith('within-rate-limit'))).toBe(false);
    expect(refused.exitCode).toBe(1);
  });

  it('fails a latency threshold whose figures Artillery could not compute, saying why (a NaN mean on a shared pool)', () => {
    const pooled = buildArtilleryLoadReport(fixture('http-pool'), context({ duration: '3s', rate: '200', connections: '4', ensure: ['p99<=1s', 'errors<=0'] }));
    expect(pooled.latencyServedMs).toBeNull();
    const p99 = pooled.verdict.checks.find((c) => c.title === 'p99<=1s');
    expect(p99).toMatchObject({ status: 'failed', threshold: { measured: null } });
    expect(p99?.detail).toMatch(/^Artillery's http\.response_time\.2xx has no mean \(NaN or absent: some of its 504 served calls were not timed, as on a shared http\.pool\): no latency to judge; limit <= 1 s$/);
    expect(pooled.verdict.checks.find((c) => c.title === 'errors<=0')?.status).toBe('passed');
  });

  it('renders load.html and the terminal summary with what was not judged, and no bar for a percentile Artillery does not give', () => {
    const page = renderLoadHtml(limited);
    expect(page).toContain('Artillery: its JSON report, read by clockcheck load --from-artillery');
    expect(page).toMatch(/data-testid="not-judged"><li>not judged: per-second throughput: /);
    // The skipped checks say theirs in the verdict, not twice.
    expect(page.match(/not judged: /g)).toHaveLength(4);
    expect([...page.matchAll(/data-percentile="([^"]+)"/g)].map((m) => m[1])).toEqual(['p50', 'p75', 'p90', 'p99', 'p99_9', 'max']);
    expect(page).toMatch(/<p class="note">Of every response, 2xx and 429 alike, Artillery&#39;s http.response_time: from each call written to its answer&#39;s first byte\. min [\d.]+ ms · mean [\d.]+ ms<\/p>/);
    expect(page).toContain('1 of Artillery&#39;s reporting periods of 10.0 s');
    const text = loadSummary(limited, { color: false });
    expect(text).toContain('Latency   p50 ');
    expect(text).not.toContain('p97.5');
    expect(text).toContain("Source    Artillery's report (load --from-artillery)");
    // Said once: the skipped checks say theirs, the list the rest.
    expect(text.match(/not judged: /g)).toHaveLength(4);
    expect(text.trimEnd().split('\n').at(-1)).toBe('PASSED');
  });
});
