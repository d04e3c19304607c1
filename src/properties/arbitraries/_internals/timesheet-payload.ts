import type { RecordId } from '../../../records/created-id.ts';
import { formatInZone } from './format-in-zone.ts';
import { defined } from './payload-edits.ts';
import type { ZoneInstant } from '../zone-instant.ts';

/** Timesheets lie in the past: 2015 to 2024. */
export const TIMESHEET_YEARS = { fromYear: 2015, toYear: 2024 } as const;

/** The end of a timesheet, `seconds` after its start. */
export type EndShape = { kind: 'absent' } | { kind: 'null' } | { kind: 'after'; seconds: number };
/** clock_out_timezone: left out, null (the company zone then), the clock-in zone, or another zone. */
export type ClockOut = { kind: 'absent' } | { kind: 'null' } | { kind: 'same' } | { kind: 'zone'; zone: string };

/** A timesheet payload whose offsets are those of their governing zones (§4.3), keys in table order. */
export function timesheetPayload(
  company: string,
  userId: RecordId,
  start: ZoneInstant,
  explicit: boolean,
  end: EndShape,
  clockOut: ClockOut,
  optional: Record<string, unknown>,
): Record<string, unknown> {
  const clockOutZone =
    clockOut.kind === 'same' ? (explicit ? start.zone : company) : clockOut.kind === 'zone' ? clockOut.zone : clockOut.kind === 'null' ? null : undefined;
  const endZone = typeof clockOutZone === 'string' ? clockOutZone : company;
  return defined({
    user_id: userId,
    start: start.value,
    end: end.kind === 'after' ? formatInZone(start.millis + end.seconds * 1000, endZone) : end.kind === 'null' ? null : undefined,
    job_id: optional.job_id,
    task_id: optional.task_id,
    clock_in_timezone: explicit ? start.zone : undefined,
    clock_out_timezone: clockOutZone,
    notes: optional.notes,
    mileage: optional.mileage,
  });
}

/** "start 2019-03-10T03:30:00-04:00 in America/New_York, end … in the company timezone (America/Chicago)". */
export function describeTimesheet(payload: Readonly<Record<string, unknown>>, company: string): string {
  const zoneOf = (field: 'clock_in_timezone' | 'clock_out_timezone') =>
    typeof payload[field] === 'string' ? String(payload[field]) : `the company timezone (${company})`;
  const start = payload.start === undefined ? 'no start' : `start ${String(payload.start)} in ${zoneOf('clock_in_timezone')}`;
  const end = payload.end === undefined ? 'no end' : payload.end === null ? 'end null' : `end ${String(payload.end)} in ${zoneOf('clock_out_timezone')}`;
  return `${start}, ${end}`;
}
