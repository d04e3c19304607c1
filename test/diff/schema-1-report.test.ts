import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiffableReport, diffReports } from '../../src/diff/report-diff.ts';
import { renderDiffText } from '../../src/diff/render-diff.ts';
import { coverageOf } from '../../src/report/coverage.ts';
import { checksUnder2 } from '../../src/report/legacy-statuses.ts';
import type { CheckResult, CheckStatus } from '../../src/report/model.ts';

/**
 * A report.json of schema 1.7.0 as clockcheck 0.9 wrote it: a run with `--within 6m` whose token
 * was revoked at exchange 61. Its summary says 7 rules covered: errored checks counted, and
 * HEAD-SUPPORTED's outcome is `errored` (a passed and an errored check name it). The checks the run
 * did not get to are `errored` (the stop's reason) or `skipped` ("over budget").
 */
const OLD_FILE = new URL('./fixtures/report-1.7.0.json', import.meta.url);
const old = (): DiffableReport => DiffableReport.parse(JSON.parse(readFileSync(OLD_FILE, 'utf8')));
const REVOKED = 'the token was refused from exchange 61 on (GET /users?page=2 answered 401, and GET /users, served at the preflight, answered 401 in exchange 62): it was revoked or expired during the run';

/** The same run made again by clockcheck 2.0.0, the target unchanged: the same verdicts, in 2.0.0's statuses. */
function sameRunUnder2(): DiffableReport {
  const statuses: Record<string, [CheckStatus, string?]> = {
    'users/list-filter-active': ['passed'],
    'transport/head-supported': ['passed'],
    'transport/head-parity-users': ['errored', 'GET /users answered 500 and HEAD answered 500: HEAD parity needs a GET that succeeds (2xx)'],
    'breaks/list-by-ids': ['errored', 'transport error on exchange #5: CONNECTION_RESET (socket hang up)'],
    'schedules/create-minimal': ['errored', REVOKED],
    'schedules/date-format': ['not-run', `not run: ${REVOKED}`],
    'users/password-classes': ['not-run', `not run: ${REVOKED}`],
    'pagination/walk': ['not-run', 'not run: budget (--within 6m): a full run sends it'],
  };
  const before = old();
  const checks = before.checks.map((c) => {
    const [status, reason] = statuses[c.id]!;
    return { ...c, status, ...(reason === undefined ? {} : { reason }) };
  });
  const { coverage, summary } = coverageOf(checks as unknown as CheckResult[]);
  return { ...before, schemaVersion: '2.0.0', runId: 'the-same-run-under-2.0.0', checks, coverage: coverage.map((c) => ({ rule: { id: c.rule.id }, outcome: c.outcome })), summary };
}

describe('diff with a report of schema 1.7.0', () => {
  it('reads its checks as 2.0.0 does: the checks the run did not get to are not-run, the one in progress errored', () => {
    const statuses = Object.fromEntries(checksUnder2(old()).map((c) => [c.id, c.status]));
    expect(statuses).toEqual({
      'users/list-filter-active': 'passed',
      'transport/head-supported': 'passed',
      'transport/head-parity-users': 'errored',
      'breaks/list-by-ids': 'errored',
      'schedules/create-minimal': 'errored',
      'schedules/date-format': 'not-run',
      'users/password-classes': 'not-run',
      'pagination/walk': 'not-run',
    });
  });

  it('reports no rule newly covered or uncovered only because coverage changed meaning, and no regression', () => {
    const before = old();
    expect(before.summary.rulesCovered).toBe(7);
    const diff = diffReports(before, sameRunUnder2());
    expect(diff.rulesNewlyCovered).toEqual([]);
    expect(diff.rulesNewlyUncovered).toEqual([]);
    expect(diff.old).toMatchObject({ schemaVersion: '1.7.0', rulesCovered: 2, errored: 3, notRun: 3 });
    expect(diff.new).toMatchObject({ schemaVersion: '2.0.0', rulesCovered: 2, errored: 3, notRun: 3 });
    expect(diff.regressed).toBe(false);
    expect(diff.checks.map((c) => `${c.kind} ${c.checkId}`)).toEqual(['still failing breaks/list-by-ids', 'still failing schedules/create-minimal', 'still failing transport/head-parity-users']);
  });

  it('says that it recomputed the old coverage, and what the old summary had said', () => {
    const text = renderDiffText(diffReports(old(), sameRunUnder2()));
    expect(text).toContain('OLD 2026-09-01T08-00-00-000Z-7 (2026-09-01T08:00:00.000Z): 0 failed, 3 errored, 3 not run, 2 of 102 rules judged');
    expect(text).toContain(
      'Note: 2026-09-01T08-00-00-000Z-7 is a report of schema 1.7.0: its coverage is recomputed from its checks as 2.0.0 counts it (judged: a check passed, failed or waived on the rule): 2 rules, where its summary said 7 covered',
    );
  });

  it('still finds a rule really no longer judged, and a real new failure', () => {
    const after = sameRunUnder2();
    const checks = after.checks.map((c) =>
      c.id === 'users/list-filter-active' ? { ...c, status: 'failed' as const, findings: [{ ruleId: 'USR-LIST-FILTER-ACTIVE' }] } : c.id === 'transport/head-supported' ? { ...c, status: 'skipped' as const, reason: 'read-only run' } : c,
    );
    const diff = diffReports(old(), { ...after, checks });
    expect(diff.rulesNewlyUncovered).toEqual(['HEAD-SUPPORTED']);
    expect(diff.regressed).toBe(true);
    expect(diff.checks[0]).toMatchObject({ kind: 'new failure', checkId: 'users/list-filter-active' });
  });
});
