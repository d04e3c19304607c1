import { RULES } from '../../src/contract/rules.ts';
import { describe, expect, it } from 'vitest';
import { summaryTable, verdictSummary } from '../../src/report/terminal-reporter.ts';
import { primarySection } from '../../src/report/_internals/spec-sections.ts';
import { sampleReport, sampleReportOf, sampleReportWithDelivery } from './sample-report.ts';

const paths = { json: 'reports/report.json', html: 'reports/report.html', junit: 'reports/junit.xml' };

describe('summaryTable', () => {
  const plain = summaryTable(sampleReport(), { color: false, paths });

  it('counts checks per status and the requests', () => {
    expect(plain).toContain('Checks    2 passed   2 failed   1 errored   1 skipped   0 not run   1 waived');
    expect(plain).toContain('Requests  8 planned   7 made   0 unintended 429');
  });

  it('gives rules judged / total per spec section and overall, naming the judged rules of a partly judged section', () => {
    expect(plain).toMatch(/§2\.1 Schedule +2 \/ 19\n {6}judged: SCH-DATE-FORMAT, SCH-TIMES-UNLESS-ALL-DAY\n/);
    expect(plain).toMatch(/§5 Authentication +0 \/ 4\n {2}§/);
    // The errored BRK-IDS-FILTER and the skipped WH-UNSUBSCRIBE judged nothing.
    expect(plain).toMatch(/§2\.4 Break +0 \/ 5/);
    expect(plain).toMatch(new RegExp(`all sections +9 / ${RULES.length}`));
  });

  it('names the rules not judged instead when they are fewer', () => {
    const report = sampleReport();
    const breaks = report.coverage.filter((c) => primarySection(c.rule) === '2.4');
    expect(breaks.length).toBeGreaterThan(2);
    const checks = [...report.checks, ...breaks.slice(1).map((c, i) => ({ ...report.checks[0]!, id: `breaks/${i}`, rules: [c.rule.id as never] }))];
    const text = summaryTable(sampleReportOf(checks), { color: false });
    expect(text).toMatch(new RegExp(`§2\\.4 Break +${breaks.length - 1} / ${breaks.length}\\n {6}not judged: ${breaks[0]!.rule.id}\\n`));
  });

  it('lists failed checks with their rule and expected vs actual on one line, without control characters', () => {
    expect(plain).toContain('✗ schedules/date-format-rejects-feb-30');
    expect(plain).toContain('      ERR-VALIDATION-STATUS  expected a 4xx other than 429; actual 201');
    expect(plain).toContain('! breaks/list-by-ids');
    expect(plain).toContain('waived: HEAD is answered by the load balancer');
    expect(plain).not.toMatch(/[\u0000-\u0009\u000B-\u001F]/);
  });

  it('lists a check shown by a webhook delivery the sink received by its finding, with no curl or replay of the delivery', () => {
    const text = summaryTable(sampleReportWithDelivery(), { color: false });
    expect(text).toContain('✗ webhooks/notifications-stop');
    expect(text).toContain('      WH-NOTIFICATIONS-STOP  expected no notification after unsubscribe; actual user_updated for user 3 delivered after unsubscribe');
    expect(text).not.toContain('curl');
    expect(text).not.toContain('127.0.0.1:9411');
  });

  it('ends with the report paths and the verdict', () => {
    expect(plain).toContain('  HTML   reports/report.html');
    expect(plain.trimEnd().split('\n').at(-1)).toBe(`FAILED  9 of ${RULES.length} rules judged; 2 failed, 1 errored, 1 waived, 1 skipped`);
  });

  it('says ERRORED when nothing failed but a check errored, and NOT JUDGED ENOUGH when fewer rules were judged than --min-rules', () => {
    const noFailure = sampleReport().checks.filter((c) => c.status !== 'failed');
    const errored = sampleReportOf(noFailure);
    expect(errored.exitCode).toBe(3);
    expect(verdictSummary(errored, { color: false })).toBe(`ERRORED  5 of ${RULES.length} rules judged; 1 errored, 1 waived, 1 skipped\n`);
    const tooFew = sampleReportOf(noFailure.filter((c) => c.status !== 'errored'), { minRules: 60 });
    expect(tooFew.exitCode).toBe(1);
    expect(verdictSummary(tooFew, { color: false })).toBe(`NOT JUDGED ENOUGH  5 of ${RULES.length} rules judged, fewer than --min-rules 60; 1 waived, 1 skipped\n`);
    const passed = sampleReportOf(noFailure.filter((c) => c.status === 'passed'));
    expect(verdictSummary(passed, { color: false })).toBe(`PASSED  3 of ${RULES.length} rules judged\n`);
  });

  it('says NOT RUN when the run could not be made, and that an interrupted run was interrupted', () => {
    const report = sampleReport();
    expect(verdictSummary({ ...report, runError: 'nothing listens', exitCode: 2 }, { color: false })).toMatch(/^NOT RUN  9 of \d+ rules judged; /);
    expect(verdictSummary({ ...report, status: 'interrupted', exitCode: 130 }, { color: false })).toMatch(/^INTERRUPTED  9 of \d+ rules judged; .*; the run was interrupted\n$/);
  });

  it('colours only when asked', () => {
    expect(plain).not.toContain('\u001B[');
    const coloured = summaryTable(sampleReport(), { color: true });
    expect(coloured).toContain('\u001B[31m2 failed\u001B[0m');
    expect(coloured).not.toContain('Reports');
  });

  it('strips escape sequences a target put into an actual', () => {
    const report = sampleReport();
    const checks = report.checks.map((c) =>
      c.status === 'failed' ? { ...c, findings: c.findings.map((f) => ({ ...f, actual: 'x\u001B]0;pwned\u0007\u001B[2J y' })) } : c,
    );
    const text = summaryTable({ ...report, checks }, { color: false });
    expect(text).not.toContain('\u001B');
    expect(text).toContain('actual x y'); // the sequences removed whole, not left as text
  });
});

describe('terminalSafe', () => {
  it('removes escape sequences whole and drops every other control character, so text from the target cannot drive the terminal', async () => {
    const { terminalSafe } = await import('../../src/report/terminal-text.ts');
    const hostile = 'denied\u001b[31m red \u001b[2J\u001b]0;pwned\u0007 \u009b1;1H bell\u0007 nul\u0000 tab\tnew\r\nline\u001bc';
    expect(terminalSafe(hostile)).toBe('denied red bell nul tab new line'); // an OSC's payload (a window title) goes with it
    expect(terminalSafe(hostile)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });
});
