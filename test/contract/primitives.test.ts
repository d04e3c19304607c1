import { describe, expect, it } from 'vitest';
import * as primitives from '../../src/contract/primitives.ts';

describe('primitives (zod schemas of the spec formats)', () => {
  it.each([
    ['usDate', '02/29/2024', '02/29/2023'],
    ['clockTime', '23:59', '24:00'],
    ['offsetDateTime', '2026-07-01T12:00:00+05:45', '2026-07-01T12:00:00Z'],
    ['naiveDateTime', '2026-07-01T12:00:00', '2026-07-01T12:00:00+00:00'],
    ['ymdDate', '2026-01-31', '2026-02-31'],
    ['dateRange', '2026-01-01,2026-01-31', '2026-01-01, 2026-01-31'],
    ['timezoneName', 'Asia/Kathmandu', 'CST'],
    ['weekdayList', 'monday,wednesday', 'Monday'],
  ] as const)('%s accepts %j and rejects %j', (name, good, bad) => {
    const schema = primitives[name];
    expect(schema.safeParse(good).success).toBe(true);
    expect(schema.safeParse(bad).success).toBe(false);
    expect(schema.safeParse(42).success).toBe(false);
  });

  it.each([
    ['integer', 3, 3.5],
    ['integerList', [1, 2], [1, '2']],
  ] as const)('%s accepts %j and rejects %j', (name, good, bad) => {
    expect(primitives[name].safeParse(good).success).toBe(true);
    expect(primitives[name].safeParse(bad).success).toBe(false);
  });
});
