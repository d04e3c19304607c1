import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPERATIONS } from '../../src/contract/operations.ts';
import { runClockcheck } from '../support/cli.ts';

describe('clockcheck openapi', () => {
  it('prints the document as JSON or YAML (the same document), or writes it to --out', async () => {
    const json = await runClockcheck(['openapi'], process.env);
    expect(json.code).toBe(0);
    const document = JSON.parse(json.stdout) as { openapi: string; paths: Record<string, object>; info: { 'x-spec-sha256': string } };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual([...new Set(OPERATIONS.map((o) => o.path))].sort());
    expect(document.info['x-spec-sha256']).toMatch(/^[0-9a-f]{64}$/);
    const yaml = await runClockcheck(['openapi', '--format', 'yaml'], process.env);
    expect(parse(yaml.stdout)).toEqual(document);
    const out = join(await mkdtemp(join(tmpdir(), 'clockcheck-openapi-cli-')), 'openapi.json');
    const written = await runClockcheck(['openapi', '--out', out], process.env);
    expect(written.stdout).toBe('');
    expect(JSON.parse(await readFile(out, 'utf8'))).toEqual(document);
    expect((await runClockcheck(['openapi', '--format', 'xml'], process.env)).code).toBe(2);
  }, 60_000);

  it('describes the webhook notifications in the form --profile declares', async () => {
    const profile = join(await mkdtemp(join(tmpdir(), 'clockcheck-openapi-cli-')), 'profile.yaml');
    await writeFile(profile, ['webhook:', '  sink: {}', '  notification:', '    id: /data/id', '    operation: { at: /type, value: "{event}.{change}" }', '    event: null', '    signature: { header: X-Signature-256, timestamp_header: null, signed: "{body}", prefix: "sha256=" }', ''].join('\n'));
    const published = JSON.parse((await runClockcheck(['openapi'], process.env)).stdout);
    const declared = JSON.parse((await runClockcheck(['openapi', '--profile', profile], process.env)).stdout);
    expect(published.webhooks.notification.post.parameters.map((p: { name: string }) => p.name)).toEqual(['x-webhook-timestamp', 'x-webhook-signature']);
    expect(declared.webhooks.notification.post.parameters).toEqual([expect.objectContaining({ name: 'x-signature-256', schema: { type: 'string', pattern: '^sha256=[0-9a-fA-F]{64}$' } })]);
    expect(published.webhooks.notification.post.description).toMatch(/the form the service behind the spec publishes\.$/);
    expect(declared.webhooks.notification.post.description).toMatch(/the form the profile declares \(webhook\.notification\)\.$/);
    expect(declared.components.schemas.NotificationBody).toMatchObject({ type: 'object', required: ['data', 'type'], properties: { type: { type: 'string' }, data: { required: ['id'] } } });
  }, 60_000);

  it("--target names the server with the profile's api_prefix; --profile writes the answers to its status codes; a target with a path is refused", async () => {
    const profile = join(await mkdtemp(join(tmpdir(), 'clockcheck-openapi-cli-')), 'profile.yaml');
    await writeFile(profile, ['api_prefix: /api/v2', 'status_codes: { create: 201, validation: 422, unauthenticated: 401 }', ''].join('\n'));
    const plain = JSON.parse((await runClockcheck(['openapi', '--target', 'https://time.test'], process.env)).stdout);
    expect(plain.servers).toEqual([expect.objectContaining({ url: 'https://time.test/api/public' })]);
    expect(Object.keys(plain.paths['/breaks'].post.responses)).toEqual(['200', '201', '400', '401', '403', '422', '429']);
    const declared = JSON.parse((await runClockcheck(['openapi', '--profile', profile, '--target', 'https://time.test:8081'], process.env)).stdout);
    expect(declared.servers[0].url).toBe('https://time.test:8081/api/v2');
    expect(Object.keys(declared.paths['/breaks'].post.responses)).toEqual(['201', '401', '422', '429']);
    const refused = await runClockcheck(['openapi', '--target', 'https://time.test/api/public'], process.env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--target is the base URL/);
  }, 60_000);
});
