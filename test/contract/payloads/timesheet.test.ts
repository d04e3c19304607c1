import { describe, expect, it } from 'vitest';
import {
  TIMESHEET_FIELDS,
  governingZone,
  offsetZoneViolations,
  timesheetCreatePayload,
  timesheetViolations,
} from '../../../src/contract/payloads/timesheet.ts';
import { broken, edit } from '../support.ts';

const COMPANY = 'America/Chicago';
const BASE = { user_id: 7, start: '2026-07-01T09:00:00-05:00' };

const MINIMAL_PAIRS: { why: string; change: Record<string, unknown>; rule: string; field: string }[] = [
  { why: 'user_id omitted', change: { user_id: undefined }, rule: 'TS-CREATE-REQUIRED', field: 'user_id' },
  { why: 'user_id null', change: { user_id: null }, rule: 'TS-CREATE-REQUIRED', field: 'user_id' },
  { why: 'user_id a string', change: { user_id: '7' }, rule: 'TS-FIELD-TYPES', field: 'user_id' },
  { why: 'start omitted', change: { start: undefined }, rule: 'TS-CREATE-REQUIRED', field: 'start' },
  { why: 'start null', change: { start: null }, rule: 'TS-CREATE-REQUIRED', field: 'start' },
  { why: 'start without offset', change: { start: '2026-07-01T09:00:00' }, rule: 'TS-DATETIME-FORMAT', field: 'start' },
  { why: 'start with Z', change: { start: '2026-07-01T14:00:00Z' }, rule: 'TS-DATETIME-FORMAT', field: 'start' },
  { why: 'start with fractional seconds', change: { start: '2026-07-01T09:00:00.000-05:00' }, rule: 'TS-DATETIME-FORMAT', field: 'start' },
  { why: 'start a number', change: { start: 1782914400 }, rule: 'TS-FIELD-TYPES', field: 'start' },
  { why: 'end without offset', change: { end: '2026-07-01T17:00:00' }, rule: 'TS-DATETIME-FORMAT', field: 'end' },
  { why: 'end an impossible date', change: { end: '2026-06-31T17:00:00-05:00' }, rule: 'TS-DATETIME-FORMAT', field: 'end' },
  { why: 'end a boolean', change: { end: false }, rule: 'TS-FIELD-TYPES', field: 'end' },
  { why: 'job_id a string', change: { job_id: '3' }, rule: 'TS-FIELD-TYPES', field: 'job_id' },
  { why: 'task_id a fraction', change: { task_id: 1.5 }, rule: 'TS-FIELD-TYPES', field: 'task_id' },
  { why: 'notes a number', change: { notes: 5 }, rule: 'TS-FIELD-TYPES', field: 'notes' },
  { why: 'mileage a string', change: { mileage: '3.2' }, rule: 'TS-FIELD-TYPES', field: 'mileage' },
  { why: 'clock_in_timezone an abbreviation', change: { clock_in_timezone: 'CST' }, rule: 'TS-TIMEZONE-NAME', field: 'clock_in_timezone' },
  { why: 'clock_in_timezone EST, whose fixed offset would not match in July', change: { clock_in_timezone: 'EST' }, rule: 'TS-TIMEZONE-NAME', field: 'clock_in_timezone' },
  { why: 'clock_in_timezone unknown', change: { clock_in_timezone: 'Mars/Olympus' }, rule: 'TS-TIMEZONE-NAME', field: 'clock_in_timezone' },
  { why: 'clock_in_timezone null', change: { clock_in_timezone: null }, rule: 'TS-FIELD-TYPES', field: 'clock_in_timezone' },
  { why: 'clock_out_timezone a fixed offset', change: { clock_out_timezone: '-05:00' }, rule: 'TS-TIMEZONE-NAME', field: 'clock_out_timezone' },
  { why: 'clock_out_timezone a number', change: { clock_out_timezone: -5 }, rule: 'TS-FIELD-TYPES', field: 'clock_out_timezone' },
  // §4.3: the offset must match the governing zone at that instant.
  {
    why: 'a start offset that is not clock_in_timezone\'s (New York is -04:00 in July)',
    change: { clock_in_timezone: 'America/New_York' },
    rule: 'TS-OFFSET-MATCHES-TIMEZONE',
    field: 'start',
  },
  {
    why: 'a start offset that is the company zone\'s standard offset in summer, no clock_in_timezone',
    change: { start: '2026-07-01T09:00:00-06:00' },
    rule: 'TS-OFFSET-DEFAULT-TIMEZONE',
    field: 'start',
  },
  {
    why: 'a winter start with the company zone\'s daylight offset, no clock_in_timezone',
    change: { start: '2026-01-15T09:00:00-05:00' },
    rule: 'TS-OFFSET-DEFAULT-TIMEZONE',
    field: 'start',
  },
  {
    why: 'a start in the company zone\'s DST gap, no clock_in_timezone',
    change: { start: '2026-03-08T02:30:00-06:00' },
    rule: 'TS-OFFSET-DEFAULT-TIMEZONE',
    field: 'start',
  },
  {
    why: 'an end offset that is not clock_out_timezone\'s',
    change: { end: '2026-07-01T17:00:00-05:00', clock_out_timezone: 'America/Denver' },
    rule: 'TS-OFFSET-MATCHES-TIMEZONE',
    field: 'end',
  },
  {
    why: 'an end offset that is not the company zone\'s, no clock_out_timezone',
    change: { end: '2026-07-01T17:00:00-04:00' },
    rule: 'TS-OFFSET-DEFAULT-TIMEZONE',
    field: 'end',
  },
  {
    why: 'an end offset that is not the company zone\'s, clock_out_timezone null',
    change: { end: '2026-07-01T17:00:00-04:00', clock_out_timezone: null },
    rule: 'TS-OFFSET-DEFAULT-TIMEZONE',
    field: 'end',
  },
  {
    why: 'an end matching clock_in_timezone but not the company zone, which governs end without clock_out_timezone',
    change: { start: '2026-07-01T10:00:00-04:00', clock_in_timezone: 'America/New_York', end: '2026-07-01T18:00:00-04:00' },
    rule: 'TS-OFFSET-DEFAULT-TIMEZONE',
    field: 'end',
  },
];

