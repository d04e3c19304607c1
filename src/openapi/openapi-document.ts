import { ruleById, type RuleId } from '../contract/rules.ts';
import { OPERATIONS, type OperationModel } from '../contract/operations.ts';
import { notificationBodySchema, notificationWebhook } from './notification-webhook.ts';
import { sortedUnique, type Json } from './_internals/json-schema-of.ts';
import { WEAKEST_READING, type OpenApiReading } from './openapi-reading.ts';
import { requestSchema } from './request-schema.ts';
import { listParameter } from './list-parameters.ts';
import { requestExample } from './request-examples.ts';
import { operationResponses, refusalComponents } from './operation-responses.ts';

/** The document's identity: clockcheck's version and the spec document it was derived from. */
export interface OpenApiSource {
  readonly toolVersion: string;
  readonly spec: { readonly title: string; readonly sha256: string };
  /** The readings it is written to (openApiReading: a profile's, a target); default WEAKEST_READING. */
  readonly reading?: OpenApiReading;
  /**
   * `document` (default): GET /breaks documents its optional JSON body (§4.4 `ids`), with no example;
   * `omit`: leaves it out, for tools that fill a body from the schema and proxies that refuse to
   * forward a GET with a body (Prism's proxy answers 501).
   */
  readonly getBody?: 'document' | 'omit';
}

/** The request body of an operation: its schema (in components) with an example the server accepts, or GET /breaks' optional `ids`. */
function requestBody(model: OperationModel, example: Json | undefined, getBody: 'document' | 'omit'): Json | undefined {
  const media = (schema: Json) => ({ 'application/json': { schema, ...(example ? { example } : {}) } });
  if (model.request) return { required: true, content: media({ $ref: `#/components/schemas/${model.operationId}Request` }) };
  if (!model.idsBody || getBody === 'omit') return undefined;
  const ids = { type: 'object', properties: { ids: { anyOf: [{ type: 'array', items: { type: 'integer' } }, { type: 'null' }] } }, 'x-rule-ids': ['BRK-IDS-FILTER', 'BRK-IDS-ALL'] };
  return { required: false, description: 'GET with a JSON body (§4.4): `ids` null, empty or absent returns all breaks.', content: media(ids) };
}

/** One operation; `body` is its request schema (in components), whose rules it also answers to. */
function operationObject(model: OperationModel, body: Json | undefined, responses: Record<string, Json>, reading: OpenApiReading, getBody: 'document' | 'omit'): Json {
  const example = requestExample(model, reading);
  const query = (model.query ?? []).map((p) => listParameter(p, reading));
  const bodyRules = (body?.['x-rule-ids'] as RuleId[] | undefined) ?? [];
  const parameterRules = query.flatMap((p) => p['x-rule-ids'] as RuleId[]);
  const rules = sortedUnique([...bodyRules, ...parameterRules, ...(model.response?.rules ?? []), ...model.rules, 'AUTH-REQUIRED', 'AUTH-HEADER-RAW', 'RATE-LIMIT-CAP']);
  const path = model.pathParameter
    ? [{ name: model.pathParameter.name, in: 'path', required: true, description: model.pathParameter.description, schema: { type: 'integer' }, example: example.pathParameter ?? 1 }]
    : [];
  const parameters = [...path, ...query];
  const request = requestBody(model, example.body, getBody);
  return {
    operationId: model.operationId,
    summary: model.summary,
    description: `Spec §${model.section}. Rules: ${rules.map((id) => `${id} (§${ruleById(id).section})`).join(', ')}.`,
    tags: [model.path.split('/')[1]],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(request ? { requestBody: request } : {}),
    responses,
    'x-rule-ids': rules,
  };
}

/** The server: the reading's (a --target or the profile's target, with its API prefix), else the spec's `{base_url}` as a variable. */
function servers(reading: OpenApiReading): Json[] {
  if (reading.serverUrl !== null) return [{ url: reading.serverUrl, description: 'The target (HTTPS only, §1).' }];
  return [{ url: '{base_url}/api/public', description: "The spec's {base_url} (HTTPS only, §1).", variables: { base_url: { default: 'https://api.example.test', description: 'Your server, e.g. https://staging.example.com' } } }];
}

/** What the document says it asserts where the spec says "not shown": the weakest reading, or the profile's. */
function readingNote(reading: OpenApiReading): string {
  return reading.profiled
    ? 'Where the spec says "not shown", it is written to the readings of the profile it was exported with (`--profile`): its status codes, where its records are and how their fields are spelled, its e-mail, edit and page_size readings, its fixtures in the examples.'
    : 'Where the spec says "not shown" (success codes, error codes, most bodies), it lists every code the spec admits, literally, and asserts only the bodies the spec shows (the breaks of §2.4, the pagination block of every list, §2.5); `--profile` writes it to one server\'s readings.';
}

/**
 * The API as OpenAPI 3.1, derived from the spec model and written to a reading (the spec's weakest,
 * or a profile's): each operation of §4, its request schema from the field tables (types,
 * requirements, formats as patterns and enums, the conditional rules as if/then) with an example a
 * server accepts, its list parameters, its answers as literal status codes with the response schemas
 * the spec shows or the profile locates, the token in `Authorization` (§5.2), the webhook
 * notifications (`webhooks`), and the rule IDs each part answers to (`x-rule-ids`). What JSON Schema
 * cannot say (offsets that match their timezone, references to stored records) is listed per body in
 * `x-clockcheck-rules-beyond-schema`.
 */
export function openApiDocument(source: OpenApiSource): Json {
  const reading = source.reading ?? WEAKEST_READING;
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = {};
  for (const model of OPERATIONS) {
    const body = model.request ? requestSchema(model.request, reading) : undefined;
    const answers = operationResponses(model, reading);
    (paths[model.path] ??= {})[model.method] = operationObject(model, body, answers.responses, reading, source.getBody ?? 'document');
    if (body) schemas[`${model.operationId}Request`] = body;
    Object.assign(schemas, answers.schemas);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: source.spec.title,
      version: source.toolVersion,
      description: `Derived by clockcheck ${source.toolVersion} (\`clockcheck openapi\`) from its model of the spec document (SHA-256 ${source.spec.sha256}). ${readingNote(reading)}`,
      license: { name: 'MIT', identifier: 'MIT' },
      'x-spec-sha256': source.spec.sha256,
    },
    servers: servers(reading),
    security: [{ token: [] }],
    tags: [...new Set(OPERATIONS.map((o) => o.path.split('/')[1]!))].map((name) => ({ name, description: `Operations on ${name} (§4).` })),
    paths,
    webhooks: { notification: notificationWebhook(reading.notification) },
    components: {
      securitySchemes: {
        token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The access token, sent raw as the whole header value: `Authorization: <token>` (§5.2), no scheme.', 'x-rule-ids': ['AUTH-HEADER-RAW', 'AUTH-REQUIRED', 'AUTH-TOKEN-VALID'] },
      },
      responses: refusalComponents(reading),
      schemas: { ...schemas, NotificationBody: notificationBodySchema(reading.notification) },
    },
  };
}
