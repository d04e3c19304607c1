import { describe, expect, it } from 'vitest';
import type { CheckResult, CheckStatus, Finding } from '../../src/report/model.ts';
import { RULES, type RuleId } from '../../src/contract/rules.ts';
import { applyWaivers, coverage, summarize } from '../../src/run/verdicts.ts';
import { profileWith } from '../scenarios/support.ts';

const finding = (ruleId: RuleId): Finding => ({ ruleId, expected: 'e', actual: 'a', exchangeIds: [1] });

function result(id: string, status: CheckStatus, rules: readonly RuleId[], findings: readonly RuleId[] = []): CheckResult {
  return { id, title: id, rules, source: { kind: 'builtin', name: id }, status, findings: findings.map(finding), exchanges: [], durationMs: 1, replay: `--only ${id}` };
}

const outcomeOf = (rows: ReturnType<typeof coverage>, rule: RuleId) => rows.find((r) => r.rule.id === rule);

describe('applyWaivers', () => {
  const profile = profileWith({ waivers: [{ rule: 'PAG-LINKS', reason: 'links are relative by design' }, { rule: 'PAG-WALK', reason: 'known overlap' }] });

  it('turns a failure whose every finding is waived into waived, with the reason', () => {
    const waived = applyWaivers(result('a', 'failed', ['PAG-LINKS'], ['PAG-LINKS', 'PAG-WALK']), profile);
    expect(waived.status).toBe('waived');
    expect(waived.waiver).toEqual({ rule: 'PAG-LINKS', reason: 'links are relative by design' });
    expect(waived.findings).toHaveLength(2);
  });

  it('keeps a failure with any finding that is not waived', () => {
    const mixed = result('a', 'failed', ['PAG-LINKS'], ['PAG-LINKS', 'PAG-BLOCK-FIELDS']);
    expect(applyWaivers(mixed, profile)).toBe(mixed);
  });

  it('leaves other statuses and profiles without waivers alone', () => {
    const passed = result('a', 'passed', ['PAG-LINKS']);
    expect(applyWaivers(passed, profile)).toBe(passed);
    const errored = result('b', 'errored', ['PAG-LINKS']);
    expect(applyWaivers(errored, profile)).toBe(errored);
    const failed = result('c', 'failed', ['PAG-LINKS'], ['PAG-LINKS']);
    expect(applyWaivers(failed, profileWith())).toBe(failed);
  });
});

describe('coverage', () => {
  it('lists every rule of the catalog, uncovered when no check names it', () => {
    const rows = coverage([]);
    expect(rows.map((r) => r.rule.id)).toEqual(RULES.map((r) => r.id));
    expect(rows.every((r) => r.outcome === 'uncovered' && r.checkIds.length === 0)).toBe(true);
  });

  it('counts a failed check only against the rules of its findings', () => {
    const rows = coverage([result('pair', 'failed', ['USR-PASSWORD-CLASSES', 'USR-PASSWORD-LENGTH'], ['USR-PASSWORD-LENGTH'])]);
    expect(outcomeOf(rows, 'USR-PASSWORD-LENGTH')).toMatchObject({ outcome: 'failed', checkIds: ['pair'] });
    expect(outcomeOf(rows, 'USR-PASSWORD-CLASSES')).toMatchObject({ outcome: 'passed', checkIds: ['pair'] });
  });

  it('covers a rule that a check broke without naming it', () => {
    const rows = coverage([result('walk', 'failed', ['PAG-WALK'], ['PAG-LINKS'])]);
    expect(outcomeOf(rows, 'PAG-LINKS')).toMatchObject({ outcome: 'failed', checkIds: ['walk'] });
    expect(outcomeOf(rows, 'PAG-WALK')?.outcome).toBe('passed');
  });

  it('counts a waived check against the waived rules only', () => {
    const rows = coverage([result('w', 'waived', ['PAG-WALK', 'PAG-LINKS'], ['PAG-LINKS'])]);
    expect(outcomeOf(rows, 'PAG-LINKS')?.outcome).toBe('waived');
    expect(outcomeOf(rows, 'PAG-WALK')?.outcome).toBe('passed');
  });

  it('gives a rule the worst outcome of its checks: failed, errored, waived, passed, skipped', () => {
    const rule: RuleId = 'HEAD-PARITY';
    const of = (...statuses: CheckStatus[]) =>
      outcomeOf(coverage(statuses.map((s, i) => result(`c${i}`, s, [rule], s === 'failed' || s === 'waived' ? [rule] : []))), rule)?.outcome;
    expect(of('passed', 'failed', 'errored')).toBe('failed');
    expect(of('passed', 'errored', 'waived')).toBe('errored');
    expect(of('skipped', 'waived', 'passed')).toBe('waived');
    expect(of('skipped', 'passed')).toBe('passed');
    expect(of('skipped', 'skipped')).toBe('skipped');
    expect(outcomeOf(coverage([result('a', 'passed', [rule]), result('b', 'skipped', [rule])]), rule)?.checkIds).toEqual(['a', 'b']);
  });
});

describe('summarize', () => {
  it('counts the checks by status and the rules covered by a verdict', () => {
    const results = [
      result('a', 'passed', ['HEAD-PARITY']),
      result('b', 'failed', ['PAG-WALK'], ['PAG-WALK']),
      result('c', 'errored', ['PAG-LINKS']),
      result('d', 'skipped', ['SORT-MULTI']),
      result('e', 'waived', ['SORT-ASCENDING'], ['SORT-ASCENDING']),
      result('f', 'passed', ['HEAD-SUPPORTED']),
    ];
    expect(summarize(results, coverage(results))).toEqual({ passed: 2, failed: 1, errored: 1, skipped: 1, waived: 1, rulesCovered: 5, rulesTotal: RULES.length });
  });
});
