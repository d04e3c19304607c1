import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/openapi/openapi-document.ts';
import { openApiReading, WEAKEST_READING } from '../../src/openapi/openapi-reading.ts';
import { DIALECT_NAMES } from '../../src/reference/dialect.ts';
import { dialectProfile } from './dialect-profiles.ts';
import { OPERATIONS, operationFor } from '../../src/contract/operations.ts';
import { PROPERTY_FAMILIES } from '../../src/properties/families.ts';
import { seedContext } from '../../src/properties/seed-context.ts';
import type { RuleId } from '../../src/contract/rules.ts';
import { RULES } from '../../src/contract/rules.ts';
import { ROOT } from '../support/cli.ts';
import { ALTERNATIVE_NOTIFICATION_FORM } from '../../src/reference/dialect.ts';
import { NotificationForm, notificationBody, PUBLISHED_FORM, signatureHeaders } from '../../src/contract/webhook-notification.ts';

const exec = promisify(execFile);
const document = openApiDocument({ toolVersion: '0.0.0-test', spec: { title: 'spec', sha256: 'a'.repeat(64) } }) as any;
/** Generated cases per property family, valid and invalid mixed. */
const CASES = 400;

/** The request schemas' own rules: a broken type, requirement or format the schema must reject (the rest it lists as beyond it). */
function schemaRules(schema: any): Set<RuleId> {
  const beyond = new Set((schema['x-clockcheck-rules-beyond-schema'] ?? []).map((b: { rule: RuleId }) => b.rule));
  return new Set((schema['x-rule-ids'] as RuleId[]).filter((r) => !beyond.has(r)));
}

/** The operation a family's cases are sent to. */
function operationOf(method: string, path: string) {
  const op = operationFor(method, path);
  if (!op) throw new Error(`no operation for ${method} ${path}`);
  return op;
}

