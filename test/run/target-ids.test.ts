import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/report/model.ts';
import { startReferenceServer, type ReferenceServer } from '../../src/reference/server.ts';
import type { IdWire } from '../../src/reference/id-wire.ts';
import { embeddedProfile } from '../../src/run/embedded-profile.ts';
import { withoutBursts } from '../support/certify-target.ts';
import { DEV_BIN, filesUnder, runMeasured } from '../support/cli.ts';
import { withDurations } from '../support/profile-file.ts';
import { jsonText } from '../../src/contract/json-text.ts';

const servers: ReferenceServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/**
 * `clockcheck run` against a reference server whose create answers write IDs as `ids` says, through
 * the CLI: the process must end by itself, with its reports. The profile is the server's own, its
 * user fixtures left out (the run finds the users in the census, as it reads their IDs), at 600
 * calls a second, bursts off.
 */
async function runAgainst(ids: IdWire, extra: readonly string[] = []) {
  const server = await startReferenceServer({ ids, rateLimit: { limit: 600, windowMs: 1000 } });
  servers.push(server);
  const work = await mkdtemp(join(tmpdir(), 'clockcheck-ids-'));
  const { active_user_ids: _a, inactive_user_id: _i, role_user_ids: _r, ...fixtures } = embeddedProfile(server).fixtures;
  const profile = { ...withoutBursts(embeddedProfile(server)), fixtures, webhook: undefined };
  await writeFile(join(work, 'profile.yaml'), stringify(withDurations(JSON.parse(jsonText(profile)) as unknown)));
  await writeFile(join(work, 'ca.pem'), server.tls.caPem);
  const result = await runMeasured(
    process.execPath,
    [DEV_BIN, 'run', '--target', server.origin, '--ca', join(work, 'ca.pem'), '--profile', join(work, 'profile.yaml'), '--report-dir', join(work, 'reports'), '--seed', '4', '--budget', '44', '--quiet', ...extra],
    { ...process.env, CLOCKCHECK_TOKEN: server.token, NO_COLOR: '1' },
    120_000,
  );
  const reportFile = (await filesUnder(join(work, 'reports')).catch(() => [])).find((f) => f.endsWith('report.json'));
  if (!reportFile) throw new Error(`no report.json (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return { result, report: JSON.parse(await readFile(reportFile, 'utf8')) as RunReport, reportText: await readFile(reportFile, 'utf8') };
}

const HOSTILE = ['日本', '1 && x', '1\nx', '1\r\nX-Injected: yes', 'x\u0000y', `id-${'x'.repeat(10_000)}`];

describe.concurrent('an ID a target sends is data to judge, never a crash', () => {
  it.each(HOSTILE.map((id) => [JSON.stringify(id).slice(0, 24), id] as const))(
    'every create answer with the ID %s: exit 1 by itself, ID-INTEGER failed with the ID escaped, no request carries it, the reports written',
    async (_shown, id) => {
      const { result, report } = await runAgainst({ literal: id });
      expect(result.killed).toBe(false);
      expect(result.code, result.stderr).toBe(1);
      expect(report.exitCode).toBe(1);
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
      const needing = report.checks.filter((c) => c.status === 'errored' && /which is not an integer \(ID-INTEGER\)/.test(c.reason ?? ''));
      expect(needing.length).toBeGreaterThan(10);
      expect(report.summary.passed).toBeGreaterThan(30);
      // No request put the ID into its URL or a header, escaped or not.
      for (const exchange of report.checks.flatMap((c) => c.exchanges)) {
        expect(exchange.request.url).not.toContain(id);
        expect(exchange.request.url).not.toContain(encodeURIComponent(id));
        for (const value of Object.values(exchange.request.headers)) expect(value).not.toContain(id);
      }
      expect(result.stdout).not.toMatch(/\r|\u0000/);
    },
    120_000,
  );

  it.each([
    ['as a decimal string, "42"', 'string'],
    ['negative', 'negative'],
    ['beyond 2^53', 'beyond-2^53'],
  ] as const)('IDs %s are integers: a full certification passes', async (_what, ids) => {
    const { result, report, reportText } = await runAgainst(ids);
    const bad = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored');
    expect(bad.map((c) => `${c.id}: ${c.reason ?? ''} ${c.findings.map((f) => `${f.ruleId} ${f.actual}`).join(' | ')}`)).toEqual([]);
    expect(result.code).toBe(0);
    expect(report.checks.find((c) => c.id === 'records/created-ids')?.status).toBe('passed');
    if (ids === 'beyond-2^53') {
      // Sent back exactly as written: in a path (PUT /users/{id}) and in a body (a timesheet's user_id, a break's timesheet_id).
      const requests = report.checks.flatMap((c) => c.exchanges).map((e) => e.request);
      const beyond = (digits: string | undefined) => digits !== undefined && BigInt(digits) > 2n ** 53n;
      expect(requests.some((r) => r.method === 'PUT' && beyond(/\/users\/(\d{16,})$/.exec(r.url)?.[1]))).toBe(true);
      expect(requests.some((r) => r.method === 'POST' && beyond(/"timesheet_id":(\d{16,})[,}]/.exec(r.body ?? '')?.[1]))).toBe(true);
      expect(reportText).not.toMatch(/9007199254740992[^\d]/); // no ID rounded to 2^53 anywhere
    }
  }, 120_000);
});
