import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OPERATIONS } from '../../src/spec/operations.ts';
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
});