const STILL_VALID: { why: string; change: Record<string, unknown> }[] = [
  { why: 'end null (an open timesheet)', change: { end: null } },
  { why: 'end in the company zone', change: { end: '2026-07-01T17:00:00-05:00' } },
  { why: 'clock_out_timezone null', change: { end: '2026-07-01T17:00:00-05:00', clock_out_timezone: null } },
  { why: 'a winter start with the standard offset', change: { start: '2026-01-15T09:00:00-06:00' } },
  { why: 'an explicit clock_in_timezone whose offset matches', change: { start: '2026-07-01T10:00:00-04:00', clock_in_timezone: 'America/New_York' } },
  {
    why: 'start and end governed by different zones',
    change: { start: '2026-07-01T10:00:00-04:00', clock_in_timezone: 'America/New_York', end: '2026-07-01T22:45:00+05:45', clock_out_timezone: 'Asia/Kathmandu' },
  },
  { why: 'an end across the fall-back overlap', change: { start: '2026-11-01T00:30:00-05:00', end: '2026-11-01T03:00:00-06:00' } },
  { why: 'a start just after the spring-forward gap', change: { start: '2026-03-08T03:00:00-05:00' } },
  { why: 'every optional field', change: { job_id: 3, task_id: 9, notes: 'Front desk', mileage: 3.2, end: '2026-07-01T17:00:00-05:00', clock_in_timezone: COMPANY, clock_out_timezone: COMPANY } },
  { why: 'an integer mileage', change: { mileage: 12 } },
];

