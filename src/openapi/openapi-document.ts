import { z } from 'zod';
import type { ConditionalRule } from '../contract/conditions.ts';
import type { FieldSpec } from '../contract/payloads/field-table.ts';
import { ruleById, RULES, type RuleId } from '../contract/rules.ts';
import { OPERATIONS, type ListParameter, type OperationModel, type RequestModel } from '../contract/operations.ts';
import { PUBLISHED_FORM, type NotificationForm } from '../contract/webhook-notification.ts';
import { notificationBodySchema, notificationWebhook } from './notification-webhook.ts';

type Json = Record<string, unknown>;

/** The document's identity: clockcheck's version and the spec document it was derived from. */
export interface OpenApiSource {
  readonly toolVersion: string;
  readonly spec: { readonly title: string; readonly sha256: string };
  /** The form of webhook notifications (a profile's webhook.notification); default the published one. */
  readonly notification?: NotificationForm;
}

/** A zod type as JSON Schema 2020-12 (without the `$schema` line, which OpenAPI 3.1 sets for the whole document). */
function jsonSchemaOf(type: z.ZodType): Json {
  const { $schema: _, ...schema } = z.toJSONSchema(type, { target: 'draft-2020-12', unrepresentable: 'any' }) as Json;
  return schema;
}

function sortedUnique(ids: readonly RuleId[]): RuleId[] {
  const order = new Map(RULES.map((r, i) => [r.id, i]));
  return [...new Set(ids)].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

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

/** The request body schema of an operation, from the spec model's field table and conditional rules. */
export function requestSchema(model: RequestModel): Json {
  const required = Object.entries(model.table).filter(([, spec]) => spec.requiredOn.includes(model.operation)).map(([name]) => name);
  const conditions = model.conditions.map((c) => conditionSchema(c, model.operation)).filter((c): c is Json => c !== null);
  const applying = model.conditions.filter((c) => c.trigger.kind !== 'operation' || c.trigger.operation === model.operation);
  const onStored = model.operation === 'update' ? applying.filter((c) => c.trigger.kind !== 'operation') : [];
  const beyond = [...model.beyondSchema, ...onStored.map((c) => ({ rule: c.rule, why: `${c.because}, on the stored record with the changes (not the body alone)` }))];
  const rules = sortedUnique([...Object.values(model.table).flatMap(fieldRules), ...applying.map((c) => c.rule), ...model.beyondSchema.map((b) => b.rule)]);
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(model.table).map(([name, spec]) => [name, fieldSchema(spec)])),
    ...(required.length > 0 ? { required } : {}),
    ...(conditions.length > 0 ? { allOf: conditions } : {}),
    'x-rule-ids': rules,
    ...(beyond.length > 0 ? { 'x-clockcheck-rules-beyond-schema': beyond.map((b) => ({ rule: b.rule, requires: b.why })) } : {}),
  };
}

const LIST_PARAMETERS: Record<ListParameter, Json> = {
  page: { name: 'page', in: 'query', description: 'The page, from 1 (default 1).', schema: { type: 'integer', minimum: 1, default: 1 }, 'x-rule-ids': ['PAG-PAGE-DEFAULT'] },
  page_size: {
    name: 'page_size',
    in: 'query',
    description: 'Items per page (default 10, at most 100: a larger value is clamped or rejected, never served).',
    schema: { type: 'integer', minimum: 1, default: 10 },
    'x-rule-ids': ['PAG-PAGE-SIZE-DEFAULT', 'PAG-PAGE-SIZE-MAX'],
  },
  sort: {
    name: 'sort',
    in: 'query',
    description: 'Comma-separated field names; a leading `-` sorts descending.',
    schema: { type: 'string', pattern: '^-?[A-Za-z_][A-Za-z0-9_]*(?:,-?[A-Za-z_][A-Za-z0-9_]*)*$' },
    'x-rule-ids': ['SORT-ASCENDING', 'SORT-DESCENDING', 'SORT-MULTI', 'SORT-FIELD-NAMES'],
  },
  search: { name: 'search', in: 'query', description: 'Returns the items that match the value.', schema: { type: 'string' }, 'x-rule-ids': ['SEARCH-MATCHES'] },
  date_range: {
    name: 'date_range',
    in: 'query',
    description: 'Two dates, `Y-m-d,Y-m-d`: the items between them.',
    schema: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2},[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
    'x-rule-ids': ['DATE-RANGE', 'DATE-RANGE-INVALID'],
  },
  active: { name: 'active', in: 'query', description: '1: active users only; 0: inactive only.', schema: { type: 'integer', enum: [0, 1] }, 'x-rule-ids': ['USR-LIST-FILTER-ACTIVE'] },
  role: { name: 'role', in: 'query', description: 'Only users with this role: 1 Admin, 2 Manager, 3 Employee.', schema: { type: 'integer', enum: [1, 2, 3] }, 'x-rule-ids': ['USR-LIST-FILTER-ROLE'] },
};

