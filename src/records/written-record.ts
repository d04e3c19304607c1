import { parseOffsetDateTime } from '../contract/formats/index.ts';
import { USER_DEFAULT_RULES, USER_DEFAULTS } from '../contract/payloads/user.ts';
import type { RuleId } from '../contract/rules.ts';
import { readField } from './field-name.ts';
import type { RecordReading } from './record-reading.ts';
import { asNumber, sameMeaning } from './same-meaning.ts';

/**
 * What a run wrote, as the record a read must show (§1: POST creates, PUT updates; §2.2, §2.3,
 * §4.4: the fields written). Every accepted write of a user, timesheet or break is kept as the
 * values it sent, per field; a read of the record is then judged field by field by meaning. The
 * records are "not shown" (§2.1–§2.3): a field the read does not show is not judged, a field it
 * shows must hold what was written (a server may add fields and choose representations; it may
 * not change a value).
 */
export type StoredKind = 'user' | 'timesheet' | 'break';

/**
 * How a field's value is compared, and the rule a difference breaks: `text` (free text, exactly:
 * STORE-TEXT), `name` (a name from a set, such as a timezone, exactly), `code` (an ID or an
 * enumeration, by meaning), `quantity` (an integer amount) and `decimal` (a float) by meaning
 * (STORE-NUMBER), `boolean` by meaning, `datetime` as an instant (STORE-DATETIME). A `name`, `code`
 * or `boolean` that differs breaks STORE-CREATE, or STORE-EDIT when an edit wrote it.
 */
export type ValueKind = 'text' | 'name' | 'code' | 'quantity' | 'decimal' | 'boolean' | 'datetime';

/**
 * The fields a read is judged on, by kind of record. Never the password (write-only), the *_option
 * flags (their meaning is not shown, §2.2) or custom_fields (keys are the target's own field IDs);
 * a break's `timesheet_id`, since §2.4's list form does not carry it.
 */
export const STORED_FIELDS: Readonly<Record<StoredKind, Readonly<Record<string, ValueKind>>>> = {
  user: {
    first_name: 'text',
    last_name: 'text',
    email: 'text',
    phone: 'text',
    company_employee_id: 'text',
    employee_code: 'text',
    role_id: 'code',
    track_location: 'boolean',
    track_mileage: 'boolean',
    pay_rate: 'quantity',
    billing_rate_type: 'code',
  },
  timesheet: {
    user_id: 'code',
    start: 'datetime',
    end: 'datetime',
    job_id: 'code',
    task_id: 'code',
    clock_in_timezone: 'name',
    clock_out_timezone: 'name',
    notes: 'text',
    mileage: 'decimal',
  },
  break: { break_rule_id: 'code', start: 'datetime', end: 'datetime' },
};

/** One field's expected value: what wrote it (a create, an edit, or §2.2's default), and the value before an edit. */
export interface Expected {
  readonly value: unknown;
  readonly by: 'create' | 'edit' | 'default';
  /** The rule a default belongs to (USR-*-DEFAULT). */
  readonly defaultRule?: RuleId;
  /** Before the edit that wrote it, when the record was known then: the value just before, and every earlier one. */
  readonly before?: { readonly value: unknown; readonly earlier: readonly unknown[] };
}

/** A record the run wrote: its kind, ID, the fields expected, and the exchanges that wrote it (their IDs). */
export interface WrittenRecord {
  readonly kind: StoredKind;
  readonly id: string;
  readonly fields: ReadonlyMap<string, Expected>;
  readonly writtenBy: readonly string[];
}

/**
 * Fields whose null the spec reads as "none given": a timesheet's timezones default to the company's
 * (§2.3), which the run may not know, so a null written there is not judged.
 */
const NULL_TAKES_DEFAULT: Readonly<Record<StoredKind, readonly string[]>> = { user: [], timesheet: ['clock_in_timezone', 'clock_out_timezone'], break: [] };

/** Whether a write of `value` to the field is judged on a read (not absent, not a null that takes a default). */
const judgedWrite = (kind: StoredKind, name: string, value: unknown) => value !== undefined && !(value === null && NULL_TAKES_DEFAULT[kind].includes(name));

/** The fields a create writes: those sent (of STORED_FIELDS), and for a user the §2.2 defaults of those left out. */
export function createdFields(kind: StoredKind, body: Readonly<Record<string, unknown>>): Map<string, Expected> {
  const fields = new Map<string, Expected>();
  for (const name of Object.keys(STORED_FIELDS[kind])) {
    if (judgedWrite(kind, name, body[name])) fields.set(name, { value: body[name], by: 'create' });
  }
  if (kind === 'user') {
    for (const [name, value] of Object.entries(USER_DEFAULTS)) {
      if (!fields.has(name)) fields.set(name, { value, by: 'default', defaultRule: USER_DEFAULT_RULES[name as keyof typeof USER_DEFAULTS] });
    }
  }
  return fields;
}

/**
 * The fields after an accepted edit: those it sent, with the value before; the others as they were
 * (PUT is partial, §1, §4.2). Of a record the run created (`known`), a field no write named was
 * null before (only to name the rule an edit read back unchanged breaks: it is not judged).
 */
