import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/report/html-reporter.ts';
import { renderJsonReport } from '../../src/report/json-reporter.ts';
import { renderJunitReport } from '../../src/report/junit-reporter.ts';
import type { CheckResult, CheckStatus, RunReport } from '../../src/report/model.ts';
import { summaryTable } from '../../src/report/terminal-reporter.ts';
import { groupBySection, primarySection } from '../../src/report/_internals/spec-sections.ts';
import { sampleReport, sampleReportOf } from './sample-report.ts';
import { elementsNamed, parseXml } from './tiny-xml.ts';

/** What a reporter states of coverage: the number, the rules judged, and the checks that judged nothing. */
interface Stated {
  readonly covered: number;
  readonly total: number;
  readonly judged: readonly string[];
  /** `status | reason | count`, sorted. */
  readonly unjudged: readonly string[];
}

const key = (status: string, reason: string, count: number) => `${status} | ${reason} | ${count}`;

function fromJson(report: RunReport): Stated {
  const { summary } = JSON.parse(renderJsonReport(report)) as RunReport;
  return {
    covered: summary.rulesCovered,
    total: summary.rulesTotal,
    judged: [...summary.coveredRules].sort(),
    unjudged: summary.unjudged.map((g) => key(g.status, g.reason, g.checkIds.length)).sort(),
  };
}

/** The terminal's rows: `all sections  N / T`, each section's count with its judged or not judged rules, and the unjudged lists. */
function fromTerminal(report: RunReport): Stated {
  const text = summaryTable(report, { color: false });
  const [, covered, total] = /^ {2}all sections +(\d+) \/ (\d+)$/m.exec(text) ?? [];
  expect(text.trimEnd().split('\n').at(-1)).toContain(`${covered} of ${total} rules judged`);
  const judged: string[] = [];
  for (const group of groupBySection(report.coverage, (c) => primarySection(c.rule))) {
    const ids = group.items.map((c) => c.rule.id);
    const row = new RegExp(`^ {2}${group.label.replace(/[.()]/g, '\\$&')} +(\\d+) / \\d+\\n((?: {6}.*\\n)*)`, 'm').exec(text);
    const count = Number(row?.[1]);
    const named = (row?.[2] ?? '').replace(/\s+/g, ' ').trim();
    if (count === ids.length) judged.push(...ids);
    else if (named.startsWith('judged: ')) judged.push(...named.slice('judged: '.length).split(', '));
    else if (named.startsWith('not judged: ')) judged.push(...ids.filter((id) => !named.slice('not judged: '.length).split(', ').includes(id)));
  }
  const unjudged: string[] = [];
  const words: Record<string, CheckStatus> = { Errored: 'errored', 'Not run': 'not-run', Skipped: 'skipped' };
  for (const [heading, status] of Object.entries(words)) {
    const block = new RegExp(`^${heading} \\(\\d+\\)\\n((?: {2}.*\\n)*)`, 'm').exec(text)?.[1] ?? '';
    const lines = block.split('\n').filter((l) => l !== '');
    for (let i = 0; i < lines.length; i += 2) {
      const shared = /^ {2}\S (\d+) checks [a-z ]+: (.*)$/.exec(lines[i]!);
      const reason = shared ? (status === 'not-run' ? `not run: ${shared[2]}` : shared[2]!) : lines[i + 1]!.trim();
      unjudged.push(key(status, reason, shared ? Number(shared[1]) : 1));
    }
  }
  return { covered: Number(covered), total: Number(total), judged: judged.sort(), unjudged: unjudged.sort() };
}

