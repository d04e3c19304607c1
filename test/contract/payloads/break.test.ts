import { describe, expect, it } from 'vitest';
import {
  BREAK_FIELDS,
  breakCreatePayload,
  breakIntervalViolations,
  breakViolations,
  breaksListBody,
  selectedBreakIds,
  type TimesheetInterval,
} from '../../../src/contract/payloads/break.ts';
import { broken, edit } from '../support.ts';

const BASE = { timesheet_id: 10, break_rule_id: 2, start: '2026-07-01T12:00:00-05:00', end: '2026-07-01T12:30:00-05:00' };

describe('breakViolations', () => {
  it('finds nothing wrong with the valid baseline', () => {
    expect(breakViolations(BASE)).toEqual([]);
  });

  it.each([
    { why: 'timesheet_id omitted', change: { timesheet_id: undefined }, rule: 'BRK-CREATE-REQUIRED', field: 'timesheet_id' },
    { why: 'break_rule_id omitted', change: { break_rule_id: undefined }, rule: 'BRK-CREATE-REQUIRED', field: 'break_rule_id' },
    { why: 'start omitted', change: { start: undefined }, rule: 'BRK-CREATE-REQUIRED', field: 'start' },
    { why: 'end omitted', change: { end: undefined }, rule: 'BRK-CREATE-REQUIRED', field: 'end' },
    { why: 'end null', change: { end: null }, rule: 'BRK-CREATE-REQUIRED', field: 'end' },
    { why: 'timesheet_id a string', change: { timesheet_id: '10' }, rule: 'BRK-CREATE-REQUIRED', field: 'timesheet_id' },
    { why: 'break_rule_id a fraction', change: { break_rule_id: 2.5 }, rule: 'BRK-CREATE-REQUIRED', field: 'break_rule_id' },
    { why: 'start without offset', change: { start: '2026-07-01T12:00:00' }, rule: 'BRK-DATETIME-FORMAT', field: 'start' },
    { why: 'start with Z', change: { start: '2026-07-01T17:00:00Z' }, rule: 'BRK-DATETIME-FORMAT', field: 'start' },
    { why: 'end with an offset without colon', change: { end: '2026-07-01T12:30:00-0500' }, rule: 'BRK-DATETIME-FORMAT', field: 'end' },
    { why: 'end hour 24', change: { end: '2026-07-01T24:00:00-05:00' }, rule: 'BRK-DATETIME-FORMAT', field: 'end' },
    { why: 'start a number', change: { start: 1782925200 }, rule: 'BRK-DATETIME-FORMAT', field: 'start' },
  ])('with $why, breaks only $rule on $field', ({ change, rule, field }) => {
    expect(broken(breakViolations(edit(BASE, change)))).toEqual([`${rule}@${field}`]);
  });

  it('declares the four fields of §4.4, all required on create', () => {
    expect(Object.keys(BREAK_FIELDS).sort()).toEqual(['break_rule_id', 'end', 'start', 'timesheet_id']);
    expect(Object.values(BREAK_FIELDS).every((f) => f.requiredOn.includes('create'))).toBe(true);
  });
});

