import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { Har } from '../../src/report/har.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ROOT, runClockcheck, type CliResult } from '../support/cli.ts';
import { secretFindings } from '../support/secret-scan.ts';

/**
 * `run --har` and `init --har` against a reference server on loopback whose token holds + / = and
 * URL specials, so its base64 and percent-encoded forms are exercised: the HAR each writes is valid
 * HAR 1.2 (test/fixtures/har-1.2.schema.json), holds each exchange once, and has no trace of the token.
 */
const TOKEN = 'Cc+/=%<&har-??>>~~-4e8d2a6f91';
const ENV = { ...process.env, CLOCKCHECK_TOKEN: TOKEN, NO_COLOR: '1' };
const schema = JSON.parse(readFileSync(new URL('../fixtures/har-1.2.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

let server: ReferenceServer;
let dir: string;
let ca: string;

beforeAll(async () => {
  server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 600, windowMs: 1000 } });
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-har-cli-'));
  ca = join(dir, 'ca.pem');
  await writeFile(ca, server.tls.caPem);
});
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function readHar(file: string): Promise<{ text: string; har: Har }> {
  const text = await readFile(file, 'utf8');
  return { text, har: JSON.parse(text) as Har };
}

describe('clockcheck run --har', () => {
  let result: CliResult;
  let reports: string;

  beforeAll(async () => {
    reports = join(dir, 'reports');
    const profile = join(dir, 'profile.yaml');
    await writeFile(profile, 'fixtures:\n  active_user_ids: [1, 2, 3]\n  break_rule_id: 1\n');
    result = await runClockcheck(
      ['run', '--target', server.origin, '--ca', ca, '--profile', profile, '--rate-limit', '600/1s', '--report-dir', reports,
        '--suite', join(ROOT, 'test/fixtures/suites/secrecy/secrecy.yaml'), '--only', 'secrecy', '--seed', '5', '--har'],
      ENV,
    );
  }, 90_000);

  const runDir = () => /^ {2}JSON {3}(.*)\/report\.json$/m.exec(result.stdout)?.[1] ?? '';

  it('lists exchanges.har under the other reports, after JUnit', () => {
    expect(result.stderr).not.toMatch(/Error:|at .*\.[jt]s:\d+/);
    expect(result.stdout).toMatch(/^ {2}JUnit {2}.*junit\.xml\n {2}HAR {4}.*\/exchanges\.har\n/m);
    expect(result.stdout).toContain(`  HAR    ${join(runDir(), 'exchanges.har')}\n`);
  });

  it('writes a valid HAR 1.2 with one entry per distinct exchange of report.json, tied to its checks', async () => {
    const { har } = await readHar(join(runDir(), 'exchanges.har'));
    expect(validate(har), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const report = JSON.parse(await readFile(join(runDir(), 'report.json'), 'utf8')) as RunReport;
    const ids = new Set(report.checks.flatMap((c) => c.exchanges.map((e) => e.id)));
    expect(ids.size).toBeGreaterThan(3);
    expect(har.log.entries).toHaveLength(ids.size);
    expect(new Set(har.log.entries.map((e) => e._clockcheck.exchangeId))).toEqual(ids);
    for (const entry of har.log.entries) {
      for (const checkId of entry._clockcheck.checkIds) {
        expect(report.checks.find((c) => c.id === checkId)?.exchanges.some((e) => e.id === entry._clockcheck.exchangeId), `${checkId} #${entry._clockcheck.exchangeId}`).toBe(true);
      }
    }
    expect(har.log.comment).toContain(report.runId);
    const started = har.log.entries.map((e) => Date.parse(e.startedDateTime));
    expect(started).toEqual([...started].sort((a, b) => a - b));
    expect(har.log.entries.some((e) => e.request.method === 'POST' && e.request.postData?.mimeType === 'application/json')).toBe(true);
    expect(har.log.entries.some((e) => e.request.queryString.some((q) => q.name === 'page_size'))).toBe(true);
  });

  it('has no trace of the token, in any form', async () => {
    const { text } = await readHar(join(runDir(), 'exchanges.har'));
    expect(text).toContain('[REDACTED]');
    for (const form of [TOKEN, encodeURIComponent(TOKEN), Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('base64url')]) expect(text).not.toContain(form);
    expect(secretFindings(text, TOKEN)).toEqual([]);
  });

  it('is documented in --help, and refused with --plan', async () => {
    const help = await runClockcheck(['run', '--help'], process.env);
    expect(help.stdout).toMatch(/^ {2}--har +also write <run-id>\/exchanges\.har/m);
    const plan = await runClockcheck(['run', '--plan', '--har'], process.env);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toBe('clockcheck: --har applies to a run: --plan sends nothing, so it has no exchanges\n');
  }, 30_000);
});

describe('clockcheck init --har', () => {
  const init = (args: readonly string[], token = TOKEN) =>
    runClockcheck(['init', '--target', server.origin, '--ca', ca, '--rate-limit', '600/1s', '--quiet', '--har', ...args], { ...ENV, CLOCKCHECK_TOKEN: token });

  it("writes init's exchanges beside the profile (FILE.har for FILE.yaml), valid, redacted, one per request", async () => {
    const out = join(dir, 'found.yaml');
    const r = await init(['--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const harFile = join(dir, 'found.har');
    expect(r.stdout).toContain(`  exchanges  ${harFile} (HAR 1.2, redacted)\n`);
    const { text, har } = await readHar(harFile);
    expect(validate(har), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const requests = Number(/^(\d+) requests \(read-only\)/m.exec(r.stdout)?.[1]);
    expect(har.log.entries).toHaveLength(requests);
    expect(har.log.entries.every((e) => e._clockcheck.checkIds.length === 0)).toBe(true);
    expect(har.log.comment).toContain(`clockcheck init of ${server.origin}`);
    expect(secretFindings(text, TOKEN)).toEqual([]);
    expect(text).not.toContain(TOKEN);
  }, 30_000);

  it('keeps an existing HAR unless --force, before sending anything', async () => {
    const out = join(dir, 'kept.yaml');
    await writeFile(join(dir, 'kept.har'), 'mine\n');
    const refused = await init(['--out', out]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^clockcheck: init: .*kept\.har exists; pass --force to overwrite it, or --out another file\n$/);
    expect(await readFile(join(dir, 'kept.har'), 'utf8')).toBe('mine\n');
  }, 30_000);

  it('writes the HAR also when init stops: a refused token, its 401s in it', async () => {
    const out = join(dir, 'refused.yaml');
    const r = await init(['--out', out], 'tok-wrong-0000000000');
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^wrote .*refused\.har: init's \d+ exchanges \(HAR 1\.2, redacted\); no profile was written\n$/);
    await expect(readFile(out, 'utf8')).rejects.toThrow(/ENOENT/);
    const { har } = await readHar(join(dir, 'refused.har'));
    expect(validate(har)).toBe(true);
    expect(har.log.entries.length).toBeGreaterThan(0);
    expect(har.log.entries.every((e) => e.response.status === 401)).toBe(true);
  }, 30_000);

  it('is documented in --help', async () => {
    const help = await runClockcheck(['init', '--help'], process.env);
    expect(help.stdout).toMatch(/^ {2}--har +also write init's exchanges/m);
  }, 30_000);
});
