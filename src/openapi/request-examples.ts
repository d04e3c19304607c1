import { DateTime } from 'luxon';
import { formatOffsetDateTime, parseOffsetDateTime } from '../contract/formats/index.ts';
import type { OperationModel } from '../contract/operations.ts';
import type { Json } from './_internals/json-schema-of.ts';
import type { OpenApiReading } from './openapi-reading.ts';

/** An operation's example request: its body and its path parameter, each where it has one. */
export interface RequestExample {
  readonly body?: Json;
  readonly pathParameter?: number | bigint;
}

/** The IDs and the closed timesheet examples use: the profile's fixtures, else 1 (the first record of a server that counts from 1). */
function fixturesOf(reading: OpenApiReading) {
  const { fixtures } = reading;
  // role_user_ids may name inactive users (the role filter returns them too): assigned_by and user_ids need active ones (§2.1).
  const active = fixtures.active_user_ids;
  const activeOf = (ids: readonly (number | bigint)[] | undefined) => (active === undefined ? ids?.[0] : ids?.find((id) => active.some((a) => String(a) === String(id))));
  return {
    admin: activeOf(fixtures.role_user_ids?.admin) ?? fixtures.active_user_ids?.[0] ?? 1,
    employee: activeOf(fixtures.role_user_ids?.employee) ?? fixtures.active_user_ids?.at(-1) ?? 1,
    breakRule: fixtures.break_rule_id ?? 1,
    timesheet: fixtures.timesheet ?? { id: 1, start: '2026-10-01T09:00:00-05:00', end: '2026-10-01T17:00:00-05:00' },
    job: fixtures.job_id,
  };
}

/** A break in the middle of the timesheet, a quarter of its length or 20 minutes, whichever is shorter, in its offsets. */
function breakInside(timesheet: { start: string; end: string }): { start: string; end: string } {
  const start = parseOffsetDateTime(timesheet.start)!.dateTime;
  const end = parseOffsetDateTime(timesheet.end)!.dateTime;
  const length = Math.min(20 * 60_000, Math.floor(end.diff(start).as('milliseconds') / 4 / 60_000) * 60_000);
  const middle = start.plus({ minutes: Math.floor(end.diff(start).as('minutes') / 2) });
  return { start: formatOffsetDateTime(middle), end: formatOffsetDateTime(middle.plus({ milliseconds: length })) };
}

/**
 * A night shift of 8 hours from 22:00 on 2026-03-07, clocked in in the company timezone and out in
 * another (a worker who moved): across the start of daylight saving time where the zone has one, so
 * the offsets show each rule of §4.3: each offset is its own zone's at that instant (standard time
 * at the start, daylight time at the end, on the day the clocks change), the company's where no
 * clock_in_timezone is given. Without a known company timezone both zones are named.
 */
function nightShift(reading: OpenApiReading, userId: number | bigint, jobId: number | bigint | undefined): Json {
  const zone = reading.companyTimezone ?? 'America/Chicago';
  const outZone = zone === 'America/New_York' ? 'America/Chicago' : 'America/New_York';
  const start = DateTime.fromObject({ year: 2026, month: 3, day: 7, hour: 22 }, { zone });
  const end = start.plus({ hours: 8 }).setZone(outZone);
  return {
    user_id: userId,
    start: formatOffsetDateTime(start),
    end: formatOffsetDateTime(end),
    ...(reading.companyTimezone === null ? { clock_in_timezone: zone } : {}),
    clock_out_timezone: outZone,
    ...(jobId === undefined ? {} : { job_id: jobId }),
    notes: 'Night shift',
  };
}

/** A one-day, all-day schedule (no times: SCH-TIMES-UNLESS-ALL-DAY), assigned by an admin to an employee. */
function allDaySchedule(admin: number | bigint, employee: number | bigint, date: string): Json {
  return { assigned_by: admin, title: 'Stocktake', repeat: false, all_day: true, color: 'blue', user_ids: [employee], start_date: date, end_date: date };
}

/** The edit of a user: only the phone where the reading takes partial edits, else the four fields the §4.2 sample marks as required too. */
function userEdit(reading: OpenApiReading): Json {
  const phone = { phone: '+1 312 555 0142' };
  return reading.userEditRequired === 'none' ? phone : { first_name: 'Emma', last_name: 'Edited', email: 'emma.edited@example.com', password: 'Edited-pass1!', ...phone };
}

/**
 * The example request of each operation, valid for the reading: IDs from the profile's fixtures (a
 * target's seed), times inside its timesheet, the company timezone where known. Tools that send
 * examples (Portman, Dredd, Postman) then send requests the server accepts.
 */
export function requestExample(model: OperationModel, reading: OpenApiReading): RequestExample {
  const f = fixturesOf(reading);
  switch (model.operationId) {
    case 'createSchedule':
      return { body: allDaySchedule(f.admin, f.employee, '11/02/2026') };
    case 'updateSchedule':
      return { pathParameter: 1, body: { ...allDaySchedule(f.admin, f.employee, '11/03/2026'), event_pid: 'stocktake-2026-11' } };
    case 'createUser':
      return { body: { first_name: 'Grace', last_name: 'Hopper', email: 'grace.hopper@example.com', password: 'Cobol-1959!' } };
    case 'editUser':
      return { pathParameter: f.employee, body: userEdit(reading) };
    case 'createTimesheet':
      return { body: nightShift(reading, f.employee, f.job) };
    case 'createBreak':
      return { body: { timesheet_id: f.timesheet.id, break_rule_id: f.breakRule, ...breakInside(f.timesheet) } };
    // GET /breaks is sent without its optional body (§4.4: all breaks): a proxy may refuse to forward a GET with a body.
    case 'listBreaks':
      return {};
    default:
      return {};
  }
}
