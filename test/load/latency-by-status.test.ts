import { describe, expect, it } from 'vitest';
import { LatencyByStatus } from '../../src/load/latency-by-status.ts';

describe('LatencyByStatus', () => {
  it('summarises each kind of answer apart, in a fixed order, with nearest-rank percentiles', () => {
    const latencies = new LatencyByStatus();
    for (let i = 1; i <= 100; i++) latencies.add(200, i);
    for (const ms of [0.5, 0.25, 0.75]) latencies.add(429, ms);
    latencies.add(503, 40);
    latencies.add(404, 2);
    expect(latencies.summary()).toEqual([
      { kind: '2xx', count: 100, p50: 50, p99: 99, max: 100 },
      { kind: '429', count: 3, p50: 0.5, p99: 0.75, max: 0.75 },
      { kind: '4xx', count: 1, p50: 2, p99: 2, max: 2 },
      { kind: '5xx', count: 1, p50: 40, p99: 40, max: 40 },
    ]);
  });
  it('is empty before any response', () => {
    expect(new LatencyByStatus().summary()).toEqual([]);
  });
});
