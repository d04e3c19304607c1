import { describe, expect, it } from 'vitest';
import { resolveLoadOptions } from '../../src/load/load-options.ts';
import { buildLoadReport } from '../../src/load/load-report.ts';
import { renderLoadHtml } from '../../src/load/load-html.ts';
import { loadSummary } from '../../src/load/load-summary.ts';
import { fakeRun, reportContext } from './support.ts';

describe('buildLoadReport', () => {
  it('turns autocannon\'s status code stats into a histogram, lowest code first, and counts the classes', () => {
    const report = buildLoadReport(fakeRun({ statuses: { 429: 150, 200: 50 } }), reportContext());
    expect(report.statuses).toEqual([{ status: 200, count: 50 }, { status: 429, count: 150 }]);
    expect(report.counts).toEqual({ status2xx: 50, non2xx: 150, non2xxExcept429: 0, status4xx: 150, status5xx: 0, status429: 150, errors: 0, timeouts: 0 });
    expect(report.verdict.status).toBe('passed');
    expect(report.exitCode).toBe(0);
  });

  it('reports latency from the first percentile up, min never above p50 (sub-millisecond calls count as 0)', () => {
    const { latencyMs } = buildLoadReport(fakeRun({ statuses: { 200: 10 } }), reportContext());
    expect(latencyMs).toEqual({ min: 0, mean: 2.5, stddev: 1, p50: 2, p75: 3, p90: 4, p97_5: 6, p99: 9, p99_9: 15, max: 20 });
  });

  it('measures the run from the first request to the last response, and throughput over that span', () => {
    const report = buildLoadReport(fakeRun({ statuses: { 200: 300 }, durationMs: 1500 }), reportContext({ rateLimit: null }));
    expect(report.durationMs).toBe(1500);
    expect(report.throughput.requestsPerSecond).toBe(200);
    expect(report.finishedAt).toBe(new Date(Date.parse(report.startedAt) + 1500).toISOString());
  });

  it('fails with exit code 1 on 5xx or errors', () => {
    expect(buildLoadReport(fakeRun({ statuses: { 200: 50, 503: 150 } }), reportContext()).exitCode).toBe(1);
    expect(buildLoadReport(fakeRun({ statuses: { 200: 10 }, errors: 2, timeouts: 1 }), reportContext()).exitCode).toBe(1);
  });

  it('records the options the run was made with', () => {
    const options = resolveLoadOptions({ duration: '30s', connections: '8', rate: '40', endpoint: 'GET:/users?page_size=100' });
    const report = buildLoadReport(fakeRun({ statuses: { 200: 1 } }), reportContext({ options, rateLimit: null }));
    expect(report.endpoint).toEqual({ method: 'GET', path: '/users?page_size=100' });
    expect(report.options).toEqual({ connections: 8, durationSeconds: 30, amount: null, rate: 40, rateLimit: null, ensure: [] });
  });

  it('counts the requests sent as those answered and those not, and fails on calls held until the run stopped', () => {
    // A 1 s timed run: one call answered in 17 ms, eight held to the end (the target silent 983 ms).
    const options = resolveLoadOptions({ duration: '1s', connections: '9' });
    const report = buildLoadReport(fakeRun({ statuses: { 200: 1 }, durationMs: 17, unanswered: 8, stoppedAfterMs: 1000 }), reportContext({ options, rateLimit: null }));
    expect(report.requests).toEqual({ sent: 9, completed: 1, unanswered: 8, unansweredBy: { timedOut: 0, lostWithConnection: 0, heldToEnd: 8 }, cutOffAtEnd: 0, silentBeforeStopMs: 983 });
    expect(report.verdict.checks.find((c) => c.id === 'all-answered')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/^8 of 9 requests got no answer \(8 still waiting when the run stopped/) });
    expect(report.exitCode).toBe(1);
    // The rate is over the run until it stopped, not the 17 ms up to the one answer.
    expect(report.throughput.requestsPerSecond).toBe(1);
  });

  it('does not judge the calls a timed run cut off while the target was answering', () => {
    const options = resolveLoadOptions({ duration: '1s', connections: '4' });
    const report = buildLoadReport(fakeRun({ statuses: { 200: 400 }, durationMs: 998, unanswered: 4, stoppedAfterMs: 1000 }), reportContext({ options, rateLimit: null }));
    expect(report.requests).toMatchObject({ sent: 404, completed: 400, unanswered: 0, cutOffAtEnd: 4 });
    expect(report.exitCode).toBe(0);
  });

  it('judges --ensure against the served calls\' own latency and the counts, and records the thresholds', () => {
    const options = resolveLoadOptions({ amount: '200', connections: '4', ensure: ['p99<=5ms', 'non2xx<=1%', 'limited>=50%'] });
    const servedLatency = { count: 50, mean: 3, p50: 2.5, p90: 4, p95: 5, p99: 9.75, max: 12 };
    const report = buildLoadReport(fakeRun({ statuses: { 200: 50, 429: 148, 404: 2 } }), reportContext({ options, servedLatency }));
    expect(report.options.ensure).toEqual(['p99<=5ms', 'non2xx<=1%', 'limited>=50%']);
    expect(report.latencyServedMs).toEqual(servedLatency);
    expect(report.counts).toMatchObject({ non2xx: 150, non2xxExcept429: 2 });
    expect(report.verdict.checks.filter((c) => c.id === 'ensure').map((c) => [c.title, c.status])).toEqual([
      ['p99<=5ms', 'failed'],
      ['non2xx<=1%', 'passed'],
      ['limited>=50%', 'passed'],
    ]);
    expect(report.exitCode).toBe(1);
  });
});

