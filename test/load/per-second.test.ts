import { describe, expect, it } from 'vitest';
import { PerSecondCounts } from '../../src/load/per-second.ts';
import { timelineChart } from '../../src/load/timeline-chart.ts';

describe('PerSecondCounts', () => {
  it('counts responses per second from the start, by kind, empty seconds included', () => {
    const counts = new PerSecondCounts();
    counts.start(10_000);
    counts.add(200, 10_100);
    counts.add(200, 10_999);
    counts.add(429, 11_000);
    counts.add(503, 13_500);
    expect(counts.series()).toEqual([
      { second: 0, served: 2, limited: 0, other: 0 },
      { second: 1, served: 0, limited: 1, other: 0 },
      { second: 2, served: 0, limited: 0, other: 0 },
      { second: 3, served: 0, limited: 0, other: 1 },
    ]);
  });
});

describe('timelineChart', () => {
  it('draws one column per second, stacked served / 429 / other, scaled to the busiest second', () => {
    const svg = String(timelineChart([
      { second: 0, served: 60, limited: 40, other: 0 },
      { second: 1, served: 0, limited: 50, other: 0 },
    ]));
    expect(svg.match(/data-second="/g)).toHaveLength(2);
    expect(svg).toContain('busiest 100');
    expect(svg.match(/data-kind="served"/g)).toHaveLength(1);
    expect(svg.match(/data-kind="429"/g)).toHaveLength(2);
    expect(svg).toContain('second 1: 0 served, 50 × 429, 0 other');
  });
});
