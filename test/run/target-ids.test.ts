import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { IdWire } from '../../src/reference/id-wire.ts';
import { embeddedProfile } from '../../src/embedded/embedded-profile.ts';
import { certifyServer, withoutBursts } from '../support/certify-target.ts';
import type { Profile } from '../../src/profile/profile.ts';
import { renderJsonReport } from '../../src/report/json-reporter.ts';
import { DEV_BIN, filesUnder, runMeasured } from '../support/cli.ts';
import { withDurations } from '../support/profile-file.ts';
import { jsonText } from '../../src/contract/json-text.ts';

const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A reference server whose create answers write IDs as `ids` says, at 600 calls a second. */
async function serve(ids: IdWire): Promise<ReferenceServer> {
  const server = await startReferenceServer({ ids, rateLimit: { limit: 600, windowMs: 1000 } });
  servers.push(server);
  return server;
}

/**
 * The server's own profile, its user fixtures left out (the run finds the users in the census, as
 * it reads their IDs), bursts off, no webhook extension.
 */
function profileOf(server: ReferenceServer): Profile {
  const { active_user_ids: _a, inactive_user_id: _i, role_user_ids: _r, ...fixtures } = embeddedProfile(server).fixtures;
  const { webhook: _w, ...rest } = withoutBursts(embeddedProfile(server));
  return { ...rest, fixtures };
}

/** A certification in this process: what the run judges of the IDs does not need the process. */
function certifyIds(server: ReferenceServer): Promise<RunReport> {
  return certifyServer(server, profileOf(server), { seed: 4, budget: 44 });
}

/**
 * `clockcheck run` through the CLI, for what only the process shows: it ends by itself (the silent
 * exit 13 was a process's death), its exit code, the reports it writes.
 */
async function runCli(server: ReferenceServer) {
  const work = await mkdtemp(join(tmpdir(), 'clockcheck-ids-'));
  await writeFile(join(work, 'profile.yaml'), stringify(withDurations(JSON.parse(jsonText(profileOf(server))) as unknown)));
  await writeFile(join(work, 'ca.pem'), server.tls.caPem);
  const result = await runMeasured(
    process.execPath,
    [DEV_BIN, 'run', '--target', server.origin, '--ca', join(work, 'ca.pem'), '--profile', join(work, 'profile.yaml'), '--report-dir', join(work, 'reports'), '--seed', '4', '--budget', '44', '--quiet'],
    { ...process.env, CLOCKCHECK_TOKEN: server.token, NO_COLOR: '1' },
    120_000,
  );
  const files = await filesUnder(join(work, 'reports')).catch(() => []);
  const reportFile = files.find((f) => f.endsWith('report.json'));
  if (!reportFile) throw new Error(`no report.json (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return { result, files, report: JSON.parse(await readFile(reportFile, 'utf8')) as RunReport };
}

const HOSTILE = ['日本', '1 && x', '1\nx', '1\r\nX-Injected: yes', 'x\u0000y', `id-${'x'.repeat(10_000)}`];

/** What a run shows of a hostile ID: ID-INTEGER failed alone, escaped; the checks that needed the record errored; no request carried it. */
function expectJudged(report: RunReport, id: string): void {
  const watch = report.checks.find((c) => c.id === 'records/created-ids')!;
  expect(watch.status).toBe('failed');
  const escaped = JSON.stringify(id);
  for (const finding of watch.findings) {
    expect(finding.ruleId).toBe('ID-INTEGER');
    expect(finding.actual).toContain(escaped.length > 80 ? escaped.slice(0, 80) : escaped);
    expect(finding.actual).not.toMatch(/[\r\n\u0000]/);
  }
  // Only ID-INTEGER failed: the checks that needed such a record errored with the reason, the rest judged as usual.
  expect(report.checks.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['records/created-ids']);
  expect(report.checks.filter((c) => c.status === 'errored' && /which is not an integer \(ID-INTEGER\)/.test(c.reason ?? '')).length).toBeGreaterThan(10);
  expect(report.summary.passed).toBeGreaterThan(30);
  for (const exchange of report.checks.flatMap((c) => c.exchanges)) {
    expect(exchange.request.url).not.toContain(id);
    expect(exchange.request.url).not.toContain(encodeURIComponent(id));
    for (const value of Object.values(exchange.request.headers)) expect(value).not.toContain(id);
  }
}

describe('an ID a target sends is data to judge, never a crash', () => {
  it('through the CLI: every create answer with the ID "1\\r\\nX-Injected: yes" ends the run by itself, exit 1, the reports written, nothing unescaped on the terminal', async () => {
    const id = '1\r\nX-Injected: yes';
    const { result, files, report } = await runCli(await serve({ literal: id }));
    expect(result.killed).toBe(false);
    expect(result.code, result.stderr).toBe(1);
    expect(report.exitCode).toBe(1);
    expect(files.map((f) => f.split('/').pop())).toEqual(expect.arrayContaining(['report.json', 'report.html', 'junit.xml']));
    expectJudged(report, id);
    expect(result.stdout + result.stderr).not.toMatch(/\r|\u0000|X-Injected: yes\n/);
  }, 120_000);

  it.concurrent.each(HOSTILE.map((id) => [JSON.stringify(id).slice(0, 24), id] as const))(
    'every create answer with the ID %s: ID-INTEGER failed with the ID escaped, the checks that needed it errored, no request carries it',
    async (_shown, id) => {
      const report = await certifyIds(await serve({ literal: id }));
      expect(report.exitCode).toBe(1);
      expectJudged(report, id);
    },
    60_000,
  );

  it.concurrent.each([
    ['as a decimal string, "42"', 'string'],
    ['negative', 'negative'],
    ['beyond 2^53', 'beyond-2^53'],
  ] as const)('IDs %s are integers: a full certification passes', async (_what, ids) => {
    const report = await certifyIds(await serve(ids));
    const bad = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
    expect(bad.map((c) => `${c.id}: ${c.reason ?? ''} ${c.findings.map((f) => `${f.ruleId} ${f.actual}`).join(' | ')}`)).toEqual([]);
    expect(report.exitCode).toBe(0);
    expect(report.checks.find((c) => c.id === 'records/created-ids')?.status).toBe('passed');
    if (ids === 'beyond-2^53') {
      // Sent back exactly as written: in a path (PUT /users/{id}) and in a body (a break's timesheet_id).
      const requests = report.checks.flatMap((c) => c.exchanges).map((e) => e.request);
      const beyond = (digits: string | undefined) => digits !== undefined && BigInt(digits) > 2n ** 53n;
      expect(requests.some((r) => r.method === 'PUT' && beyond(/\/users\/(\d{16,})$/.exec(r.url)?.[1]))).toBe(true);
      expect(requests.some((r) => r.method === 'POST' && beyond(/"timesheet_id":(\d{16,})[,}]/.exec(r.body ?? '')?.[1]))).toBe(true);
      expect(renderJsonReport(report)).not.toMatch(/9007199254740992[^\d]/); // no ID rounded to 2^53 anywhere
    }
  }, 60_000);
});
