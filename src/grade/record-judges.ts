import { createdKindOf, readCreatedId } from '../records/created-id.ts';
import { parseOffsetDateTime } from '../contract/formats/index.ts';
import { naiveDateTime, offsetDateTime } from '../contract/primitives.ts';
import { USER_DEFAULT_RULES, USER_DEFAULTS } from '../contract/payloads/user.ts';
import { isJsonObject } from '../contract/payloads/validate.ts';
import { readField } from '../records/field-name.ts';
import { locateRecord } from '../records/locate.ts';
import { recordReading } from '../records/record-reading.ts';
import { sameMeaning } from '../records/same-meaning.ts';
import { isSuccess, judged, statusOf, type Judgement } from './judgement.ts';
import type { GradeReading } from './request-judges.ts';
import type { Observed } from './traffic.ts';

/** What a datetime string of a break reads as; the same strings recur page after page, so each is read once (luxon's parsing is most of a large recording's time). */
interface DateTimeReading {
  readonly offsetForm: boolean;
  readonly naiveForm: boolean;
  readonly ms: number | null;
}
const READINGS = new Map<string, DateTimeReading>();
/** Readings kept before the memo starts over: a bound on its memory. */
const MAX_READINGS = 100_000;

function readDateTime(value: string): DateTimeReading {
  let reading = READINGS.get(value);
  if (reading) return reading;
  if (READINGS.size >= MAX_READINGS) READINGS.clear();
  const parsed = parseOffsetDateTime(value);
  reading = { offsetForm: offsetDateTime.safeParse(value).success, naiveForm: naiveDateTime.safeParse(value).success, ms: parsed ? parsed.dateTime.toMillis() : null };
  READINGS.set(value, reading);
  return reading;
}

const LISTED_FIELDS = ['id', 'start', 'end', 'break_rule_id', 'duration_in_seconds', 'created_at', 'updated_at'] as const;
const CREATED_FIELDS = ['id', 'timesheet_id', 'start', 'end', 'break_rule_id', 'duration', 'created_at', 'updated_at'] as const;
const INTEGER_FIELDS = new Set(['id', 'timesheet_id', 'break_rule_id', 'duration', 'duration_in_seconds']);

/**
 * What one break record shows (§2.4): its fields (BRK-LIST-SHAPE listed, BRK-CREATE-SHAPE created),
 * `start`/`end` with an offset (BRK-DATETIME-FORMAT), `created_at`/`updated_at` without one
 * (BRK-TIMESTAMP-FORMAT), and the duration as end minus start in seconds (BRK-DURATION).
 */
export function breakRecordJudgements(o: Observed, item: unknown, kind: 'listed' | 'created'): Judgement[] {
  if (!isJsonObject(item)) return [judged(o, kind === 'listed' ? 'BRK-LIST-SHAPE' : 'BRK-CREATE-SHAPE', false, 'a break object', JSON.stringify(item)?.slice(0, 80) ?? 'nothing')];
  const shapeRule = kind === 'listed' ? 'BRK-LIST-SHAPE' : 'BRK-CREATE-SHAPE';
  const fields = kind === 'listed' ? LISTED_FIELDS : CREATED_FIELDS;
  const id = `break ${String(item.id)}`;
  const missing = fields.filter((f) => item[f] === undefined || (INTEGER_FIELDS.has(f) && !Number.isInteger(item[f])));
  const out: Judgement[] = [judged(o, shapeRule, missing.length === 0, `${fields.join(', ')} (integers where §2.4 says so)`, missing.length === 0 ? `${id} has them` : `${id}: ${missing.map((f) => (item[f] === undefined ? `no ${f}` : `${f} ${JSON.stringify(item[f])}`)).join(', ')}`)];
  for (const field of ['start', 'end'] as const) {
    if (typeof item[field] !== 'string') continue;
    out.push(judged(o, 'BRK-DATETIME-FORMAT', readDateTime(item[field]).offsetForm, `${field} YYYY-MM-DDTHH:MM:SS±HH:MM`, `${id}: ${field} ${String(item[field])}`));
  }
  for (const field of ['created_at', 'updated_at'] as const) {
    if (typeof item[field] !== 'string') continue;
    out.push(judged(o, 'BRK-TIMESTAMP-FORMAT', readDateTime(item[field]).naiveForm, `${field} YYYY-MM-DDTHH:MM:SS without offset`, `${id}: ${field} ${String(item[field])}`));
  }
  const durationField = kind === 'listed' ? 'duration_in_seconds' : 'duration';
  const start = typeof item.start === 'string' ? readDateTime(item.start).ms : null;
  const end = typeof item.end === 'string' ? readDateTime(item.end).ms : null;
  if (start !== null && end !== null && item[durationField] !== undefined) {
    const expected = Math.round((end - start) / 1000);
    // A listed break may be one no request of this traffic wrote, stored with a fraction of a second its whole-second
    // start and end do not show: its duration is judged within a second. A created one's are the request's own.
    const slack = kind === 'listed' ? 1 : 0;
    const value = item[durationField];
    const ok = typeof value === 'number' && Math.abs(value - expected) <= slack;
    out.push(judged(o, 'BRK-DURATION', ok, `${durationField} = ${expected} (end − start, seconds${slack ? ', within a second for a listed break' : ''})`, `${id}: ${durationField} ${JSON.stringify(value)}`));
  }
  return out;
}

/**
 * The user defaults (§2.2) a create shows: a field the request left out, read in the created record
 * the answer carries (when it carries one with that field), must hold its default. The spec does
 * not show the create response, so an answer without the record judges nothing.
 */
export function userDefaultJudgements(o: Observed, reading: GradeReading): Judgement[] {
  if (o.operation?.operationId !== 'createUser' || !isSuccess(statusOf(o)) || !isJsonObject(o.requestJson)) return [];
  const sent = o.requestJson;
  const record = locateRecord(o.responseJson, recordReading(reading.profile));
  if (!isJsonObject(record)) return [];
  const out: Judgement[] = [];
  for (const [field, value] of Object.entries(USER_DEFAULTS)) {
    if (sent[field] !== undefined) continue;
    const found = readField(record, field, reading.profile.record_fields);
    if (!found.found || found.value === undefined) continue; // null is a value the record holds: pay_rate null is not 0
    out.push(judged(o, USER_DEFAULT_RULES[field as keyof typeof USER_DEFAULTS], sameMeaning(found.value, value), `${field} ${JSON.stringify(value)} when the create leaves it out`, `${field} ${JSON.stringify(found.value)}`));
  }
  return out;
}

/**
 * ID-INTEGER on a recorded create answer of a user, schedule or timesheet: the ID it gives the
 * record, read by meaning (`"42"` is 42), is an integer. An answer that names no ID judges nothing
 * (the spec does not show these answers).
 */
export function createdIdJudgements(o: Observed, reading: GradeReading): Judgement[] {
  const kind = o.exchange.request.method === 'POST' ? createdKindOf(o.path) : undefined;
  // A break's ID is §2.4's, judged with its record (BRK-CREATE-SHAPE).
  if (kind === undefined || kind === 'break' || !isSuccess(statusOf(o))) return [];
  const read = readCreatedId(o.responseJson, reading.profile, kind);
  if (read.kind === 'absent') return [];
  return [judged(o, 'ID-INTEGER', read.kind === 'id', `an integer ID for the created ${kind} (§4: the IDs that name it are integers)`, read.kind === 'id' ? `the ID ${String(read.id)}` : `the ID ${read.shown}`)];
}
