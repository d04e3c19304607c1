import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certifyEmbedded } from '../../src/embedded/embedded-target.ts';
import { embeddedProfile } from '../../src/embedded/embedded-profile.ts';
import { ISOLATION_CHECK_IDS, isolationRequests } from '../../src/isolation/isolation-check.ts';
import { NO_SECOND_COMPANY } from '../../src/profile/profile.ts';
import { certify } from '../../src/run/certify.ts';
import { startReferenceServer } from '../../src/reference/server.ts';
import { defaultProfile, type Profile } from '../../src/profile/profile.ts';
import type { RunReport } from '../../src/report/model.ts';
import { ROOT } from '../support/cli.ts';

const SUITES = join(ROOT, 'suites');
const isolation = (report: RunReport) => report.checks.filter((c) => c.id.startsWith('isolation/'));

/** The isolation checks alone against an embedded server (two companies, a token each, windows per token). */
const certifyIsolation = (faults: string[], secondCompany = true) => certifyEmbedded(faults, { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 5, budget: 110, bursts: false, only: ['isolation'], secondCompany });

/**
 * The isolation checks alone against a reference server whose two tokens share one window (paced in
 * the run's, at 60 per 100 ms, no bursts), with its embedded profile changed by `adjust` and the
 * second token `secondToken` sent.
 */
async function certifySharedWindow(adjust: (profile: Profile) => Profile = (p) => p, secondToken = 'iso-test-second-token'): Promise<{ report: RunReport; profile: Profile }> {
  const server = await startReferenceServer({ rateLimit: { limit: 60, windowMs: 100 }, secondCompanyToken: 'iso-test-second-token', rateLimitWindows: 'shared' });
  try {
    const profile = adjust({ ...embeddedProfile({ ...server, rateLimit: { limit: 60, windowMs: 100 } }), rate_limit: { ...defaultProfile().rate_limit, limit: 60, window: 100, bursts: false } });
    const report = await certify({ origin: server.origin, embedded: false, profile, token: server.token, secondToken, caPem: server.tls.caPem, insecure: false, suitesDir: SUITES, suiteGlob: '**/*.yaml', only: ['isolation'], readOnly: false, seed: 6, budget: 110, progress: null, replayBase: 'clockcheck run' });
    return { report, profile };
  } finally {
    await server.close();
  }
}

