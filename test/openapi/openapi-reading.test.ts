import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/operations.ts';
import { isNaiveDateTime } from '../../src/contract/formats/index.ts';
import { openApiDocument } from '../../src/openapi/openapi-document.ts';
import { openApiReading, serverUrlOf, WEAKEST_READING, type OpenApiReading } from '../../src/openapi/openapi-reading.ts';
import { NAIVE_DATETIME_PATTERN } from '../../src/openapi/_internals/json-schema-of.ts';
import { defaultProfile, parseProfile } from '../../src/profile/profile.ts';
import { DIALECT_NAMES, DIALECTS, type DialectName } from '../../src/reference/dialect.ts';
import { PUBLISHED_FORM } from '../../src/contract/webhook-notification.ts';
import { UsageError } from '../../src/errors.ts';
import { startTestServer, type TestServer } from '../support/reference-client.ts';
import { dialectProfile } from './dialect-profiles.ts';

const SOURCE = { toolVersion: '0.0.0-test', spec: { title: 'spec', sha256: 'a'.repeat(64) } };
const documentOf = (reading: OpenApiReading) => openApiDocument({ ...SOURCE, reading }) as any;
const operationsOf = (doc: any) => OPERATIONS.map((op) => ({ op, operation: doc.paths[op.path][op.method] }));

/** JSON Schema 2020-12 as OpenAPI 3.1 reads it, with the document's own keywords and `format: email`. */
function ajv2020(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: false, strict: true });
  for (const keyword of ['x-rule-ids', 'x-clockcheck-rules-beyond-schema', 'x-clockcheck-note']) ajv.addKeyword(keyword);
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  return ajv;
}

describe('the answers of each operation are literal status codes', () => {
  it('lists no range (2XX, 4XX) and no default: every key is a three-digit code', () => {
    for (const { operation } of operationsOf(documentOf(WEAKEST_READING))) {
      for (const key of Object.keys(operation.responses)) expect(key).toMatch(/^[1-5][0-9]{2}$/);
    }
  });

  it('without a profile, every code the spec admits: 200 and 201 on create, 400 and 422, 401 and 403, 404 where an ID may be unknown, 429', () => {
    const codes = Object.fromEntries(operationsOf(documentOf(WEAKEST_READING)).map(({ op, operation }) => [op.operationId, Object.keys(operation.responses).join(',')]));
    expect(codes).toEqual({
      createSchedule: '200,201,400,401,403,422,429',
      updateSchedule: '200,204,400,401,403,404,422,429',
      createUser: '200,201,400,401,403,422,429',
      editUser: '200,204,400,401,403,404,422,429',
      listUsers: '200,400,401,403,422,429',
      createTimesheet: '200,201,400,401,403,422,429',
      listTimesheets: '200,400,401,403,422,429',
      createBreak: '200,201,400,401,403,422,429',
      listBreaks: '200,400,401,403,422,429',
      unsubscribeWebhook: '200,204,401,403,404,429',
    });
  });

  it("with a profile, its status_codes: the creation code, the validation code and the refusal code it declares, and no other", async () => {
    const doc = documentOf(openApiReading(await dialectProfile('alternative'), undefined));
    const post = doc.paths['/breaks'].post.responses;
    expect(Object.keys(post)).toEqual(['200', '400', '403', '429']);
    expect(post['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/createBreakResponse' });
    const standard = documentOf(openApiReading(await dialectProfile('standard'), undefined));
    expect(Object.keys(standard.paths['/users/{user_id}'].put.responses)).toEqual(['200', '401', '404', '422', '429']);
    expect(Object.keys(standard.paths['/schedules'].post.responses)).toEqual(['201', '401', '422', '429']);
  });
});

