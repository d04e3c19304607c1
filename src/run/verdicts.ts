import { RULES } from '../contract/rules.ts';
import type { CheckResult, CheckStatus, RuleCoverage, RunSummary } from '../report/model.ts';
import type { Profile } from '../profile/profile.ts';

/**
 * Waivers (profile): a failed check whose every finding breaks a waived rule is reported as
 * `waived`, with the waiver's reason. It still ran; it just does not fail the run.
 */
export function applyWaivers(result: CheckResult, profile: Profile): CheckResult {
  if (result.status !== 'failed' || profile.waivers.length === 0) return result;
  const waived = new Map(profile.waivers.map((w) => [w.rule, w]));
  if (!result.findings.every((f) => waived.has(f.ruleId))) return result;
  const waiver = waived.get(result.findings[0]!.ruleId)!;
  return { ...result, status: 'waived', waiver: { rule: waiver.rule, reason: waiver.reason } };
}

/** Worst first: the outcome a rule gets from several checks. */
const SEVERITY: readonly CheckStatus[] = ['failed', 'errored', 'waived', 'passed', 'skipped'];

/**
 * Coverage per rule. A failed check counts against the rules of its findings (not every rule it
 * names), so a failure points at the rule that broke; a check that passed covers all its rules.
 */
export function coverage(results: readonly CheckResult[]): RuleCoverage[] {
  return RULES.map((rule) => {
    const covering = results.filter((r) => r.rules.includes(rule.id) || r.findings.some((f) => f.ruleId === rule.id));
    if (covering.length === 0) return { rule, outcome: 'uncovered' as const, checkIds: [] };
    const outcomes = covering.map((r): CheckStatus => {
      if (r.status === 'failed' || r.status === 'waived') return r.findings.some((f) => f.ruleId === rule.id) ? r.status : 'passed';
      return r.status;
    });
    const outcome = SEVERITY.find((s) => outcomes.includes(s)) ?? 'skipped';
    return { rule, outcome, checkIds: covering.map((r) => r.id) };
  });
}

export function summarize(results: readonly CheckResult[], rules: readonly RuleCoverage[]): RunSummary {
  const count = (s: CheckStatus) => results.filter((r) => r.status === s).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    errored: count('errored'),
    skipped: count('skipped'),
    waived: count('waived'),
    rulesCovered: rules.filter((r) => r.outcome !== 'uncovered' && r.outcome !== 'skipped').length,
    rulesTotal: rules.length,
  };
}
