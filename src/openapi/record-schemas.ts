import { z } from 'zod';
import type { FieldSpec, FieldTable } from '../contract/payloads/field-table.ts';
import { SCHEDULE_FIELDS } from '../contract/payloads/schedule.ts';
import { TIMESHEET_FIELDS } from '../contract/payloads/timesheet.ts';
import { USER_DEFAULT_RULES, USER_FIELDS } from '../contract/payloads/user.ts';
import { paginationBlock } from '../contract/responses.ts';
import type { RuleId } from '../contract/rules.ts';
import { jsonSchemaOf, sortedUnique, type Json } from './_internals/json-schema-of.ts';
import type { OpenApiReading, RecordReading } from './openapi-reading.ts';

/** The resources whose records the spec does not show (§2.1–§2.3). */
export type RecordKind = 'user' | 'schedule' | 'timesheet';

const TABLES: Readonly<Record<RecordKind, FieldTable>> = { user: USER_FIELDS, schedule: SCHEDULE_FIELDS, timesheet: TIMESHEET_FIELDS };

/** Fields a stored record always has a value for besides the required ones: those with a default (§2.1–§2.3), with the rule of the default where there is one. */
const DEFAULTED: Readonly<Record<RecordKind, Readonly<Record<string, RuleId | null>>>> = {
  user: USER_DEFAULT_RULES,
  schedule: { timezone: 'SCH-TIMEZONE-DEFAULT' },
  timesheet: { clock_in_timezone: 'TS-OFFSET-DEFAULT-TIMEZONE' },
};

/** Fields accepted but never shown back. */
const WRITE_ONLY = new Set(['password', 'update_series']);

/** A number or a numeric string (`"15.00"`), as records/same-meaning.ts reads a number. */
const NUMERIC = { type: 'string', pattern: '^\\s*[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?\\s*$' };

/** A value of `type` by meaning (records/same-meaning.ts): `"15.00"` is a number, `1` and `"0"` truth values; arrays and objects unchecked. */
function byMeaning(type: unknown): Json {
  switch (type) {
    case 'integer':
    case 'number':
      return { anyOf: [{ type: 'number' }, NUMERIC] };
    case 'boolean':
      return { anyOf: [{ type: 'boolean' }, { enum: [0, 1, '0', '1'] }] };
    case 'string':
      return { type: 'string' };
    default:
      return {};
  }
}

/** One field of a record: its type by meaning, null only where the stored value may be missing (optional, no default). */
function recordField(kind: RecordKind, name: string, spec: FieldSpec): Json {
  const always = spec.requiredOn.includes('create') || Object.hasOwn(DEFAULTED[kind], name);
  const typed = byMeaning(jsonSchemaOf(spec.type).type);
  const rules = sortedUnique([spec.typeRule, ...(spec.requiredRule ? [spec.requiredRule] : []), ...(DEFAULTED[kind][name] ? [DEFAULTED[kind][name]!] : [])]);
  const schema = always || Object.keys(typed).length === 0 ? typed : { anyOf: [typed, { type: 'null' }] };
  return { ...schema, 'x-rule-ids': rules };
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The names a field goes by in the reading's spelling: snake_case, camelCase, or both (`auto`). */
function spellings(name: string, fields: RecordReading['fields']): string[] {
  return fields === 'snake' ? [name] : fields === 'camel' ? [camel(name)] : [...new Set([name, camel(name)])];
}

/**
 * A record of `kind` as the reading spells it: each field of its §2 table that the record shows,
 * typed by meaning; none required (the spec does not show the records), `id` required where asked.
 */
export function recordSchema(kind: RecordKind, fields: RecordReading['fields'], requireId: boolean): Json {
  const properties: Record<string, Json> = { id: { ...byMeaning('integer'), description: 'The record ID.' } };
  for (const [name, spec] of Object.entries(TABLES[kind])) {
    if (WRITE_ONLY.has(name)) continue;
    for (const spelled of spellings(name, fields)) properties[spelled] = recordField(kind, name, spec);
  }
  return { type: 'object', properties, ...(requireId ? { required: ['id'] } : {}), description: `A ${kind} record, typed by meaning (the profile locates it; §2 does not show it).` };
}

/** `schema` at `pointer` inside objects that require each step (`/items` → `{items: schema}`; `` → schema itself). */
export function atPointer(pointer: string, schema: Json): Json {
  const steps = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return steps.reduceRight<Json>((inner, step) => ({ type: 'object', required: [step], properties: { [step]: inner } }), schema);
}

/** The create answer of a record: the record (with its ID) where the profile's `id_pointer` puts it; null where nothing locates it. */
export function createdRecordSchema(kind: RecordKind, reading: OpenApiReading): Json | null {
  const records = reading.records;
  if (!records || records.created === null) return null;
  return atPointer(records.created, recordSchema(kind, records.fields, true));
}

const LIST_ENVELOPE = jsonSchemaOf(z.looseObject({ meta_data: z.looseObject({ pagination: paginationBlock }) }));

/**
 * A list of records the spec does not show (GET /users, /timesheets): the pagination block of §2.5,
 * which every list carries; and, where the profile's `list_items` locates them, the items as an array
 * of records.
 */
export function listResponseSchema(kind: RecordKind, reading: OpenApiReading): Json {
  const records = reading.records;
  const envelope = { ...LIST_ENVELOPE, 'x-rule-ids': ['PAG-BLOCK-FIELDS'] };
  if (!records || records.listItems === null) return envelope;
  const items = atPointer(records.listItems, { type: 'array', items: recordSchema(kind, records.fields, false) });
  return { allOf: [envelope, items], 'x-rule-ids': ['PAG-BLOCK-FIELDS'] };
}
