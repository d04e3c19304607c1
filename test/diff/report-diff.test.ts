import { describe, expect, it } from 'vitest';
import { diffReports, type DiffableReport } from '../../src/diff/report-diff.ts';
import { renderDiffMarkdown, renderDiffText } from '../../src/diff/render-diff.ts';

type Check = DiffableReport['checks'][number];
type Status = Check['status'];

function check(id: string, status: Status, broken: string[] = [], rules = broken.length > 0 ? broken : ['SCH-DATE-FORMAT']): Check {
  return { id, title: `title of ${id}`, status, rules, findings: broken.map((ruleId) => ({ ruleId })) };
}

function report(checks: Check[], overrides: Partial<DiffableReport> = {}): DiffableReport {
  const rules = [...new Set(checks.flatMap((c) => [...c.rules, ...c.findings.map((f) => f.ruleId)]))];
  return {
    schemaVersion: '2.0.0',
    runId: 'run',
    startedAt: '2026-11-23T00:00:00.000Z',
    tool: { version: '0.1.0' },
    spec: { sha256: 'a'.repeat(64) },
    target: { baseUrl: 'https://api.example.com', tlsFingerprint256: 'AA:BB', embedded: false },
    checks,
    coverage: rules.map((id) => ({ rule: { id }, outcome: 'written by the run; the diff recomputes it' })),
    summary: { rulesCovered: 0 },
    ...overrides,
  };
}

const kinds = (before: DiffableReport, after: DiffableReport) => Object.fromEntries(diffReports(before, after).checks.map((c) => [c.checkId, c.kind]));

describe('diffReports', () => {
  it('finds nothing between two identical reports, failing or not', () => {
    const same = report([check('a', 'passed'), check('b', 'skipped')]);
    expect(diffReports(same, same)).toMatchObject({ checks: [], regressed: false, identity: [], rulesNewlyCovered: [], rulesNewlyUncovered: [] });
  });

  it.each<[Status | null, Status | null, string | undefined, boolean]>([
    ['passed', 'failed', 'new failure', true],
    ['passed', 'errored', 'new failure', true],
    ['skipped', 'failed', 'new failure', true],
    ['waived', 'failed', 'new failure', true],
    [null, 'failed', 'new failure', true],
    ['failed', 'failed', 'still failing', false],
    // Errored could not judge: a finding in NEW is one OLD did not have.
    ['errored', 'failed', 'still failing', true],
    ['failed', 'errored', 'still failing', false],
    ['failed', 'passed', 'fixed', false],
    ['failed', 'skipped', 'not run', false],
    ['errored', null, 'not run', false],
    ['failed', 'waived', 'not run', false],
    ['passed', 'skipped', undefined, false],
    [null, 'passed', undefined, false],
  ])('%s -> %s is %s (regressed: %s)', (before, after, kind, regressed) => {
    const broken = (s: Status | null) => (s === 'failed' ? ['SCH-DATE-FORMAT'] : []);
    const b = report(before === null ? [] : [check('x', before, broken(before), ['SCH-DATE-FORMAT'])]);
    const a = report(after === null ? [] : [check('x', after, broken(after), ['SCH-DATE-FORMAT'])]);
    expect(kinds(b, a).x).toBe(kind);
    expect(diffReports(b, a).regressed).toBe(regressed);
  });

  it('counts a check still failing on a rule it did not break before as a regression', () => {
    const before = report([check('users/create', 'failed', ['USR-PASSWORD-LENGTH'])]);
    const sameRules = report([check('users/create', 'failed', ['USR-PASSWORD-LENGTH'])]);
    const moreRules = report([check('users/create', 'failed', ['USR-PASSWORD-LENGTH', 'USR-EMAIL-FORMAT'])]);
    expect(diffReports(before, sameRules).regressed).toBe(false);
    const diff = diffReports(before, moreRules);
    expect(diff.regressed).toBe(true);
    expect(diff.checks[0]).toMatchObject({ kind: 'still failing', newRules: ['USR-EMAIL-FORMAT'], rules: ['USR-EMAIL-FORMAT', 'USR-PASSWORD-LENGTH'] });
  });

  it('lists new failures first, then still failing, not run and fixed', () => {
    const before = report([check('a', 'failed', ['R1']), check('b', 'failed', ['R2']), check('c', 'passed'), check('d', 'failed', ['R3'])]);
    const after = report([check('a', 'passed'), check('b', 'failed', ['R2']), check('c', 'failed', ['R4']), check('d', 'skipped')]);
    expect(diffReports(before, after).checks.map((c) => `${c.kind} ${c.checkId}`)).toEqual(['new failure c', 'still failing b', 'not run d', 'fixed a']);
  });

  it.each<[Status | null, Status | null, string | undefined]>([
    ['failed', 'not-run', 'not run'],
    ['errored', 'not-run', 'not run'],
    ['not-run', 'failed', 'new failure'],
    ['not-run', 'errored', 'new failure'],
    ['not-run', 'passed', undefined],
    ['passed', 'not-run', undefined],
  ])('a not-run check: %s -> %s is %s', (before, after, kind) => {
    const broken = (s: Status | null) => (s === 'failed' ? ['SCH-DATE-FORMAT'] : []);
    const b = report(before === null ? [] : [check('x', before, broken(before), ['SCH-DATE-FORMAT'])]);
    const a = report(after === null ? [] : [check('x', after, broken(after), ['SCH-DATE-FORMAT'])]);
    expect(kinds(b, a).x).toBe(kind);
  });

  it('names the rules newly covered and no longer covered (a skipped, errored or not-run check covers nothing)', () => {
    const before = report([check('a', 'passed', [], ['R1']), check('b', 'skipped', [], ['R2'])]);
    const after = report([check('a', 'errored', [], ['R1']), check('b', 'passed', [], ['R2'])]);
    const diff = diffReports(before, after);
    expect(diff.rulesNewlyCovered).toEqual(['R2']);
    expect(diff.rulesNewlyUncovered).toEqual(['R1']);
    const cut = diffReports(after, report([check('a', 'not-run', [], ['R1']), check('b', 'not-run', [], ['R2'])]));
    expect(cut.rulesNewlyUncovered).toEqual(['R2']);
    expect(cut.new).toMatchObject({ notRun: 2, rulesCovered: 0 });
  });

  it('counts a rule covered when one check judged it, though another check of it errored', () => {
    const both = report([check('a', 'passed', [], ['R1']), check('b', 'errored', [], ['R1'])]);
    const one = report([check('a', 'passed', [], ['R1'])]);
    expect(diffReports(one, both)).toMatchObject({ rulesNewlyCovered: [], rulesNewlyUncovered: [], old: { rulesCovered: 1 }, new: { rulesCovered: 1 } });
  });

  it('says when the target, tool version, spec or TLS certificate changed; not the embedded server fresh certificate', () => {
    const before = report([]);
    const after = report([], { tool: { version: '0.2.0' }, spec: { sha256: 'b'.repeat(64) }, target: { baseUrl: 'https://api.example.com', tlsFingerprint256: 'CC:DD', embedded: false } });
    expect(diffReports(before, after).identity.map((c) => c.what)).toEqual(['tool version', 'spec SHA-256', 'TLS fingerprint']);
    const embedded = { baseUrl: 'https://127.0.0.1:1', tlsFingerprint256: 'AA', embedded: true };
    expect(diffReports(report([], { target: embedded }), report([], { target: { ...embedded, baseUrl: 'https://127.0.0.1:2', tlsFingerprint256: 'BB' } })).identity).toEqual([]);
  });
});

