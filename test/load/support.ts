import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type autocannon from 'autocannon';
import type { AutocannonRun } from '../../src/load/autocannon-run.ts';
import { resolveLoadOptions } from '../../src/load/load-options.ts';
import type { LoadReportContext } from '../../src/load/load-report.ts';
import { artilleryReportSchema, type ArtilleryReport } from '../../src/load/artillery-report.ts';

/** test/fixtures/artillery: reports of the real Artillery 2.0.21 and the scripts that made them (its README says how). */
export const ARTILLERY_FIXTURES = join(import.meta.dirname, '../fixtures/artillery');

/** A committed Artillery report (`limited`, `refused`, `http-pool`), through the schema `load --from-artillery` reads it with. */
export function artilleryFixture(name: string): ArtilleryReport {
  return artilleryReportSchema.parse(JSON.parse(readFileSync(join(ARTILLERY_FIXTURES, `${name}.report.json`), 'utf8')));
}

function histogram(values: Partial<autocannon.Histogram>): autocannon.Histogram {
  const zero = { total: 0, average: 0, mean: 0, stddev: 0, min: 0, max: 0, p0_001: 0, p0_01: 0, p0_1: 0, p1: 0, p2_5: 0, p10: 0, p25: 0, p50: 0, p75: 0, p90: 0, p97_5: 0, p99: 0, p99_9: 0, p99_99: 0, p99_999: 0 };
  return { ...zero, ...values };
}

/**
 * An autocannon run as runAutocannon returns it, from a status histogram: for tests of the pure layers.
 * `unanswered` defaults to `errors` (each lost one call); `stoppedAfterMs` (default 1000) is when
 * autocannon stopped, from the first request.
 */
export function fakeRun(spec: {
  statuses: Record<number, number>;
  errors?: number;
  timeouts?: number;
  durationMs?: number | null;
  unanswered?: number;
  stoppedAfterMs?: number;
}): AutocannonRun {
  const total = Object.values(spec.statuses).reduce((a, b) => a + b, 0);
  const byClass = (c: number) => Object.entries(spec.statuses).filter(([s]) => Math.floor(Number(s) / 100) === c).reduce((a, [, n]) => a + n, 0);
  const start = 1_700_000_000_000;
  const durationMs = spec.durationMs === undefined ? 1000 : spec.durationMs;
  const result = {
    title: undefined,
    url: 'https://127.0.0.1:1/api/public/breaks',
    socketPath: undefined,
    requests: { ...histogram({ total, mean: total, average: total, min: total, max: total }), sent: total + (spec.errors ?? 0) },
    latency: histogram({ min: 1, p0_001: 0, mean: 2.5, stddev: 1, p50: 2, p75: 3, p90: 4, p97_5: 6, p99: 9, p99_9: 15, max: 20 }),
    throughput: histogram({ total: total * 100 }),
    duration: 1,
    errors: spec.errors ?? 0,
    timeouts: spec.timeouts ?? 0,
    start: new Date(start),
    finish: new Date(start + (spec.stoppedAfterMs ?? 1000)),
    connections: 4,
    pipelining: 1,
    non2xx: total - byClass(2),
    '1xx': byClass(1),
    '2xx': byClass(2),
    '3xx': byClass(3),
    '4xx': byClass(4),
    '5xx': byClass(5),
    mismatches: 0,
    resets: 0,
    statusCodeStats: Object.fromEntries(Object.entries(spec.statuses).map(([s, count]) => [s, { count }])),
    samples: 1,
    sampleInt: 1000,
  } as autocannon.Result;
  return {
    result,
    exchanges: [],
    unanswered: spec.unanswered ?? spec.errors ?? 0,
    cappedByDuration: false,
    firstSentAtMs: durationMs === null && spec.unanswered === undefined ? null : start,
    lastReceivedAtMs: durationMs === null ? null : start + durationMs,
    failure: null,
    stoppedEarly: null,
    cut: 0,
    stalledMs: 0,
  };
}

/** The context of a report of an embedded run with the given endpoint and limit. */
export function reportContext(overrides: Partial<LoadReportContext> = {}): LoadReportContext {
  return {
    runId: '2026-11-22T00-00-00-000Z-load',
    toolVersion: '0.0.0-test',
    origin: 'https://127.0.0.1:8443',
    apiPrefix: '/api/public',
    embedded: true,
    options: resolveLoadOptions({ amount: '200', connections: '4' }),
    rateLimit: { limit: 50, windowMs: 60_000 },
    ...overrides,
  };
}

/** A plain-HTTP target on loopback that answers its first `answered` requests (an empty list) and holds every later one open, unanswered. */
export async function startHoldingTarget(answered: number): Promise<{ readonly origin: string; received(): number; close(): Promise<void> }> {
  let received = 0;
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    received++;
    req.resume();
    if (received > answered) {
      held.add(res);
      return;
    }
    const body = '{"items":[]}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => received,
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
