import { describe, expect, it } from 'vitest';
import { renderJunitReport } from '../../src/report/junit-reporter.ts';
import type { RunReport } from '../../src/report/model.ts';
import { RULES } from '../../src/contract/rules.ts';
import { HOSTILE_TITLE, sampleReport, sampleReportOf, sampleReportWithDelivery } from './sample-report.ts';
import { elementsNamed, parseXml, type XmlElement } from './tiny-xml.ts';

function junitOf(report: RunReport): XmlElement {
  return parseXml(renderJunitReport(report, { caFile: '/tmp/ca.pem' }));
}

function testcase(root: XmlElement, checkId: string): XmlElement {
  const found = elementsNamed(root, 'testcase').find((t) => t.attributes.name?.startsWith(`${checkId}: `));
  if (!found) throw new Error(`no testcase for ${checkId}`);
  return found;
}

describe('junit.xml', () => {
  it('is well-formed XML whose totals match the checks', () => {
    const root = junitOf(sampleReport());
    expect(root.name).toBe('testsuites');
    expect(root.attributes).toMatchObject({ tests: '7', failures: '2', errors: '1' });
    // Jenkins' JUnit schema allows skipped per testsuite, not on the root.
    expect(root.attributes.skipped).toBeUndefined();
    expect(elementsNamed(root, 'testsuite').reduce((sum, s) => sum + Number(s.attributes.skipped), 0)).toBe(2);
    expect(elementsNamed(root, 'testcase')).toHaveLength(7);
    expect(elementsNamed(root, 'failure')).toHaveLength(2);
    expect(elementsNamed(root, 'error')).toHaveLength(1);
    expect(elementsNamed(root, 'skipped')).toHaveLength(2);
  });

  it('has one testsuite per spec section, in spec order, each with its own counts', () => {
    const suites = elementsNamed(junitOf(sampleReport()), 'testsuite');
    expect(suites.map((s) => s.attributes.name)).toEqual(['§1 What the service does', '§2.1 Schedule', '§4.2 Users', '§4.3 Timesheets', '§4.4 Breaks', '§4.5 Webhooks', '§7 Errors']);
    for (const suite of suites) {
      const cases = elementsNamed(suite, 'testcase');
      expect(suite.attributes.tests).toBe(String(cases.length));
      expect(suite.attributes.failures).toBe(String(elementsNamed(suite, 'failure').length));
    }
  });

  it('names a testcase by check ID and title, with the scenario file or the rule family as classname', () => {
    const root = junitOf(sampleReport());
    expect(testcase(root, 'schedules/date-format-rejects-feb-30').attributes).toMatchObject({
      classname: 'suites/schedules.yaml',
      name: 'schedules/date-format-rejects-feb-30: A start_date of 02/30/2026 is rejected',
      time: '0.057',
    });
    // No file/line attributes (Jenkins' schema forbids them): the failure names the scenario's line.
    expect(testcase(root, 'schedules/date-format-rejects-feb-30').attributes.file).toBeUndefined();
    expect(elementsNamed(testcase(root, 'schedules/date-format-rejects-feb-30'), 'failure')[0]?.text).toContain('Scenario: suites/schedules.yaml:42');
    expect(testcase(root, 'timesheets/offset-matches-zone').attributes.classname).toBe('offset-timezone');
  });

  it('puts expected, actual, the curl command and the replay command in a failure, the hostile text intact', () => {
    const failure = elementsNamed(testcase(junitOf(sampleReport()), 'schedules/date-format-rejects-feb-30'), 'failure')[0];
    expect(failure?.attributes.type).toBe('SCH-DATE-FORMAT');
    expect(failure?.attributes.message).toContain('expected a 4xx other than 429');
    expect(failure?.attributes.message).toContain(HOSTILE_TITLE);
    expect(failure?.text).toContain(`actual:   201 Created; the schedule was stored as id 102 with title ${HOSTILE_TITLE}`);
    expect(failure?.text).toContain("curl -sS -i --cacert '/tmp/ca.pem'");
    expect(failure?.text).toContain('"authorization: $CLOCKCHECK_TOKEN"');
    expect(failure?.text).toContain('--only schedules/date-format-rejects-feb-30');
  });

  it('marks a webhook delivery the sink received as received, without a curl command', () => {
    const failure = elementsNamed(testcase(junitOf(sampleReportWithDelivery()), 'webhooks/notifications-stop'), 'failure')[0];
    expect(failure?.text).toContain('  exchange: #9');
    expect(failure?.text).toContain("Exchange #9 received: POST http://127.0.0.1:9411/hook from the target -> sink's answer: HTTP 200");
    expect(failure?.text).not.toContain('Reproduce with');
    expect(failure?.text).not.toContain('curl');
    expect(failure?.text).toContain('--only webhooks/notifications-stop');
  });

  it('reports an errored check as <error> with its reason and a skipped or waived one as <skipped> with the reason as its text', () => {
    const root = junitOf(sampleReport());
    const error = elementsNamed(testcase(root, 'breaks/list-by-ids'), 'error')[0];
    expect(error?.attributes.message).toContain('CONNECTION_RESET');
    expect(error?.text).toContain("-X GET --cacert '/tmp/ca.pem'");
    expect(elementsNamed(testcase(root, 'webhooks/unsubscribe-removes-subscription'), 'skipped')[0]?.text).toBe(
      'read-only run: this check deletes the webhook subscription',
    );
    expect(elementsNamed(testcase(root, 'transport/head-parity-users'), 'skipped')[0]?.text).toBe(
      'waived (HEAD-PARITY): HEAD is answered by the load balancer, not the API (ticket OPS-311)',
    );
  });

  it('reports a not-run check as <skipped> with its cause as the text, and gives every testcase its status', () => {
    const report = sampleReport();
    const cut = { ...report.checks[0]!, id: 'schedules/cut', status: 'not-run' as const, reason: 'not run: budget (--within 6m): a full run sends it', findings: [], exchanges: [] };
    const root = junitOf(sampleReportOf([...report.checks, cut]));
    expect(testcase(root, 'schedules/cut').attributes.status).toBe('not-run');
    expect(elementsNamed(testcase(root, 'schedules/cut'), 'skipped')[0]?.text).toBe('not run: budget (--within 6m): a full run sends it');
    expect(testcase(root, 'breaks/list-by-ids').attributes.status).toBe('errored');
    expect(testcase(root, 'transport/head-parity-users').attributes.status).toBe('waived');
    expect(elementsNamed(root, 'testsuite').reduce((sum, suite) => sum + Number(suite.attributes.skipped), 0)).toBe(3);
  });

  it("carries the run's status, verdict, exit code and rules judged in every suite's properties", () => {
    const root = junitOf(sampleReportOf(sampleReport().checks, { minRules: 60 }));
    for (const suite of elementsNamed(root, 'testsuite')) {
      const properties = Object.fromEntries(elementsNamed(suite, 'property').map((p) => [p.attributes.name, p.attributes.value]));
      expect(properties).toMatchObject({ 'clockcheck.status': 'complete', 'clockcheck.verdict': 'FAILED', 'clockcheck.exitCode': '1', 'clockcheck.rulesJudged': `9 of ${RULES.length} rules judged`, 'clockcheck.minRules': '60' });
      expect(properties['clockcheck.rulesJudged.ids']?.split(' ')).toHaveLength(9);
    }
    expect(elementsNamed(root, 'system-out').filter((o) => o.text.includes('interrupted'))).toEqual([]);
  });

  it('says in each suite that an interrupted run was interrupted', () => {
    const report: RunReport = { ...sampleReport(), status: 'interrupted', exitCode: 130 };
    const root = junitOf(report);
    for (const suite of elementsNamed(root, 'testsuite')) {
      const out = suite.children.find((c) => c.name === 'system-out');
      expect(out?.text).toBe(`The run was interrupted (exit 130): the checks it did not get to are not-run (<skipped>); 9 of ${RULES.length} rules judged.`);
      expect(elementsNamed(suite, 'property').find((p) => p.attributes.name === 'clockcheck.status')?.attributes.value).toBe('interrupted');
    }
  });

  it('escapes control characters, quotes, newlines and CR so the text survives parsing', () => {
    const report = sampleReport();
    const nasty = 'bell\u0007 esc\u001B[31m nul\u0000 "quoted" <tag> & \'apos\'\r\nnext\tline \uFFFF lone\uD800';
    const checks = report.checks.map((c) => (c.status === 'skipped' ? { ...c, reason: nasty } : c));
    const skipped = elementsNamed(junitOf({ ...report, checks }), 'skipped').find((s) => s.text.startsWith('bell'));
    expect(skipped?.text).toBe('bell\\u0007 esc\\u001B[31m nul\\u0000 "quoted" <tag> & \'apos\'\r\nnext\tline \\uFFFF lone\\uD800');
  });
});

describe('the tiny XML parser these tests rely on', () => {
  it('rejects what is not well-formed', () => {
    expect(() => parseXml('<a>x < y</a>')).toThrow();
    expect(() => parseXml('<a>AT&T</a>')).toThrow();
    expect(() => parseXml('<a b="1" b="2"/>')).toThrow();
    expect(() => parseXml('<a><b></a></b>')).toThrow();
    expect(() => parseXml('<a>\u0007</a>')).toThrow();
    expect(() => parseXml('<a/><b/>')).toThrow();
    expect(parseXml('<?xml version="1.0"?><a x="&lt;&#10;">t&amp;<b/></a>')).toMatchObject({ name: 'a', attributes: { x: '<\n' }, text: 't&' });
  });
});