describe('the diff renderings', () => {
  const before = report([check('auth/x', 'failed', ['AUTH-REQUIRED']), check('schedules/y', 'passed')], { runId: 'old-run' });
  const after = report([check('auth/x', 'passed'), check('schedules/y', 'failed', ['SCH-DATE-FORMAT'])], { runId: 'new-run' });
  const diff = diffReports(before, after);

  it('text: a row per change with both statuses and the rules, then the verdict', () => {
    const text = renderDiffText(diff);
    expect(text).toMatch(/^NEW FAILURE\s+schedules\/y\s+passed -> failed\s+SCH-DATE-FORMAT$/m);
    expect(text).toMatch(/^FIXED\s+auth\/x\s+failed -> passed\s+AUTH-REQUIRED$/m);
    expect(text.trim().split('\n').at(-1)).toBe('REGRESSED  1 new failure(s), 0 still failing, 1 fixed, 0 no longer run (1 regression(s))');
  });

  it('markdown: a table a pull request renders, the new failure in bold, cells escaped', () => {
    const piped = diffReports(before, report([check('auth/x', 'failed', ['AUTH-REQUIRED']), { ...check('schedules/y', 'failed', ['SCH-DATE-FORMAT']), title: 'a | b' }]));
    const md = renderDiffMarkdown(piped);
    expect(md).toContain('### clockcheck diff: regressed');
    expect(md).toContain('| change | check | status | rules |');
    expect(md).toContain('| **new failure** | `schedules/y` a \\| b | passed -> failed | SCH-DATE-FORMAT |');
    expect(md).toContain('| still failing | `auth/x` title of auth/x | failed -> failed | AUTH-REQUIRED |');
  });
});