describe('timesheetViolations (company timezone America/Chicago)', () => {
  it('finds nothing wrong with the valid baseline', () => {
    expect(timesheetViolations(BASE, COMPANY)).toEqual([]);
  });

  it.each(MINIMAL_PAIRS)('with $why, breaks only $rule on $field', ({ change, rule, field }) => {
    expect(broken(timesheetViolations(edit(BASE, change), COMPANY))).toEqual([`${rule}@${field}`]);
  });

  it.each(STILL_VALID)('with $why, finds nothing wrong', ({ change }) => {
    expect(timesheetViolations(edit(BASE, change), COMPANY)).toEqual([]);
  });

  it('judges the default zone by the company timezone it is given', () => {
    const body = { user_id: 7, start: '2026-07-01T09:00:00+05:45' };
    expect(timesheetViolations(body, 'Asia/Kathmandu')).toEqual([]);
    expect(broken(timesheetViolations(body, COMPANY))).toEqual(['TS-OFFSET-DEFAULT-TIMEZONE@start']);
  });
});

describe('offsetZoneViolations', () => {
  it('says which offset was written and which the zone has at that instant', () => {
    const [violation] = offsetZoneViolations({ start: '2026-07-01T09:00:00-06:00' }, COMPANY);
    expect(violation?.message).toContain('-06:00');
    expect(violation?.message).toContain('-05:00');
    expect(violation?.message).toContain('America/Chicago');
    expect(violation?.message).toContain('company timezone');
  });

  it.each([
    ['a value without offset', { start: '2026-07-01T09:00:00' }],
    ['a non-string value', { start: 5 }],
    ['an unknown zone', { start: '2026-07-01T09:00:00-05:00', clock_in_timezone: 'Mars/Olympus' }],
    ['no datetime at all', {}],
  ])('leaves %s to the format rules', (_why, body) => {
    expect(offsetZoneViolations(body, COMPANY)).toEqual([]);
  });
});

describe('governingZone', () => {
  it.each([
    [{ clock_in_timezone: 'Europe/Berlin' }, 'start', { zone: 'Europe/Berlin', defaulted: false }],
    [{}, 'start', { zone: COMPANY, defaulted: true }],
    [{ clock_out_timezone: 'Europe/Berlin' }, 'start', { zone: COMPANY, defaulted: true }],
    [{ clock_out_timezone: 'Europe/Berlin' }, 'end', { zone: 'Europe/Berlin', defaulted: false }],
    [{ clock_in_timezone: 'Europe/Berlin' }, 'end', { zone: COMPANY, defaulted: true }],
    [{ clock_out_timezone: null }, 'end', { zone: COMPANY, defaulted: true }],
  ] as const)('for %j governs %s with %j', (body, which, expected) => {
    expect(governingZone(body, which, COMPANY)).toEqual(expected);
  });
});

describe('TIMESHEET_FIELDS', () => {
  it('declares exactly the fields of spec table 2.3, requiring user_id and start', () => {
    expect(Object.keys(TIMESHEET_FIELDS).sort()).toEqual(
      ['clock_in_timezone', 'clock_out_timezone', 'end', 'job_id', 'mileage', 'notes', 'start', 'task_id', 'user_id'],
    );
    const required = Object.entries(TIMESHEET_FIELDS).filter(([, f]) => f.requiredOn.includes('create')).map(([n]) => n);
    expect(required.sort()).toEqual(['start', 'user_id']);
  });
});

describe('timesheetCreatePayload (zod)', () => {
  const schema = timesheetCreatePayload(COMPANY);

  it('accepts the valid baseline', () => {
    expect(schema.safeParse(BASE).success).toBe(true);
  });

  it.each([
    [{ start: '2026-07-01T09:00:00-06:00' }, 'TS-OFFSET-DEFAULT-TIMEZONE', ['start']],
    [{ clock_in_timezone: 'America/New_York' }, 'TS-OFFSET-MATCHES-TIMEZONE', ['start']],
    [{ user_id: undefined }, 'TS-CREATE-REQUIRED', ['user_id']],
  ])('for %j names %s in params.rule at %j', (change, rule, path) => {
    const result = schema.safeParse(edit(BASE, change));
    expect(result.error?.issues.map((i) => ({ rule: (i as { params?: { rule?: string } }).params?.rule, path: i.path }))).toEqual([{ rule, path }]);
  });
});