describe('clockcheck openapi: the spec model as OpenAPI 3.1', () => {
  it("is valid for Redocly's linter (@redocly/cli lint, recommended rules), plain and for each dialect's profile: no error, no warning", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'clockcheck-openapi-'));
    const documents: Record<string, unknown> = { plain: document };
    for (const dialect of DIALECT_NAMES) {
      const reading = openApiReading(await dialectProfile(dialect), 'https://time.test');
      documents[dialect] = openApiDocument({ toolVersion: '0.0.0-test', spec: { title: 'spec', sha256: 'a'.repeat(64) }, reading });
    }
    // Real checks: a parameter without `in` is an error; an example its schema refuses, a warning.
    const broken = structuredClone(document);
    broken.paths['/users'].get.parameters.push({ name: 'x' });
    const badExample = structuredClone(document);
    badExample.paths['/timesheets'].post.requestBody.content['application/json'].example.start = '2026-10-31 22:00';
    Object.assign(documents, { broken, badExample });
    const files = Object.keys(documents).map((name) => join(dir, `${name}.json`));
    await Promise.all(Object.entries(documents).map(([name, doc]) => writeFile(join(dir, `${name}.json`), JSON.stringify(doc, null, 2))));
    const result = await exec(join(ROOT, 'node_modules/.bin/redocly'), ['lint', ...files, '--format', 'json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      timeout: 60_000,
    }).catch((error: { stdout: string }) => error);
    // One JSON report per file, one after the other.
    const reports = JSON.parse(`[${result.stdout.trim().replace(/}\s*{\s*"totals"/g, '},{"totals"')}]`) as { totals: { errors: number; warnings: number }; problems: unknown[] }[];
    const byName = Object.fromEntries(Object.keys(documents).map((name, i) => [name, reports[i]!]));
    for (const name of ['plain', ...DIALECT_NAMES]) {
      expect(byName[name]!.problems, name).toEqual([]);
      expect(byName[name]!.totals, name).toMatchObject({ errors: 0, warnings: 0 });
    }
    expect(byName.broken!.totals.errors).toBeGreaterThan(0);
    expect(byName.badExample!.totals.warnings).toBeGreaterThan(0);
  }, 90_000);

  it('has every operation of §4 with its rule IDs, the token in Authorization and the 429 of §8', () => {
    for (const op of OPERATIONS) {
      const operation = document.paths[op.path][op.method];
      expect(operation.operationId).toBe(op.operationId);
      expect(operation['x-rule-ids']).toEqual(expect.arrayContaining(['AUTH-REQUIRED', 'RATE-LIMIT-CAP', ...op.rules]));
      expect(operation.responses['429']).toEqual({ $ref: '#/components/responses/TooManyAttempts' });
    }
    expect(document.components.securitySchemes.token).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    const known = new Set(RULES.map((r) => r.id));
    const named: string[] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node !== null && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) key === 'x-rule-ids' ? named.push(...(value as string[])) : visit(value);
      }
    };
    visit(document);
    expect(named.length).toBeGreaterThan(100);
    expect(named.filter((id) => !known.has(id as RuleId))).toEqual([]);
    expect(document.components.schemas.createBreakResponse.properties.items).toBeDefined();
  });

  describe('the webhook notifications (OpenAPI 3.1 webhooks)', () => {
    const ajv = new Ajv2020({ allErrors: false, strict: true });
    for (const keyword of ['x-rule-ids', 'x-clockcheck-rules-beyond-schema', 'x-clockcheck-note']) ajv.addKeyword(keyword);
    const FORMS: [string, NotificationForm][] = [
      ['published', PUBLISHED_FORM],
      ['alternative dialect (GitHub-like)', ALTERNATIVE_NOTIFICATION_FORM],
      ['base64, SHA-512, a prefix, the ID deeper', NotificationForm.parse({ id: '/a/b/id', operation: { at: '/a/kind' }, event: { at: '/a/what' }, signature: { header: 'x-sig', timestamp_header: 'x-ts', algorithm: 'sha512', encoding: 'base64', prefix: 'v1,' } })],
      ['unsigned', { ...PUBLISHED_FORM, signature: null }],
    ];

    it.each(FORMS)('%s: the bodies and signature headers senders write validate; a body without its ID, or a cut signature, does not', (_name, form) => {
      const doc = openApiDocument({ toolVersion: '0.0.0-test', spec: { title: 'spec', sha256: 'a'.repeat(64) }, reading: { ...WEAKEST_READING, notification: form } }) as any;
      const post = doc.webhooks.notification.post;
      const validate = ajv.compile(doc.components.schemas.NotificationBody);
      for (const [id, change, at] of [[12, 'created', 1_700_000_000], ['abc-1', 'updated', false]] as const) {
        const body = notificationBody(form, 'users', id, change, at);
        expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
        const noId = structuredClone(body) as any;
        if (form.id === '/payload/data/id') delete noId.payload.data.id;
        else if (form.id === '/data/id') delete noId.data.id;
        else delete noId.a.b.id;
        expect(validate(noId)).toBe(false);
        const headers = form.signature ? signatureHeaders(form.signature, 'whsec-1', 1_700_000_000, JSON.stringify(body)) : {};
        for (const parameter of post.parameters ?? []) {
          expect(new RegExp(parameter.schema.pattern).test(headers[parameter.name]!), `${parameter.name}: ${headers[parameter.name]}`).toBe(true);
          if (parameter.name === form.signature?.header) expect(new RegExp(parameter.schema.pattern).test(headers[parameter.name]!.slice(0, -2))).toBe(false);
        }
        expect((post.parameters ?? []).map((p: { name: string }) => p.name).sort()).toEqual(Object.keys(headers).sort());
      }
      expect(post['x-rule-ids']).toEqual(form.signature ? ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-SIGNATURE', 'WH-NOTIFICATIONS-STOP'] : ['WH-NOTIFICATION-ARRIVES', 'WH-PAYLOAD-SHAPE', 'WH-NOTIFICATIONS-STOP']);
      expect(post.security).toEqual([]);
    });

    it('the published body schema refuses what the published shape refuses (last_updated_at a time or false)', () => {
      const validate = ajv.compile(document.components.schemas.NotificationBody);
      expect(validate({ payload: { event: 'users', data: { id: 1, operation: 'users_created', last_updated_at: true } } })).toBe(false);
      expect(validate({ payload: { event: 'users', data: { id: 1, operation: 'users_created', last_updated_at: false }, extra: 1 } })).toBe(true);
    });
  });

  describe('against the generators (ajv, JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ allErrors: false, strict: true });
    for (const keyword of ['x-rule-ids', 'x-clockcheck-rules-beyond-schema', 'x-clockcheck-note']) ajv.addKeyword(keyword);
    const tally = { valid: 0, rejected: 0, beyond: 0 };

    afterAll(() => {
      // Not vacuous: most cases were judged by the schema, valid ones and rejected ones.
      expect(tally.valid).toBeGreaterThan(1000);
      expect(tally.rejected).toBeGreaterThan(1000);
    });

    for (const family of PROPERTY_FAMILIES) {
      it(`${family.name}: every valid case validates; every case breaking a type, required or format rule is rejected`, () => {
        const op = operationOf(family.request.method, family.request.path);
        const schema = document.components.schemas[`${op.operationId}Request`];
        const validate = ajv.getSchema(op.operationId) ?? (ajv.addSchema(schema, op.operationId), ajv.getSchema(op.operationId)!);
        const ruled = schemaRules(schema);
        const cases = fc.sample(family.cases(seedContext('America/Chicago', 'openapi')), { numRuns: CASES, seed: 42 });
        for (const c of cases) {
          const ok = validate(c.payload);
          if (!c.breaks) {
            expect(ok, `${c.label}: ${JSON.stringify(c.payload)}\n${JSON.stringify(validate.errors)}`).toBe(true);
            tally.valid++;
          } else if (ruled.has(c.breaks)) {
            expect(ok, `${c.label} (${c.breaks}): ${JSON.stringify(c.payload)}`).toBe(false);
            tally.rejected++;
          } else tally.beyond++;
        }
      });
    }
  });
});
