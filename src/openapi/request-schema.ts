import type { ConditionalRule } from '../contract/conditions.ts';
import type { FieldSpec } from '../contract/payloads/field-table.ts';
import type { RequestModel } from '../contract/operations.ts';
import type { RuleId } from '../contract/rules.ts';
import { jsonSchemaOf, sortedUnique, type Json } from './_internals/json-schema-of.ts';
import type { OpenApiReading } from './openapi-reading.ts';

/** The rules one field answers to: its type, its requirement, its formats. */
function fieldRules(spec: FieldSpec): RuleId[] {
  return sortedUnique([spec.typeRule, ...(spec.requiredRule ? [spec.requiredRule] : []), ...spec.formats.map((f) => f.rule)]);
}

/** One field: its JSON type, each format's keywords (all must hold), null where it may be null, and its rule IDs. */
function fieldSchema(spec: FieldSpec): Json {
  const type = jsonSchemaOf(spec.type);
  const formats = spec.formats.map((f) => (typeof f.schema === 'function' ? f.schema() : f.schema));
  const checked: Json = formats.length === 0 ? type : formats.length === 1 ? { ...type, ...formats[0] } : { ...type, allOf: formats };
  const schema = spec.nullable ? { anyOf: [checked, { type: 'null' }] } : checked;
  return { ...schema, 'x-rule-ids': fieldRules(spec) };
}

/**
 * A conditional rule as `if`/`then`: when the trigger holds, the listed fields are required (and not
 * null). null when it does not apply to the operation, or cannot be said of the body alone: on update
 * a field trigger holds on the stored record with the changes (requestSchema lists it as beyond).
 */
function conditionSchema(condition: ConditionalRule, operation: RequestModel['operation']): Json | null {
  const { trigger } = condition;
  if (operation === 'update' && trigger.kind !== 'operation') return null;
  const then = { required: [...condition.requires], properties: Object.fromEntries(condition.requires.map((f) => [f, { not: { type: 'null' } }])) };
  const tag = { 'x-rule-ids': [condition.rule], description: condition.because };
  switch (trigger.kind) {
    case 'operation':
      return trigger.operation === operation ? { ...then, ...tag } : null;
    case 'field-equals':
      return { if: { properties: { [trigger.field]: { const: trigger.value } }, required: [trigger.field] }, then, ...tag };
    case 'field-not-equals':
      return { if: { not: { properties: { [trigger.field]: { const: trigger.value } }, required: [trigger.field] } }, then, ...tag };
  }
}

/** The §4.2 sample's annotations on edit (USR-EDIT-REQUIRED): required under the `all-four` reading. */
const EDIT_SAMPLE_REQUIRED = ['first_name', 'last_name', 'email', 'password'] as const;

/**
 * The two user readings the spec leaves open, as the reading declares them: an e-mail address
 * (`format: email`) where e-mails are validated, and the four sample fields required on edit under
 * `all-four`. `either` (no profile) asserts neither.
 */
function userReadings(model: RequestModel, properties: Record<string, Json>, reading: OpenApiReading): { required: string[]; rules: RuleId[] } {
  const email = properties.email;
  if (!email || !reading.profiled) return { required: [], rules: [] };
  const declared = reading.userEmailFormat === 'validated' ? { format: 'email', description: 'An e-mail address: the profile reads USR-EMAIL-FORMAT as `validated`.' } : reading.userEmailFormat === 'not-validated' ? { description: 'Any string: the profile reads USR-EMAIL-FORMAT as `not-validated`.' } : {};
  const emailRules: RuleId[] = reading.userEmailFormat === 'either' ? [] : ['USR-EMAIL-FORMAT'];
  properties.email = { ...email, ...declared, 'x-rule-ids': sortedUnique([...(email['x-rule-ids'] as RuleId[]), ...emailRules]) };
  const edit = model.operation === 'update' && reading.userEditRequired !== 'either';
  return { required: edit && reading.userEditRequired === 'all-four' ? [...EDIT_SAMPLE_REQUIRED] : [], rules: [...emailRules, ...(edit ? (['USR-EDIT-REQUIRED'] as const) : [])] };
}

/** The request body schema of an operation, from the spec model's field table and conditional rules, tightened to the reading. */
export function requestSchema(model: RequestModel, reading: OpenApiReading): Json {
  const properties: Record<string, Json> = Object.fromEntries(Object.entries(model.table).map(([name, spec]) => [name, fieldSchema(spec)]));
  const user = userReadings(model, properties, reading);
  const tableRequired = Object.entries(model.table).filter(([, spec]) => spec.requiredOn.includes(model.operation)).map(([name]) => name);
  const required = [...new Set([...tableRequired, ...user.required])];
  const conditions = model.conditions.map((c) => conditionSchema(c, model.operation)).filter((c): c is Json => c !== null);
  const applying = model.conditions.filter((c) => c.trigger.kind !== 'operation' || c.trigger.operation === model.operation);
  const onStored = model.operation === 'update' ? applying.filter((c) => c.trigger.kind !== 'operation') : [];
  const beyond = [...model.beyondSchema, ...onStored.map((c) => ({ rule: c.rule, why: `${c.because}, on the stored record with the changes (not the body alone)` }))];
  const rules = sortedUnique([...Object.values(model.table).flatMap(fieldRules), ...applying.map((c) => c.rule), ...model.beyondSchema.map((b) => b.rule), ...user.rules]);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(conditions.length > 0 ? { allOf: conditions } : {}),
    'x-rule-ids': rules,
    ...(beyond.length > 0 ? { 'x-clockcheck-rules-beyond-schema': beyond.map((b) => ({ rule: b.rule, requires: b.why })) } : {}),
  };
}
