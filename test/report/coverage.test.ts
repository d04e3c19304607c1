import { describe, expect, it } from 'vitest';
import type { CheckResult, CheckStatus, Finding, RuleCoverage } from '../../src/report/model.ts';
import { RULES, type RuleId } from '../../src/contract/rules.ts';
import { coverageOf, isJudged, unjudgedGroups } from '../../src/report/coverage.ts';

const finding = (ruleId: RuleId): Finding => ({ ruleId, expected: 'e', actual: 'a', exchangeIds: [1] });

function result(id: string, status: CheckStatus, rules: readonly RuleId[], findings: readonly RuleId[] = [], reason?: string): CheckResult {
  return { id, title: id, rules, source: { kind: 'builtin', name: id }, status, findings: findings.map(finding), exchanges: [], durationMs: 1, replay: `--only ${id}`, ...(reason === undefined ? {} : { reason }) };
}

const rowOf = (rows: readonly RuleCoverage[], rule: RuleId) => rows.find((r) => r.rule.id === rule);
const inCatalogOrder = (...ids: RuleId[]) => RULES.map((r) => r.id).filter((id) => ids.includes(id));

describe('coverageOf: per rule', () => {
  it('lists every rule of the catalog, uncovered when no check names it', () => {
    const { coverage } = coverageOf([]);
    expect(coverage.map((r) => r.rule.id)).toEqual(RULES.map((r) => r.id));
    expect(coverage.every((r) => r.outcome === 'uncovered' && r.checkIds.length === 0)).toBe(true);
  });

  it('counts a failed check only against the rules of its findings, and passes the others it names', () => {
    const { coverage } = coverageOf([result('pair', 'failed', ['USR-PASSWORD-CLASSES', 'USR-PASSWORD-LENGTH'], ['USR-PASSWORD-LENGTH'])]);
    expect(rowOf(coverage, 'USR-PASSWORD-LENGTH')).toMatchObject({ outcome: 'failed', checkIds: ['pair'] });
    expect(rowOf(coverage, 'USR-PASSWORD-CLASSES')).toMatchObject({ outcome: 'passed', checkIds: ['pair'] });
  });

  it('covers a rule that a check broke without naming it', () => {
    const { coverage } = coverageOf([result('walk', 'failed', ['PAG-WALK'], ['PAG-LINKS'])]);
    expect(rowOf(coverage, 'PAG-LINKS')).toMatchObject({ outcome: 'failed', checkIds: ['walk'] });
    expect(rowOf(coverage, 'PAG-WALK')?.outcome).toBe('passed');
  });

  it('counts a waived check as judged: waived on the waived rules, passed on the others it names', () => {
    const { coverage, summary } = coverageOf([result('w', 'waived', ['PAG-WALK', 'PAG-LINKS'], ['PAG-LINKS'])]);
    expect(rowOf(coverage, 'PAG-LINKS')?.outcome).toBe('waived');
    expect(rowOf(coverage, 'PAG-WALK')?.outcome).toBe('passed');
    expect(summary.coveredRules).toEqual(inCatalogOrder('PAG-WALK', 'PAG-LINKS'));
  });

  it('gives a judged rule the worst verdict of the checks that judged it, whatever errored, skipped or was not run beside them', () => {
    const rule: RuleId = 'HEAD-PARITY';
    const of = (...statuses: CheckStatus[]) =>
      rowOf(coverageOf(statuses.map((s, i) => result(`c${i}`, s, [rule], s === 'failed' || s === 'waived' ? [rule] : []))).coverage, rule)?.outcome;
    expect(of('passed', 'failed', 'errored')).toBe('failed');
    expect(of('passed', 'errored', 'waived')).toBe('waived');
    expect(of('skipped', 'passed', 'not-run', 'errored')).toBe('passed');
  });

  it('says why an unjudged rule went unjudged: errored before not-run before skipped', () => {
    const rule: RuleId = 'HEAD-PARITY';
    const of = (...statuses: CheckStatus[]) => rowOf(coverageOf(statuses.map((s, i) => result(`c${i}`, s, [rule]))).coverage, rule)?.outcome;
    expect(of('skipped', 'errored', 'not-run')).toBe('errored');
    expect(of('skipped', 'not-run')).toBe('not-run');
    expect(of('skipped', 'skipped')).toBe('skipped');
    expect(rowOf(coverageOf([result('a', 'passed', [rule]), result('b', 'skipped', [rule])]).coverage, rule)?.checkIds).toEqual(['a', 'b']);
  });

  it('calls a rule judged exactly when a check passed, failed or waived on it', () => {
    expect((['passed', 'failed', 'waived', 'errored', 'skipped', 'not-run', 'uncovered'] as const).filter(isJudged)).toEqual(['passed', 'failed', 'waived']);
  });
});