describe('breakIntervalViolations', () => {
  const closed: TimesheetInterval = { start: '2026-07-01T09:00:00-05:00', end: '2026-07-01T17:00:00-05:00' };
  const openNull: TimesheetInterval = { start: '2026-07-01T09:00:00-05:00', end: null };
  const openAbsent: TimesheetInterval = { start: '2026-07-01T09:00:00-05:00' };

  it.each([
    ['a break inside a closed timesheet', '2026-07-01T12:00:00-05:00', '2026-07-01T12:30:00-05:00', closed],
    ['a break on the exact bounds of a closed timesheet', '2026-07-01T09:00:00-05:00', '2026-07-01T17:00:00-05:00', closed],
    ['a break written in another offset, inside', '2026-07-01T10:00:00-04:00', '2026-07-01T11:00:00-04:00', closed],
    ['a break inside an open timesheet (end null)', '2026-07-01T12:00:00-05:00', '2026-07-01T12:30:00-05:00', openNull],
    ['a break inside an open timesheet (end absent)', '2026-07-01T12:00:00-05:00', '2026-07-01T12:30:00-05:00', openAbsent],
    ['a break long after the start of an open timesheet', '2026-07-02T03:00:00-05:00', '2026-07-02T03:30:00-05:00', openNull],
    ['a zero-length break', '2026-07-01T12:00:00-05:00', '2026-07-01T12:00:00-05:00', closed],
  ])('accepts %s', (_why, start, end, sheet) => {
    expect(breakIntervalViolations(start, end, sheet)).toEqual([]);
  });

  it.each([
    ['a break starting before a closed timesheet', '2026-07-01T08:59:00-05:00', '2026-07-01T09:30:00-05:00', closed, 'BRK-WITHIN-TIMESHEET@start'],
    ['a break ending after a closed timesheet', '2026-07-01T16:45:00-05:00', '2026-07-01T17:01:00-05:00', closed, 'BRK-WITHIN-TIMESHEET@end'],
    ['a break around a closed timesheet', '2026-07-01T08:00:00-05:00', '2026-07-01T18:00:00-05:00', closed, 'BRK-WITHIN-TIMESHEET@start'],
    ['a break wholly before a closed timesheet', '2026-07-01T07:00:00-05:00', '2026-07-01T07:30:00-05:00', closed, 'BRK-WITHIN-TIMESHEET@start'],
    ['a break wholly after a closed timesheet', '2026-07-01T18:00:00-05:00', '2026-07-01T18:30:00-05:00', closed, 'BRK-WITHIN-TIMESHEET@end'],
    ['a break written in another offset, starting before', '2026-07-01T09:30:00-04:00', '2026-07-01T11:00:00-04:00', closed, 'BRK-WITHIN-TIMESHEET@start'],
    ['a break starting before an open timesheet (end null)', '2026-07-01T08:30:00-05:00', '2026-07-01T09:30:00-05:00', openNull, 'BRK-WITHIN-TIMESHEET@start'],
    ['a break starting before an open timesheet (end absent)', '2026-07-01T08:30:00-05:00', '2026-07-01T09:30:00-05:00', openAbsent, 'BRK-WITHIN-TIMESHEET@start'],
    ['a break that ends before it starts', '2026-07-01T12:30:00-05:00', '2026-07-01T12:00:00-05:00', closed, 'BRK-END-AFTER-START@end'],
  ])('rejects %s', (_why, start, end, sheet, expected) => {
    expect(broken(breakIntervalViolations(start, end, sheet))).toEqual([expected]);
  });

  it.each([
    ['an unparseable break start', 'soon', '2026-07-01T12:30:00-05:00', closed],
    ['an unparseable break end', '2026-07-01T12:00:00-05:00', '2026-07-01T12:30:00', closed],
    ['an unparseable timesheet start', '2026-07-01T12:00:00-05:00', '2026-07-01T12:30:00-05:00', { start: '07/01/2026' }],
  ])('leaves %s to the format rule', (_why, start, end, sheet) => {
    expect(breakIntervalViolations(start, end, sheet)).toEqual([]);
  });
});

describe('GET /breaks body (ids)', () => {
  it.each([
    ['absent', {}],
    ['null', { ids: null }],
    ['empty', { ids: [] }],
  ])('selects all breaks when ids is %s', (_why, body) => {
    expect(breaksListBody.safeParse(body).success).toBe(true);
    expect(selectedBreakIds(body)).toBeNull();
  });

  it('selects all breaks when there is no body object', () => {
    expect(selectedBreakIds(undefined)).toBeNull();
    expect(selectedBreakIds(null)).toBeNull();
  });

  it.each([
    [[3], [3]],
    [[3, 1, 2], [3, 1, 2]],
  ])('selects only the breaks %j', (ids, expected) => {
    expect(selectedBreakIds({ ids })).toEqual(expected);
  });

  it.each([[{ ids: ['1'] }], [{ ids: [1.5] }], [{ ids: 1 }]])('rejects %j as a body shape', (body) => {
    expect(breaksListBody.safeParse(body).success).toBe(false);
  });
});

describe('breakCreatePayload (zod)', () => {
  it('accepts the valid baseline', () => {
    expect(breakCreatePayload.safeParse(BASE).success).toBe(true);
  });

  it.each([
    [{ timesheet_id: undefined }, 'BRK-CREATE-REQUIRED', ['timesheet_id']],
    [{ end: '2026-07-01T12:30:00Z' }, 'BRK-DATETIME-FORMAT', ['end']],
  ])('for %j names %s in params.rule at %j', (change, rule, path) => {
    const result = breakCreatePayload.safeParse(edit(BASE, change));
    expect(result.error?.issues.map((i) => ({ rule: (i as { params?: { rule?: string } }).params?.rule, path: i.path }))).toEqual([{ rule, path }]);
  });
});
