import type { CheckResult, CheckStatus, RunReport } from './model.ts';
import { formatDuration } from '../duration.ts';
import { groupBySection, primarySection } from './_internals/spec-sections.ts';
import { oneLine, painter } from './terminal-text.ts';
import { runVerdict } from './_internals/verdict.ts';
import type { ReportPaths } from './write-reports.ts';

export interface SummaryTableOptions {
  /** ANSI colours; pass `useColor(process.stdout)` (never colour a pipe, a CI log or under NO_COLOR). */
  readonly color: boolean;
  /** The written reports, listed at the end when given. */
  readonly paths?: ReportPaths;
}

const STATUS_STYLE = { passed: 'green', failed: 'red', errored: 'yellow', skipped: 'dim', waived: 'magenta' } as const;
const COUNTED: readonly CheckStatus[] = ['passed', 'failed', 'errored', 'skipped', 'waived'];
/** Longest expected/actual text on a line of the failure list. */
const TEXT_WIDTH = 70;

/**
 * The table printed at the end of a run: counts per status, requests, coverage per spec section,
 * each failed, errored and waived check with its rule and expected vs actual on one line, the
 * report paths, and the verdict last. Text from the target is stripped of control characters.
 */
export function summaryTable(report: RunReport, options: SummaryTableOptions): string {
  const paint = painter(options.color);
  const { summary, requests } = report;
  const lines = [
    paint('bold', `${report.tool.name} ${report.tool.version}`) +
      `  ${report.target.baseUrl}${report.target.apiPrefix}  seed ${report.seed}  ${formatDuration(report.durationMs)}`,
    '',
    `Checks    ${COUNTED.map((s) => paint(STATUS_STYLE[s], `${summary[s]} ${s}`)).join('   ')}`,
    `Requests  ${requests.planned} planned   ${requests.made} made   ` +
      (requests.unintended429 > 0 ? paint('red', `${requests.unintended429} unintended 429 (${requests.resent} resent after Retry-After)`) : '0 unintended 429'),
    ...report.notes.map((note) => paint('yellow', `Note      ${oneLine(note, TEXT_WIDTH * 3)}`)),
    '',
    ...coverageLines(report),
    ...problemLines(report.checks, paint),
    ...pathLines(options.paths),
    verdictLine(report, paint),
  ];
  return `${lines.join('\n')}\n`;
}

function coverageLines(report: RunReport): string[] {
  const groups = groupBySection(report.coverage, (entry) => primarySection(entry.rule));
  const rows = groups.map((g) => ({ label: g.label, covered: g.items.filter((c) => c.outcome !== 'uncovered').length, total: g.items.length }));
  rows.push({ label: 'all sections', covered: report.summary.rulesCovered, total: report.summary.rulesTotal });
  const width = Math.max(...rows.map((r) => r.label.length));
  return ['Coverage  rules covered / total', ...rows.map((r) => `  ${r.label.padEnd(width)}  ${String(r.covered).padStart(3)} / ${r.total}`), ''];
}

function problemLines(checks: readonly CheckResult[], paint: ReturnType<typeof painter>): string[] {
  const lines: string[] = [];
  const heading = (status: CheckStatus, mark: string) => {
    const matching = checks.filter((c) => c.status === status);
    if (matching.length === 0) return;
    lines.push(paint('bold', `${status[0]?.toUpperCase()}${status.slice(1)} (${matching.length})`));
    for (const check of matching) {
      lines.push(`  ${paint(STATUS_STYLE[status], mark)} ${check.id}  ${paint('dim', oneLine(check.title, TEXT_WIDTH))}`);
      for (const f of check.findings) {
        lines.push(`      ${f.ruleId}  expected ${oneLine(f.expected, TEXT_WIDTH)}; actual ${oneLine(f.actual, TEXT_WIDTH)}`);
      }
      if (check.waiver) lines.push(`      waived: ${oneLine(check.waiver.reason, TEXT_WIDTH)}`);
      if (check.reason !== undefined) lines.push(`      ${oneLine(check.reason, TEXT_WIDTH * 2)}`);
    }
    lines.push('');
  };
  heading('failed', '✗');
  heading('errored', '!');
  heading('waived', '~');
  return lines;
}

function pathLines(paths: ReportPaths | undefined): string[] {
  if (!paths) return [];
  return ['Reports', `  JSON   ${paths.json}`, `  HTML   ${paths.html}`, `  JUnit  ${paths.junit}`, ...(paths.regressions ? [`  YAML   ${paths.regressions} (the failing generated cases as a suite)`] : []), ''];
}

/** The run's verdict as the last line of the summary says it (all `clockcheck run --quiet` prints). */
export function verdictSummary(report: RunReport, options: Pick<SummaryTableOptions, 'color'>): string {
  return `${verdictLine(report, painter(options.color))}\n`;
}

function verdictLine(report: RunReport, paint: ReturnType<typeof painter>): string {
  const verdict = runVerdict(report);
  const { failed, errored, waived, skipped } = report.summary;
  const style = verdict === 'PASSED' ? 'green' : verdict === 'FAILED' ? 'red' : 'yellow';
  const notes = [
    failed > 0 ? `${failed} failed` : '',
    errored > 0 ? `${errored} errored` : '',
    waived > 0 ? `${waived} waived` : '',
    skipped > 0 ? `${skipped} skipped` : '',
  ].filter((n) => n !== '');
  return `${paint(style, paint('bold', verdict))}${notes.length > 0 ? `  ${notes.join(', ')}` : ''}`;
}
