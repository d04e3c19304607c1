import { z } from 'zod';
import { conditionalViolations, SCHEDULE_CONDITIONS } from '../conditions.ts';
import { isClockTime, isTimezoneName, isUsDate, isWeekdayList } from '../formats/index.ts';
import { CLOCK_TIME_SCHEMA, timezoneNameSchema, US_DATE_SCHEMA, WEEKDAY_LIST_SCHEMA } from '../formats/json-schema.ts';
import type { Violation } from '../violation.ts';
import { field, format, type FieldTable, type Operation } from './field-table.ts';
import { payloadSchema } from './payload-schema.ts';
import { tableViolations } from './validate.ts';

const T = 'SCH-FIELD-TYPES';
const both: readonly Operation[] = ['create', 'update'];
const date = format('SCH-DATE-FORMAT', isUsDate, 'expected a real date MM/DD/YYYY', US_DATE_SCHEMA);
const time = format('SCH-TIME-FORMAT', isClockTime, 'expected a 24-hour time HH:mm (00:00 to 23:59)', CLOCK_TIME_SCHEMA);

/**
 * Spec §2.1: the schedule fields accepted on create and update.
 * "Required: yes" fields are listed as required on create and update alike; PUT being a partial
 * update (§1), a server may also accept them absent on update, which `SCH-UPDATE-*` checks respect.
 */
export const SCHEDULE_FIELDS = {
  assigned_by: field(z.number().int(), T, { requiredOn: both, requiredRule: 'SCH-ASSIGNED-BY-REQUIRED' }),
  event_pid: field(z.string(), T),
  title: field(z.string(), T, { requiredOn: both, requiredRule: 'SCH-TITLE-REQUIRED' }),
  description: field(z.string(), T),
  job_id: field(z.number().int(), T),
  timezone: field(z.string(), T, { formats: [format('SCH-TIMEZONE-NAME', isTimezoneName, 'expected an IANA timezone name', timezoneNameSchema)] }),
  repeat: field(z.boolean(), T, { requiredOn: both, requiredRule: 'SCH-REPEAT-REQUIRED' }),
  all_day: field(z.boolean(), T, { requiredOn: both, requiredRule: 'SCH-ALL-DAY-REQUIRED' }),
  color: field(z.string(), T, { requiredOn: both, requiredRule: 'SCH-COLOR-REQUIRED' }),
  user_ids: field(z.array(z.number().int()), T, { requiredOn: both, requiredRule: 'SCH-USER-IDS-REQUIRED' }),
  publish: field(z.boolean(), T),
  update_series: field(z.boolean(), T),
  start_date: field(z.string(), T, { requiredOn: both, requiredRule: 'SCH-START-DATE-REQUIRED', formats: [date] }),
  end_date: field(z.string(), T, { requiredOn: both, requiredRule: 'SCH-END-DATE-REQUIRED', formats: [date] }),
  start_time: field(z.string(), T, { formats: [time] }),
  end_time: field(z.string(), T, { formats: [time] }),
  use_different_address: field(z.boolean(), T),
  street: field(z.string(), T),
  city: field(z.string(), T),
  state: field(z.string(), T),
  country: field(z.string(), T),
  zip_code: field(z.string(), T),
  repeat_type: field(z.string(), T),
  repeat_end_date: field(z.string(), T, { formats: [date] }),
  weeks: field(z.string(), T, { formats: [format('SCH-WEEKS-FORMAT', isWeekdayList, 'expected lowercase weekday names joined by commas', WEEKDAY_LIST_SCHEMA)] }),
} satisfies FieldTable;

/** A schedule payload (spec §2.1); every key optional in the type, the rules are in the validator. */
export interface SchedulePayload {
  assigned_by?: number;
  event_pid?: string;
  title?: string;
  description?: string;
  job_id?: number;
  timezone?: string;
  repeat?: boolean;
  all_day?: boolean;
  color?: string;
  user_ids?: number[];
  publish?: boolean;
  update_series?: boolean;
  start_date?: string;
  end_date?: string;
  start_time?: string;
  end_time?: string;
  use_different_address?: boolean;
  street?: string;
  city?: string;
  state?: string;
  country?: string;
  zip_code?: string;
  repeat_type?: string;
  repeat_end_date?: string;
  weeks?: string;
}

/**
 * The spec rules a schedule payload breaks (§2.1, §4.1). On update with `stored`, required fields and
 * conditional rules are judged on the stored record merged with the payload (PUT is partial, §1),
 * while `event_pid` must be in the payload itself.
 */
export function scheduleViolations(
  body: Readonly<Record<string, unknown>>,
  operation: Operation,
  stored?: Readonly<Record<string, unknown>>,
): Violation[] {
  const record = stored ? { ...stored, ...body, event_pid: body.event_pid } : body;
  return [
    ...tableViolations(SCHEDULE_FIELDS, record, operation),
    ...conditionalViolations(SCHEDULE_CONDITIONS, record, operation),
  ];
}

/** zod schemas of the schedule create and update payloads; issue `params.rule` names the broken rule. */
export const scheduleCreatePayload = payloadSchema<SchedulePayload>('schedule create', (b) => scheduleViolations(b, 'create'));
export const scheduleUpdatePayload = payloadSchema<SchedulePayload>('schedule update', (b) => scheduleViolations(b, 'update'));
