import { describe, expect, it } from 'vitest';
import type { CheckResult, CheckStatus, Finding } from '../../src/report/model.ts';
import type { RuleId } from '../../src/contract/rules.ts';
import { applyWaivers } from '../../src/execute/verdicts.ts';
import { profileWith } from '../scenarios/support.ts';

const finding = (ruleId: RuleId): Finding => ({ ruleId, expected: 'e', actual: 'a', exchangeIds: [1] });

function result(id: string, status: CheckStatus, rules: readonly RuleId[], findings: readonly RuleId[] = []): CheckResult {
  return { id, title: id, rules, source: { kind: 'builtin', name: id }, status, findings: findings.map(finding), exchanges: [], durationMs: 1, replay: `--only ${id}` };
}

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
