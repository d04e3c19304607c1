import { describe, expect, it } from 'vitest';
import { coverageOf } from '../../src/report/coverage.ts';
import type { CheckResult, CheckStatus, RunSummary } from '../../src/report/model.ts';
import { minRulesShortfall, runExitCode, runVerdict } from '../../src/report/run-verdict.ts';

function check(id: string, status: CheckStatus): CheckResult {
  const findings = status === 'failed' || status === 'waived' ? [{ ruleId: 'HEAD-PARITY' as const, expected: 'e', actual: 'a', exchangeIds: [] }] : [];
  return { id, title: id, rules: ['HEAD-PARITY', 'HEAD-SUPPORTED'], source: { kind: 'builtin', name: id }, status, findings, exchanges: [], durationMs: 0, replay: '' };
}

const summaryOf = (...statuses: CheckStatus[]): RunSummary => coverageOf(statuses.map((s, i) => check(`c${i}`, s))).summary;

describe('runExitCode', () => {
  it.each<[string, CheckStatus[], number]>([
    ['passed', ['passed'], 0],
    ['passed with skips, budget cuts and a waived failure', ['passed', 'skipped', 'not-run', 'waived'], 0],
    ['a rule failed, whatever errored', ['passed', 'failed', 'errored'], 1],
    ['no failure but a check errored', ['passed', 'errored', 'not-run'], 3],
    ['only errored checks', ['errored'], 3],
  ])('%s: exit %i', (_, statuses, code) => {
    expect(runExitCode({ summary: summaryOf(...statuses) })).toBe(code);
  });

  it('exits 3 when the target or the time limit stopped the run, even if every check it reached passed; 1 still wins', () => {
    expect(runExitCode({ summary: summaryOf('passed', 'passed'), stopped: true })).toBe(3);
    expect(runExitCode({ summary: summaryOf('passed', 'failed'), stopped: true })).toBe(1);
    expect(runExitCode({ summary: summaryOf('passed', 'passed'), stopped: false })).toBe(0);
  });

  it('exits 2 when the run could not be made, whatever the checks say', () => {
    expect(runExitCode({ summary: summaryOf('errored', 'not-run'), runError: 'the token was refused' })).toBe(2);
  });

  it('exits 1 when fewer rules were judged than --min-rules, though nothing failed or errored', () => {
    const summary = summaryOf('passed');
    expect(summary.rulesCovered).toBe(2);
    expect(runExitCode({ summary, minRules: 3 })).toBe(1);
    expect(runExitCode({ summary, minRules: 2 })).toBe(0);
    expect(runExitCode({ summary: summaryOf('passed', 'errored'), minRules: 3 })).toBe(1);
  });

  it('exits 130 for SIGINT and 143 for SIGTERM, before anything else', () => {
    const failed = summaryOf('failed');
    expect(runExitCode({ summary: failed, interruptedBy: 'SIGINT' })).toBe(130);
    expect(runExitCode({ summary: failed, interruptedBy: 'SIGTERM', runError: 'x' })).toBe(143);
  });
});

describe('runVerdict', () => {
  it('names the verdict each exit code stands for', () => {
    const verdict = (exitCode: 0 | 1 | 2 | 3 | 130 | 143, ...statuses: CheckStatus[]) => runVerdict({ exitCode, summary: summaryOf(...statuses) });
    expect(verdict(0, 'passed')).toBe('PASSED');
    expect(verdict(1, 'failed')).toBe('FAILED');
    expect(verdict(1, 'passed')).toBe('NOT JUDGED ENOUGH');
    expect(verdict(2, 'not-run')).toBe('NOT RUN');
    expect(verdict(3, 'errored')).toBe('ERRORED');
    expect(verdict(130, 'passed')).toBe('INTERRUPTED');
    expect(verdict(143, 'passed')).toBe('INTERRUPTED');
  });
});

describe('minRulesShortfall', () => {
  it('says how many rules were judged and what --min-rules asked, only when too few', () => {
    expect(minRulesShortfall(summaryOf('passed'), 60)).toBe('judged 2 rules, fewer than --min-rules 60');
    expect(minRulesShortfall(summaryOf('failed'), 60)).toBe('judged 2 rules, fewer than --min-rules 60');
    expect(minRulesShortfall(summaryOf('errored'), 1)).toBe('judged 0 rules, fewer than --min-rules 1');
    expect(minRulesShortfall(summaryOf('passed'), 2)).toBeNull();
    expect(minRulesShortfall(summaryOf('passed'), undefined)).toBeNull();
  });
});