/** What every operation may answer besides its success: the spec shows the 429 of §8 and no error bodies. */
const COMMON_RESPONSES: Json = {
  '401': { $ref: '#/components/responses/Unauthenticated' },
  '4XX': { description: 'The request is refused: invalid, unauthenticated or unknown. The spec does not show the body (a 4xx, never a 5xx, for an invalid request).', 'x-rule-ids': ['ERR-NO-SERVER-ERROR'] },
  '429': { $ref: '#/components/responses/TooManyAttempts' },
};

/** One operation; `body` is its request schema (in components), whose rules it also answers to. */
function operationObject(model: OperationModel, body: Json | undefined): Json {
  const bodyRules = (body?.['x-rule-ids'] as RuleId[] | undefined) ?? [];
  const parameterRules = (model.query ?? []).flatMap((p) => LIST_PARAMETERS[p]['x-rule-ids'] as RuleId[]);
  const rules = sortedUnique([...bodyRules, ...parameterRules, ...(model.response?.rules ?? []), ...model.rules, 'AUTH-REQUIRED', 'AUTH-HEADER-RAW', 'RATE-LIMIT-CAP']);
  const parameters = [
    ...(model.pathParameter ? [{ name: model.pathParameter.name, in: 'path', required: true, description: model.pathParameter.description, schema: { type: 'integer' } }] : []),
    ...(model.query ?? []).map((p) => LIST_PARAMETERS[p]),
  ];
  const requestBody = model.request
    ? { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${model.operationId}Request` } } } }
    : model.idsBody
      ? {
          required: false,
          description: 'GET with a JSON body (§4.4): `ids` null, empty or absent returns all breaks.',
          content: { 'application/json': { schema: { type: 'object', properties: { ids: { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'null' }] } }, 'x-rule-ids': ['BRK-IDS-FILTER', 'BRK-IDS-ALL'] } } },
        }
      : undefined;
  const success = model.response
    ? { '200': { description: 'Success, as the spec shows it (a server may send more fields).', content: { 'application/json': { schema: { $ref: `#/components/schemas/${model.operationId}Response` } } }, 'x-rule-ids': model.response.rules } }
    : { '2XX': { description: 'Success. The spec does not show the status code or the body.' } };
  return {
    operationId: model.operationId,
    summary: model.summary,
    description: `Spec §${model.section}. Rules: ${rules.map((id) => `${id} (§${ruleById(id).section})`).join(', ')}.`,
    tags: [model.path.split('/')[1]],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...success, ...COMMON_RESPONSES },
    'x-rule-ids': rules,
  };
}

/**
 * The API as OpenAPI 3.1, derived from the spec model only: each operation of §4, its request
 * schema from the field tables (types, requirements, formats as patterns and enums, the conditional
 * rules as if/then), its list parameters, the response schemas the spec shows, the token in
 * `Authorization` (§5.2), the webhook notifications (`webhooks`, in the published form or the one
 * given), and the rule IDs each part answers to (`x-rule-ids`). What JSON Schema cannot say (offsets
 * that match their timezone, references to stored records) is listed per body in
 * `x-clockcheck-rules-beyond-schema`.
 */
export function openApiDocument(source: OpenApiSource): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  for (const model of OPERATIONS) {
    const body = model.request ? requestSchema(model.request) : undefined;
    (paths[model.path] ??= {})[model.method] = operationObject(model, body);
    if (body) schemas[`${model.operationId}Request`] = body;
    if (model.response) schemas[`${model.operationId}Response`] = jsonSchemaOf(model.response.schema);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: source.spec.title,
      version: source.toolVersion,
      description: `Derived by clockcheck ${source.toolVersion} (\`clockcheck openapi\`) from its model of the spec document (SHA-256 ${source.spec.sha256}). Where the spec says "not shown" (most success codes and bodies, error bodies), this document says so and asserts nothing.`,
      license: { name: 'MIT', identifier: 'MIT' },
      'x-spec-sha256': source.spec.sha256,
    },
    servers: [{ url: '{base_url}/api/public', description: 'The spec\'s {base_url} (HTTPS only, §1).', variables: { base_url: { default: 'https://api.example.test', description: 'Your server, e.g. https://staging.example.com' } } }],
    security: [{ token: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.path.split('/')[1]!))].map((name) => ({ name, description: `Operations on ${name} (§4).` })),
    paths,
    webhooks: { notification: notificationWebhook(source.notification ?? PUBLISHED_FORM) },
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The access token, sent raw as the whole header value: `Authorization: <token>` (§5.2).', 'x-rule-ids': ['AUTH-HEADER-RAW', 'AUTH-REQUIRED', 'AUTH-TOKEN-VALID'] },
      },
      responses: {
        Unauthenticated: { description: 'No token, or one the server does not accept (§5). The spec does not show the body.', 'x-rule-ids': ['AUTH-REQUIRED', 'AUTH-TOKEN-VALID'] },
        TooManyAttempts: {
          description: 'More than 60 calls within a one-minute window (§8).',
          headers: { 'Retry-After': { description: 'When a call will be served again.', schema: { type: 'string' } } },
          'x-rule-ids': ['RATE-LIMIT-CAP', 'RATE-LIMIT-STATUS'],
        },
      },
      schemas: { ...schemas, NotificationBody: notificationBodySchema(source.notification ?? PUBLISHED_FORM) },
    },
  };
}
