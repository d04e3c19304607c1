import { describe, expect, it } from 'vitest';
import {
  SCHEDULE_CONDITIONS,
  conditionalViolations,
  conditionallyRequiredFields,
  type ConditionalRule,
} from '../../src/contract/conditions.ts';
import type { Operation } from '../../src/contract/payloads/field-table.ts';
import { isRuleId } from '../../src/contract/rules.ts';
import { broken } from './support.ts';

describe('SCHEDULE_CONDITIONS', () => {
  it('holds the four conditional rules of §2.1 and §4.1, each a rule of the catalog', () => {
    expect(SCHEDULE_CONDITIONS.map((c) => c.rule)).toEqual([
      'SCH-TIMES-UNLESS-ALL-DAY',
      'SCH-REPEAT-FIELDS',
      'SCH-WEEKLY-WEEKS',
      'SCH-UPDATE-EVENT-PID',
    ]);
    for (const c of SCHEDULE_CONDITIONS) expect(isRuleId(c.rule)).toBe(true);
  });

  it.each([
    { why: 'all_day false without times', record: { all_day: false }, op: 'create', expected: ['SCH-TIMES-UNLESS-ALL-DAY@start_time', 'SCH-TIMES-UNLESS-ALL-DAY@end_time'] },
    { why: 'all_day false with only start_time', record: { all_day: false, start_time: '09:00' }, op: 'create', expected: ['SCH-TIMES-UNLESS-ALL-DAY@end_time'] },
    { why: 'all_day absent without times', record: {}, op: 'create', expected: ['SCH-TIMES-UNLESS-ALL-DAY@start_time', 'SCH-TIMES-UNLESS-ALL-DAY@end_time'] },
    { why: 'all_day true without times', record: { all_day: true }, op: 'create', expected: [] },
    { why: 'all_day false with times', record: { all_day: false, start_time: '09:00', end_time: '17:00' }, op: 'create', expected: [] },
    { why: 'a null time counted as missing', record: { all_day: false, start_time: null, end_time: '17:00' }, op: 'create', expected: ['SCH-TIMES-UNLESS-ALL-DAY@start_time'] },
    { why: 'repeat true without repeat fields', record: { all_day: true, repeat: true }, op: 'create', expected: ['SCH-REPEAT-FIELDS@repeat_type', 'SCH-REPEAT-FIELDS@repeat_end_date'] },
    { why: 'repeat true without repeat_type', record: { all_day: true, repeat: true, repeat_end_date: '12/31/2026' }, op: 'create', expected: ['SCH-REPEAT-FIELDS@repeat_type'] },
    { why: 'repeat true without repeat_end_date', record: { all_day: true, repeat: true, repeat_type: 'daily' }, op: 'create', expected: ['SCH-REPEAT-FIELDS@repeat_end_date'] },
    { why: 'repeat false without repeat fields', record: { all_day: true, repeat: false }, op: 'create', expected: [] },
    { why: 'repeat_type weekly without weeks', record: { all_day: true, repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026' }, op: 'create', expected: ['SCH-WEEKLY-WEEKS@weeks'] },
    { why: 'repeat_type weekly with weeks', record: { all_day: true, repeat: true, repeat_type: 'weekly', repeat_end_date: '12/31/2026', weeks: 'monday' }, op: 'create', expected: [] },
    { why: 'repeat_type daily without weeks', record: { all_day: true, repeat: true, repeat_type: 'daily', repeat_end_date: '12/31/2026' }, op: 'create', expected: [] },
    { why: 'update without event_pid', record: { all_day: true }, op: 'update', expected: ['SCH-UPDATE-EVENT-PID@event_pid'] },
    { why: 'update with event_pid', record: { all_day: true, event_pid: 'evt-1' }, op: 'update', expected: [] },
    { why: 'create without event_pid', record: { all_day: true }, op: 'create', expected: [] },
  ] as { why: string; record: Record<string, unknown>; op: Operation; expected: string[] }[])(
    'for $why on $op, reports $expected',
    ({ record, op, expected }) => {
      expect(broken(conditionalViolations(SCHEDULE_CONDITIONS, record, op))).toEqual(expected);
    },
  );

  it('quotes the spec\'s reason in the message', () => {
    const [v] = conditionalViolations(SCHEDULE_CONDITIONS, { all_day: true, repeat: true, repeat_end_date: '12/31/2026' }, 'create');
    expect(v?.message).toContain('repeat_type is missing');
    expect(v?.message).toContain('when repeat is true');
  });
});

describe('conditionallyRequiredFields', () => {
  it.each([
    [{ all_day: true, repeat: false }, 'create', []],
    [{ all_day: false, repeat: false }, 'create', ['start_time', 'end_time']],
    [{ all_day: true, repeat: true, repeat_type: 'daily' }, 'create', ['repeat_type', 'repeat_end_date']],
    [{ all_day: false, repeat: true, repeat_type: 'weekly' }, 'update', ['start_time', 'end_time', 'repeat_type', 'repeat_end_date', 'weeks', 'event_pid']],
    // The fields are required whether or not they are present.
    [{ all_day: true, repeat: false, event_pid: 'e' }, 'update', ['event_pid']],
  ] as [Record<string, unknown>, Operation, string[]][])('for %j on %s lists %j', (record, op, expected) => {
    expect(conditionallyRequiredFields(SCHEDULE_CONDITIONS, record, op)).toEqual(expected);
  });
});

describe('conditional rules as data', () => {
  const custom: ConditionalRule[] = [
    { rule: 'SCH-WEEKLY-WEEKS', trigger: { kind: 'field-equals', field: 'kind', value: 'x' }, requires: ['a'], because: 'a with x' },
    { rule: 'SCH-REPEAT-FIELDS', trigger: { kind: 'field-not-equals', field: 'kind', value: 'x' }, requires: ['b'], because: 'b without x' },
  ];

  it.each([
    [{ kind: 'x' }, ['SCH-WEEKLY-WEEKS@a']],
    [{ kind: 'y' }, ['SCH-REPEAT-FIELDS@b']],
    [{}, ['SCH-REPEAT-FIELDS@b']],
    [{ kind: 'x', a: 0 }, []],
    [{ kind: 'y', b: false }, []],
    [{ kind: 'y', b: '' }, []],
  ])('with %j reports %j: present falsy values count as present', (record, expected) => {
    expect(broken(conditionalViolations(custom, record, 'create'))).toEqual(expected);
  });
});
