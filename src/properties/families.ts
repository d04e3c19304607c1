import fc from 'fast-check';
import type { RuleId } from '../contract/rules.ts';
import {
  breakCase,
  invalidBreakCase,
  invalidScheduleCase,
  invalidTimesheetCase,
  invalidUserCase,
  scheduleCase,
  timesheetCase,
  userCase,
} from './arbitraries/index.ts';
import type { GeneratedCase, GeneratorContext, PropertyFamily } from './family.ts';
import { BREAK_EDGES } from './arbitraries/edges/break-edges.ts';
import { SCHEDULE_CONDITIONAL_EDGES, SCHEDULE_DATE_EDGES, SCHEDULE_TIME_EDGES, SCHEDULE_UPDATE_EDGES } from './arbitraries/edges/schedule-edges.ts';
import { TIMESHEET_DATETIME_EDGES, TIMESHEET_OFFSET_EDGES } from './arbitraries/edges/timesheet-edges.ts';
import { USER_EDIT_EDGES, USER_EMPLOYEE_CODE_EDGES, USER_PASSWORD_EDGES, USER_VALUE_EDGES } from './arbitraries/edges/user-edges.ts';

/** Valid and invalid cases half and half. */
const half = (valid: fc.Arbitrary<GeneratedCase>, invalid: fc.Arbitrary<GeneratedCase>) => fc.oneof(valid, invalid);

interface FamilyDefinition extends Omit<PropertyFamily, 'cases'> {
  readonly valid: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>;
  /** Invalid cases break exactly the family's `rules`, each equally likely. */
  readonly invalid: (ctx: GeneratorContext, rules: readonly RuleId[]) => fc.Arbitrary<GeneratedCase>;
}

const family = ({ valid, invalid, ...rest }: FamilyDefinition): PropertyFamily => ({
  ...rest,
  cases: (ctx) => half(valid(ctx), invalid(ctx, rest.rules)),
});

const isString = (v: unknown): v is string => typeof v === 'string';

/** A refused valid schedule that is all-day without times points at the times rule, else at `otherwise`. */
const scheduleRefusal =
  (otherwise: RuleId) =>
  ({ payload }: GeneratedCase): RuleId =>
    payload.all_day === true && payload.start_time === undefined ? 'SCH-TIMES-UNLESS-ALL-DAY' : otherwise;

/**
 * Timesheet families send valid cases that give a zone for every datetime or for none, and no null
 * end (TS-END-NULLABLE is the scenarios' to certify), so a refused valid case, whose values are well
 * formed, names one offset rule: against the zones given, or against the company timezone.
 */
const timesheetValid = (ctx: GeneratorContext, explicitZones: 'sometimes' | 'mostly') =>
  timesheetCase(ctx, { explicitZones, consistentZones: true, nullEnd: false });
const timesheetRefusal = ({ payload }: GeneratedCase): RuleId =>
  isString(payload.clock_in_timezone) ? 'TS-OFFSET-MATCHES-TIMEZONE' : 'TS-OFFSET-DEFAULT-TIMEZONE';

/**
 * The property families `clockcheck run` certifies with generated cases. Every family's cases are
 * half valid, half invalid, and its invalid cases break exactly the rules it lists (unit tests check
 * both with the spec model).
 */
