import { CHECK_STATUSES, type CheckResult, type CheckStatus, type RunReport, type UnjudgedGroup } from './model.ts';
import { formatDuration } from '../duration.ts';
import { countOf, isJudged } from './coverage.ts';
import { groupBySection, primarySection } from './_internals/spec-sections.ts';
import { oneLine, painter } from './terminal-text.ts';
import { rulesJudgedText, runVerdict, type RunVerdict } from './run-verdict.ts';
import type { ReportPaths } from './write-reports.ts';

export interface SummaryTableOptions {
  /** ANSI colours; pass `useColor(process.stdout)` (never colour a pipe, a CI log or under NO_COLOR). */
  readonly color: boolean;
  /** The written reports, listed at the end when given. */
  readonly paths?: ReportPaths;
}

type Paint = ReturnType<typeof painter>;

const STATUS_STYLE = { passed: 'green', failed: 'red', errored: 'yellow', skipped: 'dim', 'not-run': 'cyan', waived: 'magenta' } as const;
const STATUS_MARK: Readonly<Record<CheckStatus, string>> = { passed: '✓', failed: '✗', errored: '!', skipped: '○', 'not-run': '-', waived: '~' };
const STATUS_WORDS: Readonly<Record<CheckStatus, string>> = { passed: 'passed', failed: 'failed', errored: 'errored', skipped: 'skipped', 'not-run': 'not run', waived: 'waived' };
const VERDICT_STYLE: Readonly<Record<RunVerdict, 'green' | 'red' | 'yellow'>> = { PASSED: 'green', FAILED: 'red', 'NOT JUDGED ENOUGH': 'red', ERRORED: 'yellow', 'NOT RUN': 'yellow', INTERRUPTED: 'yellow', 'INTERNAL ERROR': 'red' };
/** Longest expected/actual text on a line of the failure list. */
const TEXT_WIDTH = 70;
/** The check IDs a group of checks sharing one reason shows (report.json lists them all). */
const IDS_SHOWN = 6;

/**
 * The table printed at the end of a run: counts per status, requests, the rules judged per spec
 * section (with the ones not judged), each failed and waived check with its rule and expected vs
 * actual on one line, the errored, not-run and skipped checks by reason (a reason many share is
 * one line), the report paths, and the verdict last. Text from the target is stripped of control characters.
 */
