import fc from 'fast-check';
import type { RuleId } from '../../../contract/rules.ts';
import type { GeneratedCase } from '../../family.ts';
import { omit } from '../_internals/payload-edits.ts';
import { scheduleCase, type ScheduleCaseOptions } from '../schedule-case.ts';
import type { EdgeClass } from '../../family.ts';

// The edges of the schedule families' domains, where §2.1 states the format: MM/DD/YYYY dates that
// are real calendar days, HH:mm 24-hour times, the conditional fields of §4.1, `weeks` as
// comma-separated lowercase weekday names.

const pad = (n: number) => String(n).padStart(2, '0');
const ONE_OFF: ScheduleCaseOptions = { repeat: false };

/** A valid base with `field` set to one of `values` (the seed picks). */
function setTo(name: string, field: string, values: fc.Arbitrary<string>, options: ScheduleCaseOptions, operation: 'create' | 'update' = 'create', breaks?: RuleId): EdgeClass {
  return {
    name,
    ...(breaks ? { breaks } : { fields: [field], pack: JSON.stringify(options) }),
    member: (ctx) => fc.tuple(scheduleCase(ctx, operation, options), values).map(([c, value]): GeneratedCase => ({ payload: { ...c.payload, [field]: value }, label: `${field} ${value}`, ...(breaks ? { breaks } : {}) })),
  };
}

/** An invalid value in one of `fields` (the seed picks which) of a valid base, breaking `rule`. */
function badValue(name: string, rule: 'SCH-DATE-FORMAT' | 'SCH-TIME-FORMAT', options: ScheduleCaseOptions, fields: readonly [string, string], values: fc.Arbitrary<string>): EdgeClass {
  return {
    name,
    breaks: rule,
    member: (ctx) => fc.tuple(scheduleCase(ctx, 'create', options), values, fc.constantFrom(...fields)).map(([c, value, field]) => ({ payload: { ...c.payload, [field]: value }, label: `${field} ${value}`, breaks: rule })),
  };
}

/** An invalid date in start_date or end_date (the seed picks which), breaking SCH-DATE-FORMAT. */
const badDate = (name: string, values: fc.Arbitrary<string>) => badValue(name, 'SCH-DATE-FORMAT', ONE_OFF, ['start_date', 'end_date'], values);

const years = (from: number, to: number, keep: (y: number) => boolean = () => true) => Array.from({ length: to - from + 1 }, (_, i) => from + i).filter(keep);
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** SCH-DATE-FORMAT: leap days, the first and last days of a year, and the first invalid days and months on each side. */
export const SCHEDULE_DATE_EDGES: readonly EdgeClass[] = [
  // Start dates lie before every base end date (2024 on) and end dates after every base start (to 2032): any pair is in order.
  setTo('start_date February 29th of 2000 (a century year divisible by 400: a leap year)', 'start_date', fc.constant('02/29/2000'), ONE_OFF),
  setTo('end_date December 31st (the last day of a year)', 'end_date', fc.constantFrom(...years(2033, 2040)).map((y) => `12/31/${y}`), ONE_OFF),
  setTo('start_date January 1st (the first day of a year)', 'start_date', fc.constantFrom(...years(2001, 2023)).map((y) => `01/01/${y}`), ONE_OFF),
  setTo('end_date February 29th of a leap year', 'end_date', fc.constantFrom(...years(2033, 2060, leap)).map((y) => `02/29/${y}`), ONE_OFF),
  badDate('February 29th of a century year not divisible by 400 (1900, 2100, 2200, 2300)', fc.constantFrom('02/29/1900', '02/29/2100', '02/29/2200', '02/29/2300')),
  badDate('February 29th of a common year', fc.constantFrom(...years(2021, 2031, (y) => !leap(y))).map((y) => `02/29/${y}`)),
  badDate('February 30th or 31st', fc.tuple(fc.constantFrom(30, 31), fc.integer({ min: 2024, max: 2032 })).map(([d, y]) => `02/${d}/${y}`)),
  badDate('day 31 of a 30-day month', fc.tuple(fc.constantFrom(4, 6, 9, 11), fc.integer({ min: 2024, max: 2032 })).map(([m, y]) => `${pad(m)}/31/${y}`)),
  badDate('day 32 or day 00 (one past each end of a month)', fc.tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0, 32), fc.integer({ min: 2024, max: 2032 })).map(([m, d, y]) => `${pad(m)}/${pad(d)}/${y}`)),
  badDate('month 13 or month 00 (one past each end of a year)', fc.tuple(fc.constantFrom(0, 13), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 2024, max: 2032 })).map(([m, d, y]) => `${pad(m)}/${pad(d)}/${y}`)),
];

