import type { Rule } from '../contract/rules.ts';
import { curlCommand, tokenVariableOf, type CurlTlsOptions } from './curl.ts';
import type { CheckResult, RunReport } from './model.ts';
import { checkSection, rulesOfReport } from './_internals/check-sections.ts';
import { groupBySection } from './_internals/spec-sections.ts';
import { escapeXmlAttribute as attr, escapeXmlText as text } from './_internals/xml.ts';
import { rulesJudgedText, runVerdict } from './run-verdict.ts';

interface Counts {
  readonly tests: number;
  readonly failures: number;
  readonly errors: number;
  readonly skipped: number;
  readonly seconds: number;
}

function countsOf(checks: readonly CheckResult[]): Counts {
  return {
    tests: checks.length,
    failures: checks.filter((c) => c.status === 'failed').length,
    errors: checks.filter((c) => c.status === 'errored').length,
    // Not-run and waived checks are <skipped> too: JUnit has no other way to say "no verdict to count".
    skipped: checks.filter((c) => c.status === 'skipped' || c.status === 'not-run' || c.status === 'waived').length,
    seconds: checks.reduce((sum, c) => sum + c.durationMs, 0) / 1000,
  };
}

/** A `<testsuite>`'s counts; `<testsuites>` takes the same but `skipped`, which Jenkins' JUnit schema does not allow there. */
function countAttributes(counts: Counts, level: 'testsuite' | 'testsuites' = 'testsuite'): string {
  const skipped = level === 'testsuite' ? ` skipped="${counts.skipped}"` : '';
  return `tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}"${skipped} time="${counts.seconds.toFixed(3)}"`;
}

/** `classname`: the scenario file for a scenario check, else the family of its first rule. */
function className(check: CheckResult, rules: ReadonlyMap<string, Rule>): string {
  if (check.source.kind === 'scenario') return check.source.file;
  const first = check.rules[0];
  return (first === undefined ? undefined : rules.get(first)?.family) ?? 'clockcheck';
}

function findingsText(check: CheckResult, rules: ReadonlyMap<string, Rule>): string {
  return check.findings
    .map((f) => {
      const statement = rules.get(f.ruleId)?.statement;
      const seenIn = f.exchangeIds.length > 0 ? `\n  exchange: ${f.exchangeIds.map((id) => `#${id}`).join(', ')}` : '';
      return `${f.ruleId}${statement ? `: ${statement}` : ''}\n  expected: ${f.expected}\n  actual:   ${f.actual}${seenIn}`;
    })
    .join('\n\n');
}

/**
 * The exchanges worth showing: those the findings name, or those that failed in transport; each
 * sent one with a curl command. A webhook delivery the sink received is marked so and gets none:
 * curl would send to the sink, not replay anything clockcheck sent.
 */
function evidenceText(check: CheckResult, tls: CurlTlsOptions): string {
  const named = new Set(check.findings.flatMap((f) => f.exchangeIds));
  const shown = check.exchanges.filter((e) => named.has(e.id) || e.error !== undefined);
  return shown
    .map((e) => {
      const status = e.response ? `HTTP ${e.response.status}` : '';
      const error = e.error ? `${e.error.code}: ${e.error.message}` : '';
      const outcome = [status, error].filter((part) => part !== '').join(', then ') || 'no response';
      if (e.direction === 'inbound') return `Exchange #${e.id} received: ${e.request.method} ${e.request.url} from the target -> sink's answer: ${outcome}`;
      return `Exchange #${e.id}: ${e.request.method} ${e.request.url} -> ${outcome}\nReproduce with:\n${curlCommand(e.request, tls, tokenVariableOf(e))}`;
    })
    .join('\n\n');
}

function detailText(check: CheckResult, rules: ReadonlyMap<string, Rule>, tls: CurlTlsOptions): string {
  const parts = [
    check.source.kind === 'scenario' ? `Scenario: ${check.source.file}:${check.source.line}` : '',
    check.reason ?? '',
    check.waiver ? `Waived by the profile for ${check.waiver.rule}: ${check.waiver.reason}` : '',
    findingsText(check, rules),
    (check.notes ?? []).join('\n'),
    evidenceText(check, tls),
    `Replay this check:\n${check.replay}`,
  ];
  return parts.filter((p) => p !== '').join('\n\n');
}

function failureMessage(check: CheckResult): string {
  const [first, ...rest] = check.findings;
  if (!first) return check.reason ?? 'failed';
  return `${first.ruleId}: expected ${first.expected}; actual ${first.actual}${rest.length > 0 ? ` (+${rest.length} more)` : ''}`;
}