function fromHtml(report: RunReport): Stated {
  const html = renderHtmlReport(report, { caFile: '/tmp/ca.pem' });
  const [, covered, total] = /data-testid="count-rules"><b>(\d+) of (\d+)<\/b> rules judged/.exec(html) ?? [];
  expect(html).toContain(`data-testid="coverage-count">(${covered} of ${total} rules judged)`);
  const judged = [...html.matchAll(/<tr id="rule-[^"]+" class="covered" data-rule-id="([^"]+)"/g)].map((m) => m[1]!);
  const unjudged = [...html.matchAll(/<li data-status="([^"]+)" data-check-ids="([^"]+)">.*?<span class="reason-text">(.*?)<\/span>/g)].map((m) =>
    key(m[1]!, m[3]!.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'), m[2]!.split(' ').length),
  );
  return { covered: Number(covered), total: Number(total), judged: judged.sort(), unjudged: unjudged.sort() };
}

function fromJunit(report: RunReport): Stated {
  const root = parseXml(renderJunitReport(report, { caFile: '/tmp/ca.pem' }));
  const property = (name: string) => new Set(elementsNamed(root, 'property').filter((p) => p.attributes.name === name).map((p) => p.attributes.value));
  const [stated] = [...property('clockcheck.rulesJudged')];
  const [, covered, total] = /^(\d+) of (\d+) rules judged$/.exec(stated ?? '') ?? [];
  const [ids] = [...property('clockcheck.rulesJudged.ids')];
  const groups = new Map<string, number>();
  for (const testcase of elementsNamed(root, 'testcase')) {
    const status = testcase.attributes.status!;
    if (status !== 'errored' && status !== 'skipped' && status !== 'not-run') continue;
    const reason = status === 'errored' ? elementsNamed(testcase, 'error')[0]!.attributes.message! : elementsNamed(testcase, 'skipped')[0]!.text;
    groups.set(`${status}\u0000${reason}`, (groups.get(`${status}\u0000${reason}`) ?? 0) + 1);
  }
  const unjudged = [...groups].map(([k, n]) => key(k.split('\u0000')[0]!, k.split('\u0000')[1]!, n));
  return { covered: Number(covered), total: Number(total), judged: (ids ?? '').split(' ').filter((id) => id !== '').sort(), unjudged: unjudged.sort() };
}

function notRun(base: CheckResult, id: string, reason: string, status: CheckStatus = 'not-run'): CheckResult {
  return { ...base, id, status, reason, findings: [], exchanges: [], durationMs: 0 };
}

/** The sample run, stopped by a revoked token: the check in progress errored, a dozen after it not run, two left out by a budget, three skipped for one fixture. */
function stoppedRun(): RunReport {
  const sample = sampleReport();
  const base = sample.checks[0]!;
  const revoked = 'the token was refused from exchange 61 on: it was revoked or expired during the run';
  return sampleReportOf([
    ...sample.checks,
    notRun({ ...base, rules: ['AUTH-TOKEN-VALID'] }, 'auth/in-progress', revoked, 'errored'),
    ...Array.from({ length: 12 }, (_, i) => notRun({ ...base, rules: ['USR-EMAIL-FORMAT'] }, `users/after-${i}`, `not run: ${revoked}`)),
    ...['a', 'b'].map((s) => notRun({ ...base, rules: ['PAG-WALK'] }, `pagination/${s}`, 'not run: budget (--within 6m): a full run sends it')),
    ...['x', 'y', 'z'].map((s) => notRun({ ...base, rules: ['BRK-IDS-FILTER'] }, `breaks/${s}`, 'needs fixtures.break_rule_id', 'skipped')),
  ]);
}

describe('one coverage number, in every report', () => {
  it('the terminal, report.json, report.html (badge and heading) and junit.xml state the same number and the same lists', () => {
    const report = stoppedRun();
    const json = fromJson(report);
    expect(json.covered).toBe(9);
    expect(json.judged).toHaveLength(9);
    expect(json.unjudged).toContain(key('not-run', 'not run: the token was refused from exchange 61 on: it was revoked or expired during the run', 12));
    expect(json.unjudged).toContain(key('skipped', 'needs fixtures.break_rule_id', 3));
    expect(fromTerminal(report)).toEqual(json);
    expect(fromHtml(report)).toEqual(json);
    expect(fromJunit(report)).toEqual(json);
  });

  it('an errored-only run covers no rule, in all four', () => {
    const base = sampleReport().checks[0]!;
    const report = sampleReportOf([
      notRun(base, 'auth/token-form', 'the target refused the token', 'errored'),
      ...['a', 'b', 'c'].map((s) => notRun(base, `users/${s}`, 'not run: the target refused the token')),
    ]);
    const json = fromJson(report);
    expect(json).toMatchObject({ covered: 0, judged: [] });
    expect(report.exitCode).toBe(3);
    for (const stated of [fromTerminal(report), fromHtml(report), fromJunit(report)]) expect(stated).toEqual(json);
  });

  it('the terminal names a reason many checks share once, with the count, so it is not buried', () => {
    const text = summaryTable(stoppedRun(), { color: false });
    expect(text).toContain('Not run (14)\n  - 12 checks not run: the token was refused from exchange 61 on: it was revoked or expired during the run\n      users/after-0, users/after-1, users/after-2, users/after-3, users/after-4, users/after-5 (+6 more in report.json)\n');
    expect(text).toContain('  ○ 3 checks skipped: needs fixtures.break_rule_id\n      breaks/x, breaks/y, breaks/z\n');
    expect(text).toContain('Errored (2)\n');
    expect(text.match(/the token was refused from exchange 61/g)).toHaveLength(2);
  });
});
