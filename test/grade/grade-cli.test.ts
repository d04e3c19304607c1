import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { RULES } from '../../src/contract/rules.ts';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ROOT, runClockcheck, runClockcheckHere } from '../support/cli.ts';
import { NO_BROWSER } from '../support/report-page.ts';
import { secretFindings } from '../support/secret-scan.ts';

/**
 * `clockcheck grade` as a user runs it: on the HAR a clean run wrote it passes, judging at least 30
 * rules; on the HAR of a run against a faulty server it fails the rule run fails; a HAR Chromium
 * recorded while a page called the server is graded too; a file with no exchange of the API, or a
 * mistyped rule, exits 2 with one line. `npm run bench -- --only grade` does this for every fault.
 */
const TOKEN = 'grade-cli-Tok+/=%-3c9e1f77';
const SECRETS = { CLOCKCHECK_TOKEN: TOKEN, CLOCKCHECK_WEBHOOK_SECRET: 'grade-cli-secret', NO_COLOR: '1' };
const ENV = { ...process.env, ...SECRETS };
const PROFILE = join(ROOT, 'fixtures/profiles/reference.yaml');
const schema = JSON.parse(readFileSync(new URL('../../docs/report-schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'clockcheck-grade-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A run with --har against the reference server (with `fault`), then grade of its HAR: both reports.
 * Both commands in this process (the commands are the subject here; the process's exit codes and
 * one-line mistakes are the tests below that spawn it).
 */
async function runThenGrade(name: string, fault?: string, only: readonly string[] = []): Promise<{ run: RunReport; grade: RunReport; gradeDir: string; stdout: string }> {
  const server: ReferenceServer = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 600, windowMs: 1000 }, ...(fault ? { faults: [fault] } : {}) });
  try {
    const ca = join(dir, `${name}-ca.pem`);
    await writeFile(ca, server.tls.caPem);
    const run = await runClockcheckHere(['run', '--target', server.origin, '--ca', ca, '--profile', PROFILE, '--rate-limit', '600/1s', '--seed', '3', '--har', ...only.flatMap((o) => ['--only', o]), '--report-dir', join(dir, `${name}-run`)], SECRETS);
    const json = /^ {2}JSON {3}(.*report\.json)$/m.exec(run.stdout)?.[1] ?? '';
    const gradeDir = join(dir, `${name}-grade`);
    const graded = await runClockcheckHere(['grade', json.replace(/report\.json$/, 'exchanges.har'), '--profile', PROFILE, '--rate-limit', '600/1s', '--report-dir', gradeDir], SECRETS);
    expect(graded.stderr).toBe('');
    const [id] = await readdir(gradeDir);
    return { run: JSON.parse(await readFile(json, 'utf8')) as RunReport, grade: JSON.parse(await readFile(join(gradeDir, id!, 'report.json'), 'utf8')) as RunReport, gradeDir: join(gradeDir, id!), stdout: graded.stdout };
  } finally {
    await server.close();
  }
}

const failed = (report: RunReport) => report.coverage.filter((c) => c.outcome === 'failed').map((c) => c.rule.id);

describe('clockcheck grade on the HAR of a run', () => {
  it('passes the clean run, judging at least 30 rules, in the run report format, with no trace of the token', async () => {
    const { grade, gradeDir, stdout } = await runThenGrade('clean');
    expect(failed(grade)).toEqual([]);
    expect(grade.exitCode).toBe(0);
    expect(grade.summary.rulesCovered).toBeGreaterThanOrEqual(30);
    expect(validate(grade), JSON.stringify(validate.errors)).toBe(true);
    expect(stdout).toMatch(new RegExp(`^PASSED {2}\\d+ of ${RULES.length} rules judged`, 'm'));
    expect(grade.checks.find((c) => c.id === 'grade/wh-signature')?.reason).toMatch(/^not judged from traffic: needs the webhook notifications/);
    for (const file of await readdir(gradeDir)) expect(secretFindings(await readFile(join(gradeDir, file), 'utf8'), TOKEN), file).toEqual([]);
  }, 120_000);

  // Each faulty run is its fault's suite alone (the whole run is the clean one's, above): what the HAR holds, grade judges.
  it.each([
    ['break-list-duration-name', 'BRK-LIST-SHAPE', 'breaks'],
    ['time-12h-accepted', 'SCH-TIME-FORMAT', 'schedules'],
    ['offset-unchecked', 'TS-OFFSET-MATCHES-TIMEZONE', 'timesheets'],
  ])('fails under the rule run fails against the fault %s (%s)', async (fault, rule, suite) => {
    const { run, grade } = await runThenGrade(fault, fault, [suite]);
    expect(failed(run)).toContain(rule);
    expect(failed(grade)).toContain(rule);
    expect(failed(grade).filter((r) => !failed(run).includes(r))).toEqual([]);
    expect(grade.exitCode).toBe(1);
  }, 120_000);
});