export const PROPERTY_FAMILIES: readonly PropertyFamily[] = [
  family({
    name: 'schedule-dates',
    title: 'schedule dates: leap days and month ends accepted, malformed dates rejected',
    request: { method: 'POST', path: '/schedules' },
    rules: ['SCH-DATE-FORMAT'],
    needs: null,
    valid: (ctx) => scheduleCase(ctx, 'create'),
    invalid: (ctx, rules) => invalidScheduleCase(ctx, 'create', rules),
    refusalRule: scheduleRefusal('SCH-DATE-FORMAT'),
    edges: SCHEDULE_DATE_EDGES,
  }),
  family({
    name: 'schedule-times',
    title: 'schedule times: 00:00 to 23:59 accepted, 24:00, 12-hour and unpadded times rejected',
    request: { method: 'POST', path: '/schedules' },
    rules: ['SCH-TIME-FORMAT'],
    needs: null,
    valid: (ctx) => scheduleCase(ctx, 'create', { allDay: false }),
    invalid: (ctx, rules) => invalidScheduleCase(ctx, 'create', rules),
    edges: SCHEDULE_TIME_EDGES,
  }),
  family({
    name: 'schedule-conditionals',
    title: 'schedule conditional fields over all_day × repeat × repeat_type',
    request: { method: 'POST', path: '/schedules' },
    rules: ['SCH-TIMES-UNLESS-ALL-DAY', 'SCH-REPEAT-FIELDS', 'SCH-WEEKLY-WEEKS', 'SCH-WEEKS-FORMAT'],
    needs: null,
    valid: (ctx) => scheduleCase(ctx, 'create'),
    invalid: (ctx, rules) => invalidScheduleCase(ctx, 'create', rules),
    // A refused valid case: an all-day one without times, or a weekly one over its weeks.
    refusalRule: ({ payload }) =>
      payload.all_day === true && payload.start_time === undefined
        ? 'SCH-TIMES-UNLESS-ALL-DAY'
        : payload.repeat_type === 'weekly'
          ? 'SCH-WEEKS-FORMAT'
          : payload.repeat === true
            ? 'SCH-REPEAT-FIELDS'
            : 'SCH-TIMES-UNLESS-ALL-DAY',
    edges: SCHEDULE_CONDITIONAL_EDGES,
  }),
  family({
    name: 'schedule-update',
    title: 'schedule update: event_pid required, conditional rules applied',
    request: { method: 'PUT', path: '/schedules/{id}' },
    rules: ['SCH-UPDATE-CONDITIONALS', 'SCH-UPDATE-EVENT-PID'],
    needs: 'schedule',
    // Valid updates keep the stored schedule all-day, one-off, without times, repeat fields or
    // weeks, so an invalid update that leaves those out is invalid under the merged reading too.
    valid: (ctx) => scheduleCase(ctx, 'update', { minimal: true }),
    invalid: (ctx, rules) => invalidScheduleCase(ctx, 'update', rules),
    edges: SCHEDULE_UPDATE_EDGES,
  }),
  family({
    name: 'user-password',
    title: 'user passwords: 6+ characters of four classes accepted, one class missing or 5 characters rejected',
    request: { method: 'POST', path: '/users' },
    rules: ['USR-PASSWORD-LENGTH', 'USR-PASSWORD-CLASSES'],
    needs: null,
    valid: (ctx) => userCase(ctx, 'create'),
    invalid: (ctx, rules) => invalidUserCase(ctx, 'create', rules),
    // A refused valid password of 6 or 7 characters points at the length rule, a longer one at the classes.
    refusalRule: ({ payload }) => (isString(payload.password) && payload.password.length < 8 ? 'USR-PASSWORD-LENGTH' : 'USR-PASSWORD-CLASSES'),
    edges: USER_PASSWORD_EDGES,
  }),
  family({
    name: 'user-employee-code',
    title: 'user employee_code: anything but 4 digits rejected',
    request: { method: 'POST', path: '/users' },
    rules: ['USR-EMPLOYEE-CODE'],
    needs: null,
    // Valid users carry no employee_code: a target may keep codes unique, and 10^4 codes are too few to draw at random.
    valid: (ctx) => userCase(ctx, 'create'),
    invalid: (ctx, rules) => invalidUserCase(ctx, 'create', rules),
    edges: USER_EMPLOYEE_CODE_EDGES,
  }),
  family({
    name: 'user-values',
    title: 'user role_id 1..3 and billing_rate_type 0..1 accepted, other integers rejected',
    request: { method: 'POST', path: '/users' },
    rules: ['USR-ROLE-ID-VALUES', 'USR-BILLING-RATE-TYPE-VALUES'],
    needs: null,
    valid: (ctx) => userCase(ctx, 'create', { values: true }),
    invalid: (ctx, rules) => invalidUserCase(ctx, 'create', rules),
    edges: USER_VALUE_EDGES,
  }),
  family({
    name: 'user-edit',
    title: 'user edit: password and employee_code rules hold on PUT too',
    request: { method: 'PUT', path: '/users/{id}' },
    rules: ['USR-PASSWORD-CLASSES', 'USR-PASSWORD-LENGTH', 'USR-EMPLOYEE-CODE'],
    needs: 'user',
    // Edits send first_name, last_name, email and password: valid whichever way USR-EDIT-REQUIRED is read.
    valid: (ctx) => userCase(ctx, 'update'),
    invalid: (ctx, rules) => invalidUserCase(ctx, 'update', rules),
    edges: USER_EDIT_EDGES,
  }),
  family({
    name: 'timesheet-datetimes',
    title: 'timesheet start and end: ISO 8601 with ±HH:MM offset accepted, naive and colon-less rejected',
    request: { method: 'POST', path: '/timesheets' },
    rules: ['TS-DATETIME-FORMAT'],
    needs: null,
    valid: (ctx) => timesheetValid(ctx, 'sometimes'),
    invalid: (ctx, rules) => invalidTimesheetCase(ctx, rules),
    refusalRule: timesheetRefusal,
    edges: TIMESHEET_DATETIME_EDGES,
  }),
  family({
    name: 'timesheet-offsets',
    title: 'timesheet offsets match their timezone at that instant, DST transition days in 48 zones',
    request: { method: 'POST', path: '/timesheets' },
    rules: ['TS-OFFSET-MATCHES-TIMEZONE', 'TS-OFFSET-DEFAULT-TIMEZONE'],
    needs: null,
    valid: (ctx) => timesheetValid(ctx, 'mostly'),
    invalid: (ctx, rules) => invalidTimesheetCase(ctx, rules),
    refusalRule: timesheetRefusal,
    edges: TIMESHEET_OFFSET_EDGES,
  }),
  family({
    name: 'break-create',
    title: 'breaks inside their timesheet with offsets accepted, outside or naive rejected',
    request: { method: 'POST', path: '/breaks' },
    rules: ['BRK-WITHIN-TIMESHEET', 'BRK-DATETIME-FORMAT'],
    needs: 'timesheet',
    valid: (ctx) => breakCase(ctx),
    invalid: (ctx, rules) => invalidBreakCase(ctx, rules),
    edges: BREAK_EDGES,
  }),
];
