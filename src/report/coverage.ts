import { RULES, type Rule } from '../contract/rules.ts';
import type { CheckResult, CheckStatus, JudgingStatus, RuleCoverage, RuleOutcome, RunSummary, UnjudgedGroup, UnjudgedStatus } from './model.ts';

/** What coverage reads of a check: a CheckResult, or a check of an older report.json (`clockcheck diff`). */
export interface CoverageInput {
  readonly id: string;
  readonly status: CheckStatus;
  readonly rules: readonly string[];
  readonly findings: readonly { readonly ruleId: string }[];
  readonly reason?: string;
}

/** A rule's outcomes, most telling first: the judged ones (worst first), then why a rule went unjudged. */
const OUTCOME_ORDER: readonly Exclude<RuleOutcome, 'uncovered'>[] = ['failed', 'waived', 'passed', 'errored', 'not-run', 'skipped'];
const JUDGING: ReadonlySet<RuleOutcome> = new Set<JudgingStatus>(['passed', 'failed', 'waived']);
const UNJUDGED_ORDER: readonly UnjudgedStatus[] = ['errored', 'not-run', 'skipped'];

/** A rule is covered when it was judged: a check passed, failed or waived on it. */
export function isJudged(outcome: RuleOutcome): outcome is JudgingStatus {
  return JUDGING.has(outcome);
}

/**
 * What one check says of a rule it names or has a finding on. A failed or waived check counts
 * against the rules of its findings only (so a failure points at the rule that broke) and passes
 * the other rules it names; a check of any other status says its status of every rule.
 */
function outcomeOfCheck(check: CoverageInput, ruleId: string): Exclude<RuleOutcome, 'uncovered'> {
  if (check.status === 'failed' || check.status === 'waived') return check.findings.some((f) => f.ruleId === ruleId) ? check.status : 'passed';
  return check.status;
}

/**
 * What became of one rule: the worst verdict of the checks that judged it (failed, waived, passed),
 * else the most telling reason none did (errored, not-run, skipped), else `uncovered`; and every
 * check that names it or broke it. The one definition of coverage: the run's report and `diff`
 * (recomputing an older report) both use it.
 */
export function ruleOutcome(checks: readonly CoverageInput[], ruleId: string): { readonly outcome: RuleOutcome; readonly checkIds: string[] } {
  const naming = checks.filter((c) => c.rules.includes(ruleId) || c.findings.some((f) => f.ruleId === ruleId));
  const outcomes = new Set(naming.map((c) => outcomeOfCheck(c, ruleId)));
  return { outcome: OUTCOME_ORDER.find((o) => outcomes.has(o)) ?? 'uncovered', checkIds: naming.map((c) => c.id) };
}

/**
 * The checks that judged nothing, grouped by status and exact reason: errored first, then not-run,
 * then skipped; within a status the largest group first, ties in run order.
 */
export function unjudgedGroups(checks: readonly CoverageInput[]): UnjudgedGroup[] {
  const groups = new Map<string, { status: UnjudgedStatus; reason: string; checkIds: string[] }>();
  for (const check of checks) {
    if (JUDGING.has(check.status)) continue;
    const status = check.status as UnjudgedStatus;
    const reason = check.reason ?? `${status} (no reason given)`;
    const key = `${status}\u0000${reason}`;
    const group = groups.get(key) ?? { status, reason, checkIds: [] };
    group.checkIds.push(check.id);
    groups.set(key, group);
  }
  const rank = (g: UnjudgedGroup) => UNJUDGED_ORDER.indexOf(g.status);
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || b.checkIds.length - a.checkIds.length);
}

/**
 * The coverage and summary of a run, from its checks: one outcome per rule of the catalog, the
 * counts per status, the rules judged (a rule is covered when a check passed, failed or waived on
 * it; errored, skipped and not-run checks judge nothing) and the unjudged checks by reason. Every
 * reporter (terminal, report.json, report.html, junit.xml) shows these, and nothing else, as coverage.
 */
export function coverageOf(checks: readonly CheckResult[], rules: readonly Rule[] = RULES): { coverage: RuleCoverage[]; summary: RunSummary } {
  const coverage = rules.map((rule): RuleCoverage => ({ rule, ...ruleOutcome(checks, rule.id) }));
  const count = (status: CheckStatus) => checks.filter((c) => c.status === status).length;
  const coveredRules = coverage.filter((c) => isJudged(c.outcome)).map((c) => c.rule.id);
  const summary: RunSummary = {
    passed: count('passed'),
    failed: count('failed'),
    errored: count('errored'),
    skipped: count('skipped'),
    notRun: count('not-run'),
    waived: count('waived'),
    rulesCovered: coveredRules.length,
    rulesTotal: coverage.length,
    coveredRules,
    unjudged: unjudgedGroups(checks),
  };
  return { coverage, summary };
}

/** The summary's count of checks of a status. */
export function countOf(summary: RunSummary, status: CheckStatus): number {
  return status === 'not-run' ? summary.notRun : summary[status];
}
