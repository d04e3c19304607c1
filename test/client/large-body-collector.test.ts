import { describe, expect, it } from 'vitest';
import { LARGE_BODY_BUDGET_BYTES, LARGE_BODY_BYTES, LargeBodyCollector } from '../../src/client/large-body-collector.ts';

describe('LargeBodyCollector', () => {
  it('never collects for small bodies, however many', () => {
    let collected = 0;
    const collector = new LargeBodyCollector(() => collected++);
    for (let i = 0; i < 10_000; i++) collector.note(LARGE_BODY_BYTES - 1);
    expect(collected).toBe(0);
  });

  it('collects once per budget of large bodies', () => {
    let collected = 0;
    const collector = new LargeBodyCollector(() => collected++);
    const body = 1024 * 1024;
    const perBudget = Math.ceil(LARGE_BODY_BUDGET_BYTES / body);
    for (let i = 0; i < perBudget - 1; i++) collector.note(body);
    expect(collected).toBe(0);
    collector.note(body);
    expect(collected).toBe(1);
    for (let i = 0; i < perBudget * 3; i++) collector.note(body);
    expect(collected).toBe(4);
    expect(collector.collections).toBe(4);
  });

  it('does nothing where no collector can be had', () => {
    const collector = new LargeBodyCollector(null);
    collector.note(LARGE_BODY_BUDGET_BYTES * 2);
    expect(collector.collections).toBe(0);
  });

  it('settles: collects now when a large body was noted since the last collection, else not', () => {
    let collected = 0;
    const collector = new LargeBodyCollector(() => collected++);
    collector.settle();
    collector.note(LARGE_BODY_BYTES - 1);
    collector.settle();
    expect(collected).toBe(0);
    collector.note(LARGE_BODY_BYTES);
    collector.settle();
    expect(collected).toBe(1);
    collector.settle();
    expect(collected).toBe(1);
    new LargeBodyCollector(null).settle();
  });
});