export function summaryTable(report: RunReport, options: SummaryTableOptions): string {
  const paint = painter(options.color);
  const { summary, requests } = report;
  const lines = [
    paint('bold', `${report.tool.name} ${report.tool.version}`) +
      `  ${report.target.baseUrl}${report.target.apiPrefix}  seed ${report.seed}  ${formatDuration(report.durationMs)} (plan ETA ${formatDuration(report.plannedEtaMs)})`,
    '',
    `Checks    ${CHECK_STATUSES.map((s) => paint(STATUS_STYLE[s], `${countOf(summary, s)} ${STATUS_WORDS[s]}`)).join('   ')}`,
    `Requests  ${requests.planned} planned   ${requests.made} made   ` +
      (requests.unintended429 > 0 ? paint('red', `${requests.unintended429} unintended 429 (${requests.resent} resent after Retry-After)`) : '0 unintended 429'),
    ...report.notes.map((note) => paint('yellow', `Note      ${oneLine(note, TEXT_WIDTH * 3)}`)),
    '',
    ...coverageLines(report),
    ...findingLines(report.checks, 'failed', paint),
    ...unjudgedLines(report, 'errored', paint),
    ...findingLines(report.checks, 'waived', paint),
    ...unjudgedLines(report, 'not-run', paint),
    ...unjudgedLines(report, 'skipped', paint),
    ...pathLines(options.paths),
    verdictLine(report, paint),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * Rules judged / total per section; a partly judged section also names its judged rules or, when
 * fewer, the ones not judged, so the lines say which rules the run judged without listing a hundred.
 */
function coverageLines(report: RunReport): string[] {
  const groups = groupBySection(report.coverage, (entry) => primarySection(entry.rule));
  const rows = groups.map((g) => ({
    label: g.label,
    covered: g.items.filter((c) => isJudged(c.outcome)).length,
    total: g.items.length,
    judged: g.items.filter((c) => isJudged(c.outcome)).map((c) => c.rule.id),
    gaps: g.items.filter((c) => !isJudged(c.outcome)).map((c) => c.rule.id),
  }));
  const all = { label: 'all sections', covered: report.summary.rulesCovered, total: report.summary.rulesTotal, judged: [] as string[], gaps: [] as string[] };
  const width = Math.max(...[...rows, all].map((r) => r.label.length));
  const row = (r: typeof all) => `  ${r.label.padEnd(width)}  ${String(r.covered).padStart(3)} / ${r.total}`;
  const lines = ['Coverage  rules judged / total (judged: a check passed, failed or waived on it)'];
  for (const r of rows) {
    lines.push(row(r));
    if (r.judged.length === 0 || r.gaps.length === 0) continue;
    const named = r.judged.length <= r.gaps.length ? `judged: ${r.judged.join(', ')}` : `not judged: ${r.gaps.join(', ')}`;
    lines.push(...wrapped(named, '      ', TEXT_WIDTH + 30));
  }
  lines.push(row(all), '');
  return lines;
}

/** Words on lines of at most `width` characters, each after `indent`. */
function wrapped(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(`${indent}${line}`);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}

/** Failed or waived checks: each with its findings (rule, expected, actual) and a waiver's reason. */
function findingLines(checks: readonly CheckResult[], status: 'failed' | 'waived', paint: Paint): string[] {
  const matching = checks.filter((c) => c.status === status);
  if (matching.length === 0) return [];
  const lines = [paint('bold', `${capitalized(STATUS_WORDS[status])} (${matching.length})`)];
  for (const check of matching) {
    lines.push(checkLine(check, paint));
    for (const f of check.findings) {
      lines.push(`      ${f.ruleId}  expected ${oneLine(f.expected, TEXT_WIDTH)}; actual ${oneLine(f.actual, TEXT_WIDTH)}`);
    }
    if (check.waiver) lines.push(`      waived: ${oneLine(check.waiver.reason, TEXT_WIDTH)}`);
  }
  lines.push('');
  return lines;
}

function checkLine(check: CheckResult, paint: Paint): string {
  return `  ${paint(STATUS_STYLE[check.status], STATUS_MARK[check.status])} ${check.id}  ${paint('dim', oneLine(check.title, TEXT_WIDTH))}`;
}

/**
 * The checks of one status that judged nothing, by reason (summary.unjudged): a reason one check
 * gives is that check and its reason; a reason several share is one line, "12 checks skipped:
 * <reason>", and their IDs, so a hundred checks the run did not get to never bury the cause.
 */
function unjudgedLines(report: RunReport, status: 'errored' | 'not-run' | 'skipped', paint: Paint): string[] {
  const groups = report.summary.unjudged.filter((g) => g.status === status);
  if (groups.length === 0) return [];
  const checks = new Map(report.checks.map((c) => [c.id, c]));
  const total = groups.reduce((n, g) => n + g.checkIds.length, 0);
  const lines = [paint('bold', `${capitalized(STATUS_WORDS[status])} (${total})`)];
  for (const group of groups) {
    const only = group.checkIds.length === 1 ? checks.get(group.checkIds[0]!) : undefined;
    if (only) lines.push(checkLine(only, paint), `      ${oneLine(group.reason, TEXT_WIDTH * 2)}`);
    else lines.push(...sharedReasonLines(group, paint));
  }
  lines.push('');
  return lines;
}

function sharedReasonLines(group: UnjudgedGroup, paint: Paint): string[] {
  const words = STATUS_WORDS[group.status];
  // "not run: …" reasons under "N checks not run: …" would say it twice.
  const reason = group.status === 'not-run' ? group.reason.replace(/^not run: /, '') : group.reason;
  const shown = group.checkIds.slice(0, IDS_SHOWN).join(', ');
  const more = group.checkIds.length > IDS_SHOWN ? ` (+${group.checkIds.length - IDS_SHOWN} more in report.json)` : '';
  return [`  ${paint(STATUS_STYLE[group.status], STATUS_MARK[group.status])} ${group.checkIds.length} checks ${words}: ${oneLine(reason, TEXT_WIDTH * 2)}`, `      ${shown}${more}`];
}

function capitalized(text: string): string {
  return `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}`;
}

function pathLines(paths: ReportPaths | undefined): string[] {
  if (!paths) return [];
  return ['Reports', `  JSON   ${paths.json}`, `  HTML   ${paths.html}`, `  JUnit  ${paths.junit}`, ...(paths.har ? [`  HAR    ${paths.har}`] : []), ...(paths.regressions ? [`  YAML   ${paths.regressions} (the failing generated cases as a suite)`] : []), ''];
}

/** The run's verdict as the last line of the summary says it (all `clockcheck run --quiet` prints). */
export function verdictSummary(report: RunReport, options: Pick<SummaryTableOptions, 'color'>): string {
  return `${verdictLine(report, painter(options.color))}\n`;
}

/**
 * `FAILED  37 of 102 rules judged; 2 failed, 1 errored, 115 not run`: the verdict (which the exit
 * code stands for), the rules judged, the counts that are not passes, and what stopped the run
 * before its end, if something did.
 */
function verdictLine(report: RunReport, paint: Paint): string {
  const verdict = runVerdict(report);
  const { summary } = report;
  const judged = verdict === 'NOT JUDGED ENOUGH' ? `${rulesJudgedText(summary)}, fewer than --min-rules ${report.options.minRules}` : rulesJudgedText(summary);
  const counts = (['failed', 'errored', 'waived', 'not-run', 'skipped'] as const).filter((s) => countOf(summary, s) > 0).map((s) => `${countOf(summary, s)} ${STATUS_WORDS[s]}`);
  const interrupted = report.status === 'interrupted' ? '; the run was interrupted' : '';
  const stopped = report.internalError ? `; ${oneLine(report.internalError, TEXT_WIDTH * 2)}` : report.stopped ? `; the run stopped: ${oneLine(report.stopped.reason, TEXT_WIDTH * 2)}` : '';
  return `${paint(VERDICT_STYLE[verdict], paint('bold', verdict))}  ${judged}${counts.length > 0 ? `; ${counts.join(', ')}` : ''}${interrupted}${stopped}`;
}
