import type { OperationModel } from '../contract/operations.ts';
import type { RuleId } from '../contract/rules.ts';
import { jsonSchemaOf, type Json } from './_internals/json-schema-of.ts';
import type { OpenApiReading, StatusKind } from './openapi-reading.ts';
import { createdRecordSchema, listResponseSchema, type RecordKind } from './record-schemas.ts';

/** An operation's answers as literal status codes, and the response schemas they name (for components). */
export interface OperationResponses {
  readonly responses: Record<string, Json>;
  readonly schemas: Record<string, Json>;
}

/** What a success answers, by method: POST creates, PUT updates, GET lists, DELETE deletes. */
function successKind(model: OperationModel): StatusKind {
  return ({ post: 'create', put: 'update', get: 'list', delete: 'delete' } as const)[model.method];
}

/** The resource whose record an operation answers with, where the spec does not show it. */
function recordKind(model: OperationModel): RecordKind | null {
  const resource = model.path.split('/')[1];
  return resource === 'users' ? 'user' : resource === 'schedules' ? 'schedule' : resource === 'timesheets' ? 'timesheet' : null;
}

/** The success body's schema: the one the spec shows, the pagination block of a list, the located record of a create; null for "not shown". */
function successSchema(model: OperationModel, reading: OpenApiReading): Json | null {
  if (model.response) return jsonSchemaOf(model.response.schema);
  const kind = recordKind(model);
  if (kind === null) return null;
  if (model.method === 'get') return listResponseSchema(kind, reading);
  return model.method === 'post' ? createdRecordSchema(kind, reading) : null;
}

/** Says which codes a success may have, and what its body is. */
function successDescription(kind: StatusKind, codes: readonly number[], shown: boolean): string {
  const which = codes.length === 1 ? `${codes[0]}` : `one of ${codes.join(', ')} (the spec does not show which, §7; a profile's status_codes.${kind} names one)`;
  return `Success: ${which}. ${shown ? 'The body as the schema says (a server may send more fields).' : 'The spec does not show the body: JSON (§1), not asserted.'}`;
}

/** The success codes of an operation, each with the body the reading can say (none for a 204). */
function successResponses(model: OperationModel, reading: OpenApiReading, schemaRef: string | null): Record<string, Json> {
  const kind = successKind(model);
  const codes = reading.statuses[kind];
  const rules: RuleId[] = ['ERR-SUCCESS-STATUS', ...(model.response?.rules ?? []), 'JSON-RESPONSE'];
  const entries = codes.map((code) => {
    if (code === 204) return [String(code), { description: 'Success without a body (204).', 'x-rule-ids': ['ERR-SUCCESS-STATUS'] }] as const;
    const media = schemaRef ? { schema: { $ref: schemaRef } } : {};
    return [String(code), { description: successDescription(kind, codes, schemaRef !== null), content: { 'application/json': media }, 'x-rule-ids': rules }] as const;
  });
  return Object.fromEntries(entries);
}

/** The refusals of an operation: a validation failure (where it takes input), an unknown record (a path ID; the subscription), a refused token, §8's limit. */
function refusals(model: OperationModel, reading: OpenApiReading): Record<string, Json> {
  const takesInput = model.request !== undefined || model.query !== undefined || model.idsBody === true;
  const mayBeUnknown = model.pathParameter !== undefined || model.method === 'delete';
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  return {
    ...(takesInput ? Object.fromEntries(reading.statuses.validation.map((code) => [String(code), ref('ValidationFailed')])) : {}),
    ...Object.fromEntries(reading.statuses.unauthenticated.map((code) => [String(code), ref('Unauthenticated')])),
    ...(mayBeUnknown ? { '404': ref('NotFound') } : {}),
    '429': ref('TooManyAttempts'),
  };
}

/**
 * An operation's responses, every one a literal code (no `2XX`/`4XX` ranges, no `default`): its
 * success codes under the reading (both 200 and 201 for a creation the spec leaves open; the
 * profile's one code), each with the body schema the spec shows or the profile locates, then its
 * refusals. The schemas go to components as `<operationId>Response`.
 */
export function operationResponses(model: OperationModel, reading: OpenApiReading): OperationResponses {
  const schema = successSchema(model, reading);
  const name = `${model.operationId}Response`;
  const responses = { ...successResponses(model, reading, schema ? `#/components/schemas/${name}` : null), ...refusals(model, reading) };
  return { responses, schemas: schema ? { [name]: schema } : {} };
}

/** One code or several, as a description says them. */
const codesText = (codes: readonly number[]) => (codes.length === 1 ? `${codes[0]}` : codes.join(' or '));

/** The refusals' shared responses: bodies JSON (§1), their shape not shown (§7). */
export function refusalComponents(reading: OpenApiReading): Record<string, Json> {
  const json = { 'application/json': {} };
  const declared = (kind: StatusKind) => (reading.profiled && reading.statuses[kind].length === 1 ? " (the profile's status_codes." + kind + ')' : ' (§7: not shown)');
  return {
    ValidationFailed: {
      description: `The input breaks a rule: ${codesText(reading.statuses.validation)}${declared('validation')}, never a 5xx. The spec does not show the body.`,
      content: json,
      'x-rule-ids': ['ERR-VALIDATION-STATUS', 'ERR-NO-SERVER-ERROR', 'ERR-BODY-SHAPE'],
    },
    Unauthenticated: {
      description: `No token, or one the server does not accept (§5): ${codesText(reading.statuses.unauthenticated)}${declared('unauthenticated')}. The spec does not show the body.`,
      content: json,
      'x-rule-ids': ['AUTH-REQUIRED', 'AUTH-TOKEN-VALID', 'AUTH-STATUS'],
    },
    NotFound: { description: 'No such record (an unknown path ID, or no subscription to remove). The spec does not show the code or the body; 404 is HTTP\'s.', content: json, 'x-rule-ids': ['SCH-UPDATE-UNKNOWN', 'USR-EDIT-UNKNOWN'] },
    TooManyAttempts: {
      description: 'More than 60 calls within a one-minute window (§7, §8): "Too Many Attempts".',
      headers: { 'Retry-After': { description: 'When a call will be served again.', schema: { type: 'string' } } },
      content: json,
      'x-rule-ids': ['RATE-LIMIT-CAP', 'RATE-LIMIT-STATUS'],
    },
  };
}