export function editedFields(kind: StoredKind, known: ReadonlyMap<string, Expected> | undefined, body: Readonly<Record<string, unknown>>): Map<string, Expected> {
  const fields = new Map(known ?? []);
  for (const name of Object.keys(STORED_FIELDS[kind])) {
    if (!judgedWrite(kind, name, body[name])) continue;
    const was = known?.get(name);
    const before = was === undefined ? null : was.value;
    const earlier = [before, ...(was?.before?.earlier ?? [])];
    fields.set(name, { value: body[name], by: 'edit', ...(known === undefined ? {} : { before: { value: before, earlier } }) });
  }
  return fields;
}

/** A field a read shows with another value than the one written. */
export interface Difference {
  readonly field: string;
  readonly rule: RuleId;
  readonly expected: string;
  readonly actual: string;
}

/**
 * The differences between a record as read and what was written: each field of `written` the read
 * shows (under either spelling the reading allows), compared as its kind says. A field not shown is
 * not judged; nor is a datetime shown without an offset (no instant to compare).
 */
export function differences(written: WrittenRecord, read: unknown, reading: RecordReading): Difference[] {
  const out: Difference[] = [];
  for (const [name, expected] of written.fields) {
    const shown = readField(read, name, reading.fields);
    if (!shown.found) continue;
    const kind = STORED_FIELDS[written.kind][name] as ValueKind;
    if (same(kind, shown.value, expected.value)) continue;
    if (kind === 'datetime' && typeof shown.value === 'string' && instantOf(shown.value) === null) continue;
    out.push({ field: name, rule: ruleOf(kind, expected, shown.value), expected: describeExpected(name, expected), actual: show(shown.value) });
  }
  return out;
}

/** How many of the written fields a read shows (those `differences` judges). */
export function shownCount(fields: ReadonlyMap<string, Expected>, read: unknown, reading: RecordReading): number {
  let count = 0;
  for (const name of fields.keys()) if (readField(read, name, reading.fields).found) count++;
  return count;
}

/** Whether `actual` is what was written, as `kind` compares. */
function same(kind: ValueKind, actual: unknown, expected: unknown): boolean {
  if (expected === null) return actual === null || actual === undefined;
  switch (kind) {
    case 'text':
    case 'name':
      return typeof actual === 'string' && actual === expected;
    case 'quantity':
    case 'decimal': {
      const [a, b] = [asNumber(actual), asNumber(expected)];
      return a !== null && a === b;
    }
    case 'datetime': {
      const [a, b] = [typeof actual === 'string' ? instantOf(actual) : null, typeof expected === 'string' ? instantOf(expected) : null];
      return a !== null && a === b;
    }
    case 'code':
    case 'boolean':
      return sameMeaning(actual, expected);
  }
}

/**
 * The rule a difference breaks: an edit read back with a value the field held before it did not show (STORE-EDIT);
 * else a default not applied (its USR-*-DEFAULT rule), text changed (STORE-TEXT), a number changed
 * (STORE-NUMBER: a quantity or a decimal read as another number), an instant moved (STORE-DATETIME),
 * any other value of a create (STORE-CREATE) or an edit (STORE-EDIT).
 */
function ruleOf(kind: ValueKind, expected: Expected, actual: unknown): RuleId {
  // The value of an earlier state of the record: an edit (this one or one before it) was not stored.
  if (expected.by === 'edit' && expected.before !== undefined && expected.before.earlier.some((value) => same(kind, actual, value))) return 'STORE-EDIT';
  if (expected.by === 'default' && expected.defaultRule !== undefined) return expected.defaultRule;
  // A null written (an open timesheet's end) read back as a value: not a value changed, a value made up.
  if (expected.value === null) return expected.by === 'edit' ? 'STORE-EDIT' : 'STORE-CREATE';
  if (kind === 'text') return 'STORE-TEXT';
  if ((kind === 'decimal' || kind === 'quantity') && asNumber(actual) !== null) return 'STORE-NUMBER';
  if (kind === 'datetime') return 'STORE-DATETIME';
  return expected.by === 'edit' ? 'STORE-EDIT' : 'STORE-CREATE';
}

/** The instant a datetime with an offset (or `Z`) means, in epoch ms; null for any other text. */
function instantOf(text: string): number | null {
  const parsed = parseOffsetDateTime(text);
  if (parsed) return parsed.dateTime.toMillis();
  // A read may show the instant in UTC with `Z` or with fractional seconds: the same instant, another form.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

function describeExpected(name: string, expected: Expected): string {
  const what = expected.by === 'default' ? `its default (§2.2), left out of the create` : expected.by === 'edit' ? 'as the edit wrote it' : 'as the create wrote it';
  return `${name} ${show(expected.value)}, ${what}${expected.before !== undefined ? ` (before the edit: ${show(expected.before.value)})` : ''}`;
}

/** A value as a finding shows it: JSON, with every character outside printable ASCII escaped so a changed one shows. */
export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  const text = typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  return text.replace(/[^\x20-\x7e]/gu, (c) => [...c].map((p) => `\\u{${p.codePointAt(0)!.toString(16)}}`).join(''));
}