function outcomeElement(check: CheckResult, rules: ReadonlyMap<string, Rule>, tls: CurlTlsOptions): string {
  switch (check.status) {
    case 'passed':
      return '';
    case 'failed':
      return `\n      <failure message="${attr(failureMessage(check))}" type="${attr(check.findings[0]?.ruleId ?? 'failed')}">${text(detailText(check, rules, tls))}</failure>`;
    case 'errored':
      return `\n      <error message="${attr(check.reason ?? 'errored')}" type="errored">${text(detailText(check, rules, tls))}</error>`;
    // The reason is the text of <skipped>: Jenkins' JUnit schema gives it no attributes (and its
    // plugin reads the text when there is no message). A not-run check's reason starts "not run: ".
    case 'skipped':
    case 'not-run':
      return `\n      <skipped>${text(check.reason ?? check.status)}</skipped>`;
    case 'waived': {
      const why = check.waiver ? `waived (${check.waiver.rule}): ${check.waiver.reason}` : 'waived';
      return `\n      <skipped>${text(why)}</skipped>\n      <system-out>${text(detailText(check, rules, tls))}</system-out>`;
    }
  }
}

function testCase(check: CheckResult, rules: ReadonlyMap<string, Rule>, tls: CurlTlsOptions): string {
  // No file/line attributes: Jenkins' JUnit schema does not allow them (the classname is the
  // scenario file, and a failure's text names the line).
  // `status` (allowed by the schema) tells a not-run check from a skipped or waived one.
  const open = `    <testcase classname="${attr(className(check, rules))}" name="${attr(`${check.id}: ${check.title}`)}" time="${(check.durationMs / 1000).toFixed(3)}" status="${check.status}"`;
  const body = outcomeElement(check, rules, tls);
  return body === '' ? `${open}/>` : `${open}>${body}\n    </testcase>`;
}

function properties(report: RunReport): string {
  const entries: [string, string][] = [
    ['clockcheck.runId', report.runId],
    ['clockcheck.target', `${report.target.baseUrl}${report.target.apiPrefix}`],
    ['clockcheck.seed', String(report.seed)],
    ['clockcheck.spec.sha256', report.spec.sha256],
    ['clockcheck.tlsFingerprint256', report.target.tlsFingerprint256 ?? 'not seen'],
    ['clockcheck.status', report.status],
    ['clockcheck.verdict', runVerdict(report)],
    ['clockcheck.exitCode', String(report.exitCode)],
    ['clockcheck.rulesJudged', rulesJudgedText(report.summary)],
    ['clockcheck.rulesJudged.ids', report.summary.coveredRules.join(' ')],
    ...(report.options.minRules === undefined ? [] : [['clockcheck.minRules', String(report.options.minRules)] as [string, string]]),
  ];
  return entries.map(([name, value]) => `      <property name="${attr(name)}" value="${attr(value)}"/>`).join('\n');
}

/** An interrupted run says so in each suite's output: its not-run checks are the ones it did not get to. */
function interruptedOut(report: RunReport): string {
  if (report.status !== 'interrupted') return '';
  return `\n    <system-out>${text(`The run was interrupted (exit ${report.exitCode}): the checks it did not get to are not-run (<skipped>); ${rulesJudgedText(report.summary)}.`)}</system-out>`;
}

/**
 * junit.xml: one `<testsuite>` per spec section (a check belongs to the primary section of its
 * first rule) and a `<testcase>` per check. Failed checks carry `<failure>` with each finding's
 * expected and actual and a curl command per exchange that shows it (none for a webhook delivery
 * the sink received, marked `received`); errored checks `<error>`; skipped, not-run and waived
 * checks `<skipped>` with the reason as its text (a waiver's rule and reason); every testcase's
 * `status` is the check's. Each suite's properties carry the run's status, verdict, exit code and
 * the rules judged (the summary's number and IDs); an interrupted run says so in `<system-out>`.
 */
export function renderJunitReport(report: RunReport, tls: CurlTlsOptions): string {
  const rules = rulesOfReport(report);
  const suites = groupBySection(report.checks, (check) => checkSection(check, rules)).map(
    (group) => `  <testsuite name="${attr(group.label)}" ${countAttributes(countsOf(group.items))} timestamp="${attr(report.startedAt)}">
    <properties>
${properties(report)}
    </properties>
${group.items.map((check) => testCase(check, rules, tls)).join('\n')}${interruptedOut(report)}
  </testsuite>`,
  );
  const name = `clockcheck ${report.target.baseUrl}${report.target.apiPrefix}`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${attr(name)}" ${countAttributes(countsOf(report.checks), 'testsuites')}>
${suites.join('\n')}
</testsuites>
`;
}
