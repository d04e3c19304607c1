import type { RecordKind } from './record-kind.ts';
import { DateTime } from 'luxon';
import { parseOffsetDateTime } from '../contract/formats/index.ts';
import { USER_OPTION_FLAGS } from '../contract/payloads/user.ts';

/**
 * Records as a Laravel server (the real service behind the spec) writes them: booleans as the
 * integers 1/0 its database columns hold, money as a decimal string, timesheets as wall-clock times
 * with a "H:MM" duration. The spec does not show these records (§2.1, §2.2, §2.3), so this is a
 * valid choice a strict reader would reject. It runs on presented records only: storage, sorting
 * and filtering keep the stored values.
 */
export function laravelRecord(kind: RecordKind, record: Record<string, unknown>): Record<string, unknown> {
  switch (kind) {
    case 'user':
      return laravelUser(record);
    case 'schedule':
      return flagsAsIntegers(record, SCHEDULE_FLAGS);
    case 'timesheet':
      return laravelTimesheet(record);
    case 'webhook':
      return record;
  }
}

const USER_FLAGS = ['active', 'track_location', 'track_mileage', ...USER_OPTION_FLAGS] as const;
const SCHEDULE_FLAGS = ['repeat', 'all_day', 'publish', 'use_different_address'] as const;

/** The named boolean fields written as 1/0, as a tinyint column reads back. */
function flagsAsIntegers(record: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out = { ...record };
  for (const name of names) if (typeof out[name] === 'boolean') out[name] = out[name] ? 1 : 0;
  return out;
}

/** Flags as 1/0 and pay_rate as a decimal(…, 2) string ("15.00"); role_id and billing_rate_type stay integers. */
function laravelUser(record: Record<string, unknown>): Record<string, unknown> {
  const { password_hash: _secret, ...shown } = flagsAsIntegers(record, USER_FLAGS);
  return { ...shown, pay_rate: typeof shown.pay_rate === 'number' ? shown.pay_rate.toFixed(2) : shown.pay_rate };
}

/**
 * `clock_in_time`/`clock_out_time` instead of `start`/`end`: "YYYY-MM-DD HH:MM:SS" without an offset,
 * the wall time in the record's clock_in_timezone/clock_out_timezone. `duration` "H:MM" (null while
 * open), and job_id/task_id 0 for none, as an unsigned integer column with default 0 reads back.
 */
function laravelTimesheet(record: Record<string, unknown>): Record<string, unknown> {
  const inZone = record.clock_in_timezone as string;
  const outZone = record.clock_out_timezone as string;
  const start = instant(record.start as string, inZone);
  const end = typeof record.end === 'string' ? instant(record.end, outZone) : null;
  return {
    id: record.id,
    user_id: record.user_id,
    job_id: record.job_id ?? 0,
    task_id: record.task_id ?? 0,
    clock_in_time: wallTime(start, inZone),
    clock_out_time: end && wallTime(end, outZone),
    clock_in_timezone: inZone,
    clock_out_timezone: outZone,
    duration: end && hoursAndMinutes(end.toMillis() - start.toMillis()),
    notes: record.notes,
    mileage: record.mileage,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

/** The instant of a stored datetime. A value without offset exists only under a `*-naive-datetime` fault; it is taken as written in `zone`. */
function instant(value: string, zone: string): DateTime {
  return parseOffsetDateTime(value)?.dateTime ?? DateTime.fromISO(value, { zone });
}

function wallTime(at: DateTime, zone: string): string {
  return at.setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss');
}

/** "H:MM": whole hours, then the remaining whole minutes zero-padded ("8:00", "0:45", "12:05"). */
export function hoursAndMinutes(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}
