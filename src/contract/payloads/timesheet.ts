import { z } from 'zod';
import { isOffsetDateTime, isTimezoneName, matchOffsetToZone, formatOffset } from '../formats/index.ts';
import { OFFSET_DATETIME_SCHEMA, timezoneNameSchema } from '../formats/json-schema.ts';
import type { Violation } from '../violation.ts';
import { field, format, type FieldTable } from './field-table.ts';
import { payloadSchema } from './payload-schema.ts';
import { tableViolations } from './validate.ts';

const T = 'TS-FIELD-TYPES';
const required = { requiredOn: ['create'] as const, requiredRule: 'TS-CREATE-REQUIRED' as const };
const datetime = format('TS-DATETIME-FORMAT', isOffsetDateTime, 'expected ISO 8601 with offset YYYY-MM-DDTHH:MM:SS±HH:MM', OFFSET_DATETIME_SCHEMA);
const zone = format('TS-TIMEZONE-NAME', isTimezoneName, 'expected an IANA timezone name', timezoneNameSchema);

/** Spec §2.3: the timesheet fields accepted on create. */
export const TIMESHEET_FIELDS = {
  user_id: field(z.number().int(), T, required),
  start: field(z.string(), T, { ...required, formats: [datetime] }),
  end: field(z.string(), T, { nullable: true, formats: [datetime] }),
  job_id: field(z.number().int(), T),
  task_id: field(z.number().int(), T),
  clock_in_timezone: field(z.string(), T, { formats: [zone] }),
  clock_out_timezone: field(z.string(), T, { nullable: true, formats: [zone] }),
  notes: field(z.string(), T),
  mileage: field(z.number(), T),
} satisfies FieldTable;

/** A timesheet create payload (spec §2.3). */
export interface TimesheetPayload {
  user_id?: number;
  start?: string;
  end?: string | null;
  job_id?: number;
  task_id?: number;
  clock_in_timezone?: string;
  clock_out_timezone?: string | null;
  notes?: string;
  mileage?: number;
}

/** Which timezone governs a datetime field of a timesheet (§4.3), and whether it was given or defaulted. */
export interface GoverningZone {
  readonly zone: string;
  readonly defaulted: boolean;
}

/** §4.3: `start` is governed by clock_in_timezone, `end` by clock_out_timezone; without one, the company's. */
export function governingZone(
  body: Readonly<Record<string, unknown>>,
  which: 'start' | 'end',
  companyTimezone: string,
): GoverningZone {
  const given = body[which === 'start' ? 'clock_in_timezone' : 'clock_out_timezone'];
  return typeof given === 'string' ? { zone: given, defaulted: false } : { zone: companyTimezone, defaulted: true };
}

/** §4.3: the offset of `start`/`end` must be the governing zone's real offset at that instant. */
export function offsetZoneViolations(body: Readonly<Record<string, unknown>>, companyTimezone: string): Violation[] {
  const violations: Violation[] = [];
  for (const which of ['start', 'end'] as const) {
    const value = body[which];
    if (typeof value !== 'string') continue;
    const governing = governingZone(body, which, companyTimezone);
    const match = matchOffsetToZone(value, governing.zone);
    if (!match || match.matches) continue; // unparseable values and unknown zones are format violations
    violations.push({
      ruleId: governing.defaulted ? 'TS-OFFSET-DEFAULT-TIMEZONE' : 'TS-OFFSET-MATCHES-TIMEZONE',
      field: which,
      message:
        `${which}: offset ${formatOffset(match.writtenOffsetMinutes)} does not match ${governing.zone}` +
        `${governing.defaulted ? ' (company timezone)' : ''}, which is ${formatOffset(match.zoneOffsetMinutes)} at that instant`,
    });
  }
  return violations;
}

/** The spec rules a timesheet create payload breaks (§2.3, §4.3). */
export function timesheetViolations(body: Readonly<Record<string, unknown>>, companyTimezone: string): Violation[] {
  return [...tableViolations(TIMESHEET_FIELDS, body, 'create'), ...offsetZoneViolations(body, companyTimezone)];
}

/** zod schema of the timesheet create payload for a company timezone. */
export function timesheetCreatePayload(companyTimezone: string) {
  return payloadSchema<TimesheetPayload>('timesheet create', (b) => timesheetViolations(b, companyTimezone));
}