describe('servers, examples and the security scheme', () => {
  it("names --target with the profile's api_prefix, else the profile's target, else the spec's {base_url} variable", () => {
    const prefixed = parseProfile('target: https://from-profile.test\napi_prefix: /api/v2\n', 'p.yaml');
    expect(documentOf(openApiReading(prefixed, 'https://time.test:8080/')).servers).toEqual([expect.objectContaining({ url: 'https://time.test:8080/api/v2' })]);
    expect(documentOf(openApiReading(prefixed, undefined)).servers).toEqual([expect.objectContaining({ url: 'https://from-profile.test/api/v2' })]);
    expect(documentOf(openApiReading(undefined, 'https://time.test')).servers[0].url).toBe('https://time.test/api/public');
    expect(documentOf(WEAKEST_READING).servers[0]).toMatchObject({ url: '{base_url}/api/public', variables: { base_url: { default: 'https://api.example.test' } } });
    for (const bad of ['http://time.test', 'https://time.test/api/public', 'time.test']) expect(() => serverUrlOf(bad, '/api/public'), bad).toThrow(UsageError);
  });

  it('sends the raw token as an API key in the Authorization header (§5.2)', () => {
    expect(documentOf(WEAKEST_READING).components.securitySchemes.token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  const readings: [string, () => Promise<OpenApiReading>, string][] = [
    ['no profile, a company in Chicago', async () => WEAKEST_READING, 'America/Chicago'],
    ['no profile, a company in Berlin', async () => WEAKEST_READING, 'Europe/Berlin'],
    ...DIALECT_NAMES.map((d): [string, () => Promise<OpenApiReading>, string] => [`the ${d} profile`, async () => openApiReading(await dialectProfile(d), undefined), 'America/Chicago']),
    ['a profile in New York', async () => openApiReading(parseProfile('company_timezone: America/New_York\nuser_edit_required: none\n', 'p.yaml'), undefined), 'America/New_York'],
  ];

  it.each(readings)('%s: every path parameter has an example, and every request example is valid for its schema and the spec model', async (_name, read, companyTimezone) => {
    const doc = documentOf(await read());
    const ajv = ajv2020();
    for (const { op, operation } of operationsOf(doc)) {
      for (const parameter of (operation.parameters ?? []).filter((p: { in: string }) => p.in === 'path')) expect(Number.isInteger(parameter.example), `${op.operationId} ${parameter.name}`).toBe(true);
      const media = operation.requestBody?.content['application/json'];
      if (!media) continue;
      // GET /breaks documents its optional body with no example: it is sent without one (§4.4, and proxies refuse a GET with a body).
      if (op.operationId === 'listBreaks') {
        expect(media.example, op.operationId).toBeUndefined();
        continue;
      }
      expect(media.example, op.operationId).toBeDefined();
      const schema = media.schema.$ref ? doc.components.schemas[media.schema.$ref.split('/').pop()] : media.schema;
      const validate = ajv.compile(schema);
      expect(validate(media.example), `${op.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
      if (op.request) expect(op.request.violations(media.example, { companyTimezone }), op.operationId).toEqual([]);
    }
  });
});

describe('response schemas the tools can read', () => {
  it('created_at and updated_at of §2.4 as the pattern of a datetime without offset, equal to isNaiveDateTime', () => {
    const re = new RegExp(NAIVE_DATETIME_PATTERN, 'u');
    const two = fc.integer({ min: 0, max: 61 }).map((n) => String(n).padStart(2, '0'));
    const near = fc.tuple(fc.constantFrom('2024', '2023', '1900', '2000'), two, two, two, two, two, fc.constantFrom('', 'Z', '+02:00')).map(([y, mo, d, h, mi, s, z]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${z}`);
    fc.assert(fc.property(fc.oneof(near, fc.string()), (s) => re.test(s) === isNaiveDateTime(s)), { numRuns: 10_000 });
    const schema = documentOf(WEAKEST_READING).components.schemas.listBreaksResponse;
    expect(JSON.stringify(schema)).toContain(JSON.stringify(NAIVE_DATETIME_PATTERN).slice(1, -1));
  });

  it("a created break's items, an object or one-element array (§4.4), is read alike by a 2020-12 and a draft-07 validator (Postman's)", () => {
    const schema = documentOf(WEAKEST_READING).components.schemas.createBreakResponse;
    const item = { id: 1, timesheet_id: 1, start: '2026-10-01T13:00:00-05:00', end: '2026-10-01T13:20:00-05:00', break_rule_id: 1, duration: 1200, created_at: '2026-10-01T18:00:00', updated_at: '2026-10-01T18:00:00' };
    const draft07 = new Ajv({ strict: false });
    for (const validate of [ajv2020().compile(schema), draft07.compile(schema)]) {
      expect(validate({ items: item, message: 'Break added.' })).toBe(true);
      expect(validate({ items: [item], message: 'Break added.' })).toBe(true);
      expect(validate({ items: [item, item], message: 'Break added.' })).toBe(false);
      expect(validate({ items: { ...item, created_at: '2026-10-01T18:00:00Z' }, message: 'Break added.' })).toBe(false);
    }
  });

  it('records where the profile locates them, typed by meaning: "15.00" and 1 pass, a null default does not', async () => {
    const doc = documentOf(openApiReading(await dialectProfile('laravel'), undefined));
    const validate = ajv2020().compile(doc.components.schemas.createUserResponse);
    expect(validate({ items: { id: 9, first_name: 'Grace', pay_rate: '15.00', track_location: 0, phone: null }, message: 'ok' })).toBe(true);
    expect(validate({ items: { id: 9, first_name: 'Grace', pay_rate: null }, message: 'ok' })).toBe(false);
    expect(validate({ data: { id: 9 } })).toBe(false);
    expect(documentOf(WEAKEST_READING).paths['/users'].post.responses['201'].content['application/json']).toEqual({});
    const camel = documentOf(openApiReading(await dialectProfile('alternative'), undefined)).components.schemas.createUserResponse;
    expect(camel.properties.data.properties).toHaveProperty('payRate');
    expect(defaultProfile().id_pointer).toBeUndefined();
  });
});

describe('the dialect profiles (test/interop/fixtures-openapi/)', () => {
  it.each(DIALECT_NAMES)('%s: declares the readings its dialect makes', async (dialect) => {
    const profile = await dialectProfile(dialect);
    const made = DIALECTS[dialect];
    expect({ email: profile.user_email_format, edit: profile.user_edit_required, pageSize: profile.page_size_over_max, fields: profile.record_fields }).toEqual({
      email: made.emailFormat,
      edit: made.editRequires,
      pageSize: made.pageSizeOverMax,
      fields: dialect === 'alternative' || dialect === 'bare' ? 'camel' : 'snake',
    });
    expect(profile.webhook?.notification ?? PUBLISHED_FORM).toEqual(made.notificationForm);
  });
});

describe.each(DIALECT_NAMES)("the %s dialect's clean answers to the examples fit its profile's document (ajv)", (dialect: DialectName) => {
  let client: TestServer;
  beforeAll(async () => {
    client = await startTestServer({ dialect });
  });
  afterAll(() => client.close());

  it('each operation answers one of its listed codes with a body its schema accepts', async () => {
    const doc = documentOf(openApiReading(await dialectProfile(dialect), undefined));
    const ajv = ajv2020();
    for (const { op, operation } of operationsOf(doc)) {
      const path = op.path.replace(/\{[^}]+\}/, String(operation.parameters?.[0]?.example));
      const body = op.method === 'get' ? undefined : operation.requestBody?.content['application/json'].example;
      const reply = await client.call(op.method.toUpperCase(), path, { body });
      const success = Object.keys(operation.responses).filter((code) => code.startsWith('2'));
      expect(success, `${op.operationId}: ${reply.status} ${reply.text}`).toContain(String(reply.status));
      const ref = operation.responses[String(reply.status)].content?.['application/json']?.schema?.$ref;
      if (!ref) continue;
      const validate = ajv.compile(doc.components.schemas[ref.split('/').pop()]);
      expect(validate(reply.json), `${op.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });
});
