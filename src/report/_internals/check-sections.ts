import type { Rule } from '../../contract/rules.ts';
import type { CheckResult, RunReport } from '../model.ts';
import { NO_SECTION, primarySection } from './spec-sections.ts';

/** The rules of the report (from its coverage), by ID: reporters read rules from the report only. */
export function rulesOfReport(report: RunReport): ReadonlyMap<string, Rule> {
  return new Map(report.coverage.map((c) => [c.rule.id, c.rule]));
}

/** A check's section: the primary section of its first rule (`?` when that rule is unknown). */
export function checkSection(check: CheckResult, rules: ReadonlyMap<string, Rule>): string {
  const first = check.rules[0];
  const rule = first === undefined ? undefined : rules.get(first);
  return rule ? primarySection(rule) : NO_SECTION;
}