describe.skipIf(NO_BROWSER)('clockcheck grade on what a browser recorded', () => {
  it('grades the HAR Chromium records while a page calls the server, leaving the page itself out', async () => {
    const server = await startReferenceServer({ token: TOKEN, rateLimit: { limit: 600, windowMs: 1000 } });
    const harFile = join(dir, 'chromium.har');
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
    try {
      const context = await browser.newContext({ ignoreHTTPSErrors: true, recordHar: { path: harFile, content: 'embed' } });
      const page = await context.newPage();
      // The page is served at the server's own origin (routed here), so its calls are same-origin.
      await page.route('**/app', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>app</title><p>app</p>' }));
      await page.goto(`${server.origin}/app`);
      await page.evaluate(async (token) => {
        const headers = { authorization: token, 'content-type': 'application/json' };
        // Each body is read, as an app does: Chromium records the bodies the page took.
        await (await fetch('/api/public/users?page_size=5', { headers })).text();
        await (await fetch('/api/public/breaks', { headers })).text();
        await (await fetch('/api/public/users', { method: 'POST', headers, body: JSON.stringify({ first_name: 'A', last_name: 'B', email: 'a.b@example.test', password: 'Ab1!x' }) })).text();
      }, TOKEN);
      await context.close();
    } finally {
      await browser.close();
      await server.close();
    }
    const graded = await runClockcheck(['grade', harFile, '--report-dir', join(dir, 'chromium-grade')], ENV);
    expect(graded.stderr).toBe('');
    expect(graded.code).toBe(0);
    expect(graded.stdout).toMatch(/graded 3 recorded exchanges of the API/);
    const [id] = await readdir(join(dir, 'chromium-grade'));
    const report = JSON.parse(await readFile(join(dir, 'chromium-grade', id!, 'report.json'), 'utf8')) as RunReport;
    const judged = report.coverage.filter((c) => c.outcome === 'passed').map((c) => c.rule.id);
    expect(judged).toEqual(expect.arrayContaining(['PAG-BLOCK-FIELDS', 'BRK-LIST-SHAPE', 'USR-PASSWORD-LENGTH', 'JSON-RESPONSE']));
    expect(secretFindings(await readFile(join(dir, 'chromium-grade', id!, 'report.json'), 'utf8'), TOKEN)).toEqual([]);
  }, 60_000);
});

describe('what grade refuses', () => {
  it('exits 2 with one line for a HAR with no exchange of the API, and for a rule ID mistyped', async () => {
    const file = join(dir, 'elsewhere.har');
    await writeFile(file, JSON.stringify({ log: { entries: [{ startedDateTime: '2026-11-20T10:00:00Z', request: { method: 'GET', url: 'https://cdn.example.test/app.js', headers: [] }, response: { status: 200, headers: [] } }] } }));
    const none = await runClockcheck(['grade', file], ENV);
    expect(none.code).toBe(2);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(none.stderr).toContain('no exchange of the API under /api/public among its 1 entries');
    const typo = await runClockcheck(['grade', file, '--only', 'BRK-LIST-SHAP'], ENV);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('did you mean BRK-LIST-SHAPE?');
  }, 30_000);
});