describe('load.html and the terminal summary', () => {
  const hostile = resolveLoadOptions({ amount: '10', endpoint: 'GET:/breaks?q="><script>alert(1)</script><svg/onload=alert(2)>' });
  const report = buildLoadReport(fakeRun({ statuses: { 200: 50, 429: 150, 503: 3 }, errors: 2, timeouts: 1 }), reportContext({ options: hostile }));

  it('escapes text from the command line: no markup gets through', () => {
    const page = renderLoadHtml(report);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('<svg/onload');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('is self-contained: no external reference, a CSP that loads nothing', () => {
    const page = renderLoadHtml(report);
    expect(page).not.toMatch(/\b(src|href)=/);
    // The attribute is escaped (' as &#39;); the browser test sees it applied.
    expect(page).toMatch(/Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-[A-Za-z0-9+/=]+&#39;"/);
  });

  it('draws one bar per percentile and max, and one per status code plus errors', () => {
    const page = renderLoadHtml(report);
    expect(page.match(/data-percentile="/g)).toHaveLength(7);
    expect([...page.matchAll(/data-status="([^"]+)"/g)].map((m) => m[1])).toEqual(['200', '429', '503', 'error']);
  });

  it('shows latency per kind of answer, so a slow 429 stands out next to the served calls', () => {
    const byStatus = [
      { kind: '2xx' as const, count: 50, p50: 2.5, p99: 9.75, max: 12 },
      { kind: '429' as const, count: 150, p50: 0.5, p99: 1.25, max: 3 },
    ];
    const split = buildLoadReport(fakeRun({ statuses: { 200: 50, 429: 150 } }), reportContext({ latencyByStatus: byStatus }));
    expect(split.latencyByStatus).toEqual(byStatus);
    expect(renderLoadHtml(split)).toMatch(/data-testid="latency-by-status".*<td class="mono">429<\/td><td class="num">150<\/td><td class="num">0\.50<\/td><td class="num">1\.25<\/td>/s);
    expect(loadSummary(split, { color: false })).toContain('By answer 2xx p50 2.5 p99 9.75   429 p50 0.5 p99 1.25  (ms)');
    expect(renderLoadHtml(report)).not.toContain('latency-by-status');
  });

  it('prints the histogram, the failed checks and FAILED last', () => {
    const text = loadSummary(report, { color: false });
    expect(text).toContain('Statuses  200 ×50   429 ×150   503 ×3   (153 non-2xx, 3 besides 429)');
    expect(text).toMatch(/✗ No 5xx response\s+3 responses were 5xx \(503 ×3\)/);
    expect(text).toMatch(/✗ Every request answered\s+2 of 205 requests got no answer \(1 timed out, 1 lost with its connection\)/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('FAILED');
  });

  it('shows the unanswered requests, timeouts and non-2xx in the terminal and the page', () => {
    const text = loadSummary(report, { color: false });
    expect(text).toContain('Requests  205 sent   203 answered   2 unanswered (1 timed out, 1 lost with their connection)');
    expect(text).toContain('Errors    2 (1 timeouts)');
    const page = renderLoadHtml(report);
    expect(page).toMatch(/data-testid="count-unanswered"><b>2<\/b> unanswered/);
    expect(page).toMatch(/data-testid="count-timeouts"><b>1<\/b> timeouts/);
    expect(page).toMatch(/data-testid="count-non2xx"><b>153<\/b> non-2xx/);
    expect(page).toContain('205 sent · 203 answered · 2 unanswered (1 timed out, 1 lost with their connection, 0 held until the run stopped) · 3 answers neither 2xx nor 429');
  });

  it('puts each --ensure line in the verdict, with the served calls\' latency it was judged on', () => {
    const options = resolveLoadOptions({ amount: '10', ensure: ['p95<=4ms'] });
    const servedLatency = { count: 50, mean: 3, p50: 2.5, p90: 4, p95: 5, p99: 9.75, max: 12 };
    const judged = buildLoadReport(fakeRun({ statuses: { 200: 50 } }), reportContext({ options, servedLatency }));
    expect(loadSummary(judged, { color: false })).toMatch(/✗ p95<=4ms\s+p95 5 ms over 50 served calls; limit <= 4 ms/);
    expect(loadSummary(judged, { color: false })).toContain('Served    p50 2.5  p90 4  p95 5  p99 9.75  max 12  mean 3  (ms, the 50 2xx, each timed)');
    const page = renderLoadHtml(judged);
    expect(page).toMatch(/<li data-check-id="ensure"><span class="badge status-failed">failed<\/span><span class="check-title">p95&lt;=4ms<\/span><span class="rule-chip">--ensure<\/span>/);
    expect(page).toMatch(/data-testid="latency-served".*<td class="num">50<\/td><td class="num">2\.50<\/td><td class="num">4\.00<\/td><td class="num">5\.00<\/td>/s);
  });
});