describe('coverageOf: the summary', () => {
  const results = [
    result('a', 'passed', ['HEAD-PARITY']),
    result('b', 'failed', ['PAG-WALK'], ['PAG-WALK']),
    result('c', 'errored', ['PAG-LINKS'], [], 'transport error on exchange #3'),
    result('d', 'skipped', ['SORT-MULTI'], [], 'needs fixtures.break_rule_id'),
    result('e', 'waived', ['SORT-ASCENDING'], ['SORT-ASCENDING']),
    result('f', 'passed', ['HEAD-SUPPORTED']),
    result('g', 'not-run', ['PAG-WALK', 'USR-EMAIL-FORMAT'], [], 'not run: budget (--within 6m): a full run sends it'),
  ];

  it('counts the checks by status and covers only the rules a check judged', () => {
    const { summary } = coverageOf(results);
    // PAG-LINKS errored, SORT-MULTI skipped, USR-EMAIL-FORMAT not run: none of them judged.
    expect(summary).toMatchObject({ passed: 2, failed: 1, errored: 1, skipped: 1, notRun: 1, waived: 1, rulesCovered: 4, rulesTotal: RULES.length });
    expect(summary.coveredRules).toEqual(inCatalogOrder('HEAD-PARITY', 'PAG-WALK', 'SORT-ASCENDING', 'HEAD-SUPPORTED'));
  });

  it('covers no rule in a run whose checks all errored or were not run', () => {
    const { summary, coverage } = coverageOf([result('x', 'errored', ['AUTH-HEADER-RAW'], [], 'refused'), result('y', 'not-run', ['AUTH-REQUIRED'], [], 'not run: refused')]);
    expect(summary.rulesCovered).toBe(0);
    expect(summary.coveredRules).toEqual([]);
    expect(coverage.filter((c) => isJudged(c.outcome))).toEqual([]);
  });

  it('lists the checks that judged nothing with their reasons, errored first, then not-run, then skipped', () => {
    expect(coverageOf(results).summary.unjudged).toEqual([
      { status: 'errored', reason: 'transport error on exchange #3', checkIds: ['c'] },
      { status: 'not-run', reason: 'not run: budget (--within 6m): a full run sends it', checkIds: ['g'] },
      { status: 'skipped', reason: 'needs fixtures.break_rule_id', checkIds: ['d'] },
    ]);
  });
});

describe('unjudgedGroups', () => {
  it('groups the checks that share a reason, the largest group of a status first, in run order', () => {
    const fixture = 'needs fixtures.break_rule_id';
    const checks = [
      result('s1', 'skipped', ['BRK-IDS-FILTER'], [], 'read-only run'),
      ...['s2', 's3', 's4'].map((id) => result(id, 'skipped', ['BRK-IDS-FILTER'], [], fixture)),
      result('p', 'passed', ['HEAD-PARITY']),
    ];
    expect(unjudgedGroups(checks)).toEqual([
      { status: 'skipped', reason: fixture, checkIds: ['s2', 's3', 's4'] },
      { status: 'skipped', reason: 'read-only run', checkIds: ['s1'] },
    ]);
  });

  it('keeps the same reason apart when the statuses differ, and names a missing reason', () => {
    const checks = [result('e', 'errored', ['HEAD-PARITY'], [], 'same'), result('s', 'skipped', ['HEAD-PARITY'], [], 'same'), result('n', 'not-run', ['HEAD-PARITY'])];
    expect(unjudgedGroups(checks).map((g) => `${g.status}: ${g.reason}`)).toEqual(['errored: same', 'not-run: not-run (no reason given)', 'skipped: same']);
  });
});
