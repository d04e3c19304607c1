import { describe, expect, it } from 'vitest';
import {
  SCHEDULE_FIELDS,
  scheduleCreatePayload,
  scheduleUpdatePayload,
  scheduleViolations,
} from '../../../src/contract/payloads/schedule.ts';
import type { Operation } from '../../../src/contract/payloads/field-table.ts';
import { broken, edit } from '../support.ts';

const CREATE = {
  assigned_by: 1,
  title: 'Morning shift',
  repeat: false,
  all_day: false,
  color: 'blue',
  user_ids: [2, 3],
  start_date: '07/01/2026',
  end_date: '07/01/2026',
  start_time: '09:00',
  end_time: '17:00',
};
const UPDATE = { ...CREATE, event_pid: 'evt-1' };
const BASELINES: Record<Operation, Record<string, unknown>> = { create: CREATE, update: UPDATE };
const OPERATIONS: Operation[] = ['create', 'update'];

/** One-field changes of a valid schedule, each breaking exactly one rule on one field (create and update alike). */
const MINIMAL_PAIRS: { why: string; change: Record<string, unknown>; rule: string; field: string }[] = [
  { why: 'assigned_by omitted', change: { assigned_by: undefined }, rule: 'SCH-ASSIGNED-BY-REQUIRED', field: 'assigned_by' },
  { why: 'assigned_by null', change: { assigned_by: null }, rule: 'SCH-ASSIGNED-BY-REQUIRED', field: 'assigned_by' },
  { why: 'assigned_by a string', change: { assigned_by: '1' }, rule: 'SCH-FIELD-TYPES', field: 'assigned_by' },
  { why: 'assigned_by a fraction', change: { assigned_by: 1.5 }, rule: 'SCH-FIELD-TYPES', field: 'assigned_by' },
  { why: 'title omitted', change: { title: undefined }, rule: 'SCH-TITLE-REQUIRED', field: 'title' },
  { why: 'title a number', change: { title: 5 }, rule: 'SCH-FIELD-TYPES', field: 'title' },
  { why: 'repeat omitted', change: { repeat: undefined }, rule: 'SCH-REPEAT-REQUIRED', field: 'repeat' },
  { why: 'repeat the string "false"', change: { repeat: 'false' }, rule: 'SCH-FIELD-TYPES', field: 'repeat' },
  { why: 'repeat the number 0', change: { repeat: 0 }, rule: 'SCH-FIELD-TYPES', field: 'repeat' },
  { why: 'all_day omitted', change: { all_day: undefined }, rule: 'SCH-ALL-DAY-REQUIRED', field: 'all_day' },
  { why: 'all_day the string "true"', change: { all_day: 'true' }, rule: 'SCH-FIELD-TYPES', field: 'all_day' },
  { why: 'color omitted', change: { color: undefined }, rule: 'SCH-COLOR-REQUIRED', field: 'color' },
  { why: 'color a number', change: { color: 3 }, rule: 'SCH-FIELD-TYPES', field: 'color' },
  { why: 'user_ids omitted', change: { user_ids: undefined }, rule: 'SCH-USER-IDS-REQUIRED', field: 'user_ids' },
  { why: 'user_ids a single integer', change: { user_ids: 2 }, rule: 'SCH-FIELD-TYPES', field: 'user_ids' },
  { why: 'user_ids holding a string', change: { user_ids: [2, '3'] }, rule: 'SCH-FIELD-TYPES', field: 'user_ids' },
  { why: 'start_date omitted', change: { start_date: undefined }, rule: 'SCH-START-DATE-REQUIRED', field: 'start_date' },
  { why: 'end_date omitted', change: { end_date: undefined }, rule: 'SCH-END-DATE-REQUIRED', field: 'end_date' },
  { why: 'start_date in ISO order', change: { start_date: '2026-07-01' }, rule: 'SCH-DATE-FORMAT', field: 'start_date' },
  { why: 'start_date unpadded', change: { start_date: '7/1/2026' }, rule: 'SCH-DATE-FORMAT', field: 'start_date' },
  { why: 'start_date in DD/MM order', change: { start_date: '13/07/2026' }, rule: 'SCH-DATE-FORMAT', field: 'start_date' },
  { why: 'end_date not a real date', change: { end_date: '02/29/2026' }, rule: 'SCH-DATE-FORMAT', field: 'end_date' },
  { why: 'end_date a two-digit year', change: { end_date: '07/01/26' }, rule: 'SCH-DATE-FORMAT', field: 'end_date' },
  { why: 'start_date a number', change: { start_date: 20260701 }, rule: 'SCH-FIELD-TYPES', field: 'start_date' },
  { why: 'start_time unpadded', change: { start_time: '9:00' }, rule: 'SCH-TIME-FORMAT', field: 'start_time' },
  { why: 'start_time 12-hour', change: { start_time: '09:00 AM' }, rule: 'SCH-TIME-FORMAT', field: 'start_time' },
  { why: 'end_time 24:00', change: { end_time: '24:00' }, rule: 'SCH-TIME-FORMAT', field: 'end_time' },
  { why: 'end_time with seconds', change: { end_time: '17:00:00' }, rule: 'SCH-TIME-FORMAT', field: 'end_time' },
  { why: 'start_time a number', change: { start_time: 900 }, rule: 'SCH-FIELD-TYPES', field: 'start_time' },
  { why: 'timezone an abbreviation', change: { timezone: 'CST' }, rule: 'SCH-TIMEZONE-NAME', field: 'timezone' },
  { why: 'timezone a fixed offset', change: { timezone: '+05:00' }, rule: 'SCH-TIMEZONE-NAME', field: 'timezone' },
  { why: 'timezone unknown', change: { timezone: 'Mars/Olympus' }, rule: 'SCH-TIMEZONE-NAME', field: 'timezone' },
  { why: 'timezone lowercase', change: { timezone: 'america/chicago' }, rule: 'SCH-TIMEZONE-NAME', field: 'timezone' },
  { why: 'timezone a number', change: { timezone: -6 }, rule: 'SCH-FIELD-TYPES', field: 'timezone' },
  { why: 'description a number', change: { description: 1 }, rule: 'SCH-FIELD-TYPES', field: 'description' },
  { why: 'job_id a string', change: { job_id: '4' }, rule: 'SCH-FIELD-TYPES', field: 'job_id' },
  { why: 'publish a string', change: { publish: 'yes' }, rule: 'SCH-FIELD-TYPES', field: 'publish' },
  { why: 'update_series a number', change: { update_series: 1 }, rule: 'SCH-FIELD-TYPES', field: 'update_series' },
  { why: 'use_different_address a string', change: { use_different_address: 'true' }, rule: 'SCH-FIELD-TYPES', field: 'use_different_address' },
  { why: 'street a number', change: { street: 221 }, rule: 'SCH-FIELD-TYPES', field: 'street' },
  { why: 'city an array', change: { city: ['Chicago'] }, rule: 'SCH-FIELD-TYPES', field: 'city' },
  { why: 'state a boolean', change: { state: true }, rule: 'SCH-FIELD-TYPES', field: 'state' },
  { why: 'country an object', change: { country: { code: 'US' } }, rule: 'SCH-FIELD-TYPES', field: 'country' },
  { why: 'zip_code a number', change: { zip_code: 60601 }, rule: 'SCH-FIELD-TYPES', field: 'zip_code' },
  { why: 'repeat_type a number', change: { repeat_type: 1 }, rule: 'SCH-FIELD-TYPES', field: 'repeat_type' },
  { why: 'repeat_end_date in ISO order', change: { repeat_end_date: '2026-12-31' }, rule: 'SCH-DATE-FORMAT', field: 'repeat_end_date' },
  { why: 'weeks capitalized', change: { weeks: 'Monday' }, rule: 'SCH-WEEKS-FORMAT', field: 'weeks' },
  { why: 'weeks abbreviated', change: { weeks: 'mon,wed' }, rule: 'SCH-WEEKS-FORMAT', field: 'weeks' },
  { why: 'weeks with a space after the comma', change: { weeks: 'monday, wednesday' }, rule: 'SCH-WEEKS-FORMAT', field: 'weeks' },
  { why: 'weeks with a trailing comma', change: { weeks: 'monday,' }, rule: 'SCH-WEEKS-FORMAT', field: 'weeks' },
  { why: 'weeks an array', change: { weeks: ['monday'] }, rule: 'SCH-FIELD-TYPES', field: 'weeks' },
  { why: 'event_pid a number', change: { event_pid: 42 }, rule: 'SCH-FIELD-TYPES', field: 'event_pid' },
  // The conditional rules of §2.1 and §4.1.
  { why: 'all_day false without start_time', change: { start_time: undefined }, rule: 'SCH-TIMES-UNLESS-ALL-DAY', field: 'start_time' },
  { why: 'all_day false without end_time', change: { end_time: undefined }, rule: 'SCH-TIMES-UNLESS-ALL-DAY', field: 'end_time' },
  { why: 'repeat true without repeat_type', change: { repeat: true, repeat_end_date: '12/31/2026' }, rule: 'SCH-REPEAT-FIELDS', field: 'repeat_type' },
  { why: 'repeat true without repeat_end_date', change: { repeat: true, repeat_type: 'daily' }, rule: 'SCH-REPEAT-FIELDS', field: 'repeat_end_date' },
  {
    why: 'repeat_type weekly without weeks',
    change: { repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026' },
    rule: 'SCH-WEEKLY-WEEKS',
    field: 'weeks',
  },
];

/** Changes of a valid schedule that keep it valid. */
const STILL_VALID: { why: string; change: Record<string, unknown> }[] = [
  { why: 'all_day true without times', change: { all_day: true, start_time: undefined, end_time: undefined } },
  { why: 'all_day true with times', change: { all_day: true } },
  { why: 'repeat true with a daily repeat_type and repeat_end_date', change: { repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026' } },
  {
    why: 'repeat true, weekly, with weeks',
    change: { repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026', weeks: 'monday,wednesday' },
  },
  { why: 'weeks with all seven days', change: { weeks: 'monday,tuesday,wednesday,thursday,friday,saturday,sunday' } },
  { why: 'an IANA timezone', change: { timezone: 'America/Chicago' } },
  { why: 'a three-part IANA timezone', change: { timezone: 'America/Argentina/Buenos_Aires' } },
  { why: 'times at the ends of the day', change: { start_time: '00:00', end_time: '23:59' } },
  { why: 'leap-day dates', change: { start_date: '02/29/2028', end_date: '02/29/2028' } },
  { why: 'every optional field given', change: {
    description: 'Front desk', job_id: 4, publish: true, update_series: false, use_different_address: true,
    street: '1 Main St', city: 'Chicago', state: 'IL', country: 'US', zip_code: '60601',
  } },
  { why: 'an unknown extra field', change: { extra: 1 } },
];

describe.each(OPERATIONS)('scheduleViolations on %s', (operation) => {
  const baseline = BASELINES[operation];

  it('finds nothing wrong with the valid baseline', () => {
    expect(scheduleViolations(baseline, operation)).toEqual([]);
  });

  it.each(MINIMAL_PAIRS)('with $why, breaks only $rule on $field', ({ change, rule, field }) => {
    expect(broken(scheduleViolations(edit(baseline, change), operation))).toEqual([`${rule}@${field}`]);
  });

  it.each(STILL_VALID)('with $why, finds nothing wrong', ({ change }) => {
    expect(scheduleViolations(edit(baseline, change), operation)).toEqual([]);
  });

  it('with all_day false and no times, reports both times under SCH-TIMES-UNLESS-ALL-DAY', () => {
    const body = edit(baseline, { start_time: undefined, end_time: undefined });
    expect(broken(scheduleViolations(body, operation))).toEqual(['SCH-TIMES-UNLESS-ALL-DAY@start_time', 'SCH-TIMES-UNLESS-ALL-DAY@end_time']);
  });

  it('with all_day omitted and no times, reports the missing all_day and the missing times', () => {
    const body = edit(baseline, { all_day: undefined, start_time: undefined, end_time: undefined });
    expect(broken(scheduleViolations(body, operation))).toEqual([
      'SCH-ALL-DAY-REQUIRED@all_day',
      'SCH-TIMES-UNLESS-ALL-DAY@start_time',
      'SCH-TIMES-UNLESS-ALL-DAY@end_time',
    ]);
  });

  it('with repeat true and repeat_type null, counts repeat_type as missing under SCH-REPEAT-FIELDS', () => {
    const body = edit(baseline, { repeat: true, repeat_type: null, repeat_end_date: '12/31/2026' });
    expect(broken(scheduleViolations(body, operation))).toContain('SCH-REPEAT-FIELDS@repeat_type');
  });

  it('with repeat true and neither repeat field, reports both under SCH-REPEAT-FIELDS', () => {
    const body = edit(baseline, { repeat: true });
    expect(broken(scheduleViolations(body, operation))).toEqual(['SCH-REPEAT-FIELDS@repeat_type', 'SCH-REPEAT-FIELDS@repeat_end_date']);
  });
});

describe('scheduleViolations: rules of one operation only', () => {
  it('accepts event_pid on create, where it is optional', () => {
    expect(scheduleViolations(UPDATE, 'create')).toEqual([]);
  });

  it.each([
    ['omitted', undefined],
  ])('on update with event_pid %s, breaks only SCH-UPDATE-EVENT-PID', (_label, value) => {
    expect(broken(scheduleViolations(edit(UPDATE, { event_pid: value }), 'update'))).toEqual(['SCH-UPDATE-EVENT-PID@event_pid']);
  });
});

describe('scheduleViolations on a partial update merged over the stored schedule', () => {
  const stored = { ...CREATE, event_pid: 'evt-1', all_day: true, start_time: undefined, end_time: undefined };

  it.each([
    { why: 'only event_pid', body: { event_pid: 'evt-1' } },
    { why: 'a new title', body: { event_pid: 'evt-1', title: 'Evening shift' } },
    { why: 'all_day false with both times', body: { event_pid: 'evt-1', all_day: false, start_time: '18:00', end_time: '22:00' } },
    { why: 'a new timezone', body: { event_pid: 'evt-1', timezone: 'Europe/Berlin' } },
  ])('accepts $why', ({ body }) => {
    expect(scheduleViolations(body, 'update', stored)).toEqual([]);
  });

  it.each([
    { why: 'all_day false without the times the stored all-day schedule lacks', body: { event_pid: 'evt-1', all_day: false }, expected: ['SCH-TIMES-UNLESS-ALL-DAY@start_time', 'SCH-TIMES-UNLESS-ALL-DAY@end_time'] },
    { why: 'repeat true without repeat fields', body: { event_pid: 'evt-1', repeat: true }, expected: ['SCH-REPEAT-FIELDS@repeat_type', 'SCH-REPEAT-FIELDS@repeat_end_date'] },
    { why: 'repeat_type weekly without weeks', body: { event_pid: 'evt-1', repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026' }, expected: ['SCH-WEEKLY-WEEKS@weeks'] },
    { why: 'no event_pid, though the stored schedule has one', body: { title: 'Evening shift' }, expected: ['SCH-UPDATE-EVENT-PID@event_pid'] },
    { why: 'a malformed date', body: { event_pid: 'evt-1', start_date: '2026-07-01' }, expected: ['SCH-DATE-FORMAT@start_date'] },
    { why: 'a null title over a stored one', body: { event_pid: 'evt-1', title: null }, expected: ['SCH-TITLE-REQUIRED@title'] },
  ])('with $why, reports $expected', ({ body, expected }) => {
    expect(broken(scheduleViolations(body, 'update', stored))).toEqual(expected);
  });
});

describe('SCHEDULE_FIELDS', () => {
  it('declares exactly the fields of spec table 2.1', () => {
    expect(Object.keys(SCHEDULE_FIELDS).sort()).toEqual(
      [
        'assigned_by', 'event_pid', 'title', 'description', 'job_id', 'timezone', 'repeat', 'all_day', 'color',
        'user_ids', 'publish', 'update_series', 'start_date', 'end_date', 'start_time', 'end_time',
        'use_different_address', 'street', 'city', 'state', 'country', 'zip_code', 'repeat_type',
        'repeat_end_date', 'weeks',
      ].sort(),
    );
  });

  it('requires the "Required: yes" fields of table 2.1 on create and update', () => {
    const required = Object.entries(SCHEDULE_FIELDS)
      .filter(([, spec]) => spec.requiredOn.includes('create') && spec.requiredOn.includes('update'))
      .map(([name]) => name)
      .sort();
    expect(required).toEqual(['all_day', 'assigned_by', 'color', 'end_date', 'repeat', 'start_date', 'title', 'user_ids']);
  });
});

describe.each([
  ['scheduleCreatePayload', scheduleCreatePayload, CREATE],
  ['scheduleUpdatePayload', scheduleUpdatePayload, UPDATE],
] as const)('%s (zod)', (_name, schema, baseline) => {
  it('accepts the valid baseline', () => {
    expect(schema.safeParse(baseline).success).toBe(true);
  });

  it.each([
    { change: { title: undefined }, rule: 'SCH-TITLE-REQUIRED', path: ['title'] },
    { change: { start_date: '2026-07-01' }, rule: 'SCH-DATE-FORMAT', path: ['start_date'] },
    { change: { start_time: undefined }, rule: 'SCH-TIMES-UNLESS-ALL-DAY', path: ['start_time'] },
    { change: { weeks: 'Monday' }, rule: 'SCH-WEEKS-FORMAT', path: ['weeks'] },
  ])('names $rule in params.rule of the issue at $path', ({ change, rule, path }) => {
    const result = schema.safeParse(edit(baseline, change));
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => ({ path: i.path, rule: (i as { params?: { rule?: string } }).params?.rule }))).toEqual([{ path, rule }]);
  });

  it.each([[null], [[]], ['payload'], [42]])('rejects the non-object %j with one issue and no rule', (value) => {
    const result = schema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toHaveLength(1);
    expect((result.error?.issues[0] as { params?: unknown }).params).toBeUndefined();
  });
});

describe('scheduleUpdatePayload', () => {
  it('names SCH-UPDATE-EVENT-PID when event_pid is missing', () => {
    const result = scheduleUpdatePayload.safeParse(CREATE);
    expect(result.error?.issues.map((i) => (i as { params?: { rule?: string } }).params?.rule)).toEqual(['SCH-UPDATE-EVENT-PID']);
  });
});
