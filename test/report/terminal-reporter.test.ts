import { RULES } from '../../src/contract/rules.ts';
import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../src/report/terminal-reporter.ts';
import { sampleReport, sampleReportWithDelivery } from './sample-report.ts';

const paths = { json: 'reports/report.json', html: 'reports/report.html', junit: 'reports/junit.xml' };

describe('summaryTable', () => {
  const plain = summaryTable(sampleReport(), { color: false, paths });

  it('counts checks per status and the requests', () => {
    expect(plain).toContain('Checks    2 passed   2 failed   1 errored   1 skipped   1 waived');
    expect(plain).toContain('Requests  8 planned   7 made   0 unintended 429');
  });

  it('gives covered / total per spec section and overall', () => {
    expect(plain).toMatch(/§2\.1 Schedule +2 \/ 19/);
    expect(plain).toMatch(/§5 Authentication +0 \/ 4/);
    expect(plain).toMatch(new RegExp(`all sections +11 / ${RULES.length}`));
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
    expect(plain.trimEnd().split('\n').at(-1)).toBe('FAILED  2 failed, 1 errored, 1 waived, 1 skipped');
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
    expect(text).toContain('actual x]0;pwned[2J y');
  });
});