const TIMED: ScheduleCaseOptions = { allDay: false, repeat: false };

/** An invalid time in start_time or end_time (the seed picks which), breaking SCH-TIME-FORMAT. */
const badTime = (name: string, values: fc.Arbitrary<string>) => badValue(name, 'SCH-TIME-FORMAT', TIMED, ['start_time', 'end_time'], values);

/** SCH-TIME-FORMAT: the first and last minutes of the day, and the first invalid values past them. */
export const SCHEDULE_TIME_EDGES: readonly EdgeClass[] = [
  setTo('start_time 00:00 (the first minute of the day)', 'start_time', fc.constant('00:00'), TIMED),
  setTo('end_time 23:59 (the last minute of the day)', 'end_time', fc.constant('23:59'), TIMED),
  badTime('24:00 (one past the last minute)', fc.constant('24:00')),
  badTime('minute 60', fc.integer({ min: 0, max: 23 }).map((h) => `${pad(h)}:60`)),
  badTime('an hour without its zero (H:mm)', fc.tuple(fc.integer({ min: 0, max: 9 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}:${pad(m)}`)),
  badTime('a 12-hour time with AM or PM', fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 59 }), fc.constantFrom(' AM', ' PM')).map(([h, m, s]) => `${pad(h)}:${pad(m)}${s}`)),
  badTime('seconds (HH:mm:ss)', fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${pad(h)}:${pad(m)}:00`)),
];

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const WEEKLY: ScheduleCaseOptions = { repeat: true, repeatType: 'weekly' };

/** A valid base with `fields` left out, breaking `rule`. */
function without(name: string, rule: RuleId, options: ScheduleCaseOptions, fields: readonly string[], operation: 'create' | 'update' = 'create'): EdgeClass {
  return { name, breaks: rule, member: (ctx) => scheduleCase(ctx, operation, options).map((c) => ({ payload: omit(c.payload, ...fields), label: `without ${fields.join(' and ')}`, breaks: rule })) };
}

/** SCH-TIMES-UNLESS-ALL-DAY, SCH-REPEAT-FIELDS, SCH-WEEKLY-WEEKS, SCH-WEEKS-FORMAT: each condition's both sides, weeks of one and of seven days. */
export const SCHEDULE_CONDITIONAL_EDGES: readonly EdgeClass[] = [
  setTo('weeks of one weekday', 'weeks', fc.constantFrom(...WEEKDAYS), WEEKLY),
  { ...setTo('weeks of all seven weekdays', 'weeks', fc.shuffledSubarray([...WEEKDAYS], { minLength: 7, maxLength: 7 }).map((d) => d.join(',')), WEEKLY), pack: 'weekly, seven days' },
  { name: 'all_day true without times', fields: ['start_time', 'end_time'], pack: 'all-day', member: (ctx) => scheduleCase(ctx, 'create', { allDay: true }).map((c) => ({ payload: omit(c.payload, 'start_time', 'end_time'), label: 'all-day, no times' })) },
  without('all_day false without start_time', 'SCH-TIMES-UNLESS-ALL-DAY', { allDay: false }, ['start_time']),
  without('all_day false without end_time', 'SCH-TIMES-UNLESS-ALL-DAY', { allDay: false }, ['end_time']),
  without('repeat true without repeat_type', 'SCH-REPEAT-FIELDS', { repeat: true }, ['repeat_type']),
  without('repeat true without repeat_end_date', 'SCH-REPEAT-FIELDS', { repeat: true }, ['repeat_end_date']),
  without('repeat_type weekly without weeks', 'SCH-WEEKLY-WEEKS', WEEKLY, ['weeks']),
  setTo('weeks with a capitalized weekday name', 'weeks', fc.constantFrom(...WEEKDAYS).map((d) => d[0]!.toUpperCase() + d.slice(1)), WEEKLY, 'create', 'SCH-WEEKS-FORMAT'),
  setTo('weeks empty', 'weeks', fc.constant(''), WEEKLY, 'create', 'SCH-WEEKS-FORMAT'),
];

/** SCH-UPDATE-EVENT-PID, SCH-UPDATE-CONDITIONALS: an update without event_pid, and each condition broken on update. */
export const SCHEDULE_UPDATE_EDGES: readonly EdgeClass[] = [
  without('update without event_pid', 'SCH-UPDATE-EVENT-PID', { minimal: true }, ['event_pid'], 'update'),
  without('update with all_day false and no times', 'SCH-UPDATE-CONDITIONALS', { allDay: false, repeat: false }, ['start_time', 'end_time'], 'update'),
  without('update with repeat true and no repeat_type', 'SCH-UPDATE-CONDITIONALS', { allDay: true, repeat: true, repeatType: 'daily' }, ['repeat_type'], 'update'),
];
