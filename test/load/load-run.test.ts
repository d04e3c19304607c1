import { afterEach, describe, expect, it } from 'vitest';
import { resolveLoadOptions } from '../../src/load/load-options.ts';
import { runLoad, type LoadRunOptions } from '../../src/load/load-run.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';

const LIMIT = { limit: 50, windowMs: 60_000 };
let server: ReferenceServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

function against(s: ReferenceServer, overrides: Partial<LoadRunOptions> = {}): LoadRunOptions {
  return {
    origin: s.origin,
    apiPrefix: '/api/public',
    token: s.token,
    tls: { caPem: s.tls.caPem, insecure: false },
    options: resolveLoadOptions({ amount: '200', connections: '4' }),
    rateLimit: LIMIT,
    embedded: true,
    toolVersion: '0.0.0-test',
    ...overrides,
  };
}

describe('runLoad against the reference server', () => {
  it('serves exactly the limit and answers the rest 429, and the verdict passes', async () => {
    server = await startReferenceServer({ rateLimit: LIMIT });
    const report = await runLoad(against(server));
    expect(report.statuses).toEqual([{ status: 200, count: 50 }, { status: 429, count: 150 }]);
    expect(report.counts).toEqual({ status2xx: 50, non2xx: 150, non2xxExcept429: 0, status4xx: 150, status5xx: 0, status429: 150, errors: 0, timeouts: 0 });
    expect(report.requests).toEqual({ sent: 200, completed: 200, unanswered: 0, unansweredBy: { timedOut: 0, lostWithConnection: 0, heldToEnd: 0 }, cutOffAtEnd: 0, silentBeforeStopMs: null });
    expect(report.verdict.status).toBe('passed');
    expect(report.verdict.limit).toMatchObject({ limit: 50, served: 50, maxServed: 50, beyondLimit: 0 });
    expect(report.exitCode).toBe(0);
    expect(report.target).toEqual({ origin: server.origin, apiPrefix: '/api/public', embedded: true });
    expect(report.endpoint).toEqual({ method: 'GET', path: '/breaks' });
    expect(report.options).toEqual({ connections: 4, durationSeconds: null, amount: 200, rate: null, rateLimit: LIMIT, ensure: [] });
    // The served calls' own latency, each timed by the run: what --ensure judges.
    const s = report.latencyServedMs;
    expect(s?.count).toBe(50);
    expect([s?.p50, s?.p90, s?.p95, s?.p99, s?.max]).toEqual([s?.p50, s?.p90, s?.p95, s?.p99, s?.max].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(s?.max).toBe(report.latencyByStatus.find((k) => k.kind === '2xx')?.max);
    const l = report.latencyMs;
    expect([l.min, l.p50, l.p75, l.p90, l.p97_5, l.p99, l.p99_9, l.max]).toEqual([l.min, l.p50, l.p75, l.p90, l.p97_5, l.p99, l.p99_9, l.max].sort((a, b) => (a ?? 0) - (b ?? 0)));
    expect(l.max).toBeGreaterThan(0);
    expect(report.durationMs).toBeGreaterThan(0);
    expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBe(report.durationMs);
    expect(report.throughput.requestsPerSecond).toBeCloseTo(200 / (report.durationMs / 1000), 0);
  });

  it('fails the verdict when the limiter answers 503 instead of 429', async () => {
    server = await startReferenceServer({ rateLimit: LIMIT, faults: ['rate-limit-wrong-status'] });
    const report = await runLoad(against(server));
    expect(report.statuses).toEqual([{ status: 200, count: 50 }, { status: 503, count: 150 }]);
    expect(report.counts.status5xx).toBe(150);
    expect(report.verdict.status).toBe('failed');
    expect(report.verdict.checks.find((c) => c.id === 'no-5xx')).toMatchObject({ status: 'failed', detail: '150 responses were 5xx (503 ×150)' });
    expect(report.exitCode).toBe(1);
  });

  it('fails the verdict when more calls are served than the stated limit allows', async () => {
    server = await startReferenceServer({ rateLimit: LIMIT, faults: ['rate-limit-race'] });
    const report = await runLoad(against(server, { options: resolveLoadOptions({ amount: '200', connections: '32' }) }));
    expect(report.counts.status2xx).toBeGreaterThan(50);
    expect(report.verdict.checks.find((c) => c.id === 'within-rate-limit')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/accepted beyond the limit/) });
    expect(report.exitCode).toBe(1);
  });

  it('runs for a duration at a paced rate, with throughput samples a second apart', async () => {
    server = await startReferenceServer({ rateLimit: null });
    const report = await runLoad(against(server, { options: resolveLoadOptions({ duration: '2s', connections: '2', rate: '100' }), rateLimit: null }));
    expect(report.options).toMatchObject({ durationSeconds: 2, amount: null, rate: 100 });
    expect(report.counts.status2xx).toBeGreaterThan(120);
    // autocannon stops at the first sample tick after the duration: up to one interval (1 s) late,
    // and its per-second rate lets a tick's calls go a little early (seen: 312 on a loaded machine).
    expect(report.counts.status2xx).toBeLessThanOrEqual(330);
    expect(report.throughput.samples.intervalMs).toBe(1000);
    expect(report.throughput.samples.count).toBeGreaterThanOrEqual(2);
    expect(report.verdict.checks.find((c) => c.id === 'within-rate-limit')?.status).toBe('skipped');
    // Each connection's call in flight when the time was up is cut off by the run, not judged.
    expect(report.requests.unanswered).toBe(0);
    expect(report.requests.cutOffAtEnd).toBeLessThanOrEqual(2);
    expect(report.requests.sent).toBe(report.requests.completed + report.requests.cutOffAtEnd);
    expect(report.exitCode).toBe(0);
  });

  it('refuses a certificate it cannot verify and sends nothing', async () => {
    server = await startReferenceServer({ rateLimit: LIMIT });
    await expect(runLoad(against(server, { tls: { insecure: false } }))).rejects.toMatchObject({ code: 'CLOCKCHECK_TARGET' });
  });
});
