import type { CheckResult } from '../report/model.ts';
import type { Profile } from '../profile/profile.ts';

/**
 * Waivers (profile): a failed check whose every finding breaks a waived rule is reported as
 * `waived`, with the waiver's reason. It still ran and judged its rules; it just does not fail the run.
 * Coverage, the summary and the exit code are the report's (report/coverage.ts, report/run-verdict.ts).
 */
export function applyWaivers(result: CheckResult, profile: Profile): CheckResult {
  if (result.status !== 'failed' || profile.waivers.length === 0) return result;
  const waived = new Map(profile.waivers.map((w) => [w.rule, w]));
  if (!result.findings.every((f) => waived.has(f.ruleId))) return result;
  const waiver = waived.get(result.findings[0]!.ruleId)!;
  return { ...result, status: 'waived', waiver: { rule: waiver.rule, reason: waiver.reason } };
}