describe('the isolation checks between two companies (issue 49)', () => {
  it('pass a clean server both ways, judging every rule, and list the records each company wrote', async () => {
    const report = await certifyIsolation([]);
    expect(isolation(report).map((c) => [c.id, c.status])).toEqual(ISOLATION_CHECK_IDS.map((id) => [id, 'passed']));
    expect(report.summary.coveredRules).toEqual(expect.arrayContaining(['ISO-LIST-SCOPED', 'ISO-ITEM-SCOPED', 'ISO-REFERENCE-SCOPED', 'ISO-FOREIGN-ID']));
    const created = report.createdResources.filter((r) => r.checkId.startsWith('isolation/'));
    expect(created.map((r) => r.kind).sort()).toEqual(['break', 'break', 'schedule', 'schedule', 'timesheet', 'timesheet', 'user', 'user']);
  }, 60_000);

  // In a window each (the embedded default) every selftest and `npm start` certify it; here the shared window, bursts and all.
  it.each(['shared'] as const)('a full certification with bursts of a clean server whose two tokens count in %s windows passes with nothing errored', async (rateLimitWindows) => {
    const report = await certifyEmbedded([], { suitesDir: SUITES, suiteGlob: '**/*.yaml', seed: 7, budget: 110, rateLimitWindows, burstRateLimit: { limit: 60, windowMs: 4000 } });
    const troubled = report.checks.filter((c) => c.status === 'failed' || c.status === 'errored').map((c) => `${c.id}: ${c.reason ?? c.findings[0]?.actual}`);
    expect(troubled).toEqual([]);
    expect(isolation(report).map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
  }, 120_000);

  it('pass a clean server whose two tokens share one window (paced in the run\'s)', async () => {
    const { report, profile } = await certifySharedWindow();
    expect(profile.second_company?.rate_limit).toBe('shared');
    expect(isolation(report).map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
  }, 60_000);

  it('leave ISO-FOREIGN-ID out of the verdict under foreign_ids: either (any 4xx is ISO-ITEM-SCOPED\'s refusal), never counting it judged', async () => {
    const { report } = await certifySharedWindow((p) => ({ ...p, second_company: { ...p.second_company!, foreign_ids: 'either' } }));
    const items = report.checks.find((c) => c.id === 'isolation/items')!;
    expect([items.status, items.rules]).toEqual(['passed', ['ISO-ITEM-SCOPED']]);
    expect(items.notes?.join('\n')).toMatch(/ISO-FOREIGN-ID: second_company.foreign_ids is either/);
    expect(report.summary.coveredRules).not.toContain('ISO-FOREIGN-ID');
    expect(report.summary.coveredRules).toContain('ISO-ITEM-SCOPED');
  }, 60_000);

  it("stop at the preflight, naming the variable, when the second company's token is refused: the user's to mend, no verdict on the target", async () => {
    const { report, profile } = await certifySharedWindow(undefined, 'not-the-second-token');
    expect(report.exitCode).toBe(2);
    expect(report.runError).toMatch(new RegExp(`^the second company's token was refused: GET \\S+/users\\?page_size=1 answered 401.*Check that ${profile.second_company!.token_env} holds`));
    expect(isolation(report).map((c) => c.status)).toEqual(['not-run', 'not-run', 'not-run']);
    expect(JSON.stringify(report)).not.toContain('not-the-second-token');
  }, 60_000);

  it.each([
    ['search-index-unscoped', 'isolation/lists', 'ISO-LIST-SCOPED'],
    ['user-edit-by-id-alone', 'isolation/items', 'ISO-ITEM-SCOPED'],
    ['foreign-id-forbidden', 'isolation/items', 'ISO-FOREIGN-ID'],
    ['break-timesheet-unscoped', 'isolation/references', 'ISO-REFERENCE-SCOPED'],
  ])('fail under %s: %s names %s', async (fault, checkId, rule) => {
    const report = await certifyIsolation([fault]);
    const check = report.checks.find((c) => c.id === checkId)!;
    expect(check.status).toBe('failed');
    expect(check.findings.map((f) => f.ruleId)).toContain(rule);
    // Each finding cites the exchanges that show it, kept in the report.
    for (const finding of check.findings) for (const id of finding.exchangeIds) expect(check.exchanges.some((e) => e.id === id)).toBe(true);
  }, 60_000);

  it('are skipped naming the need, and the run says in one line that isolation was not certified, with one company', async () => {
    const report = await certifyIsolation([], false);
    expect(isolation(report).map((c) => [c.status, c.reason])).toEqual(ISOLATION_CHECK_IDS.map(() => ['skipped', NO_SECOND_COMPANY]));
    expect(report.notes).toContain(NO_SECOND_COMPANY);
  }, 60_000);

  it("plans the second company's share apart: beside the run's only where its token has a window of its own", () => {
    const profile = (rate_limit: 'shared' | 'per-token') => ({ ...defaultProfile(), second_company: { token_env: 'X', rate_limit, foreign_ids: 'either' as const, ids: 'unknown' as const } });
    expect(isolationRequests(defaultProfile())).toEqual({ first: 0, second: 0 });
    // Each company: 4 records, its read back, its user and timesheet lists (IDs not global), a break rule read; the first's 5 probes, the second's 7
    // (those, a date_range, a break's reference; the schedule's change only where IDs are global, an ID never issued only where foreign IDs read as missing).
    expect(isolationRequests(profile('shared'))).toEqual({ first: 13, second: 15 });
  });
});
