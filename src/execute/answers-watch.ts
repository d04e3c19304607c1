import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import type { RuleId } from '../contract/rules.ts';
import { EVERY_ANSWER_CHECK_ID, EVERY_ANSWER_RULES } from '../records/every-answer-check.ts';
import { answerJudgements } from '../grade/exchange-judges.ts';
import { observeExchange } from '../grade/traffic.ts';
import type { Profile } from '../profile/profile.ts';
import type { CheckResult, Finding } from '../report/model.ts';

const TITLE = 'every answer of a documented operation, whichever check asked, judged by the rules an answer shows alone (record shapes and formats, a break\'s duration against its start and end, a pagination block against its own items, sorted and filtered pages, content types)';
/** Causes a failed check lists at most (one per rule and operation), and the exchanges each cites. */
const MAX_FINDINGS = 20;
const EXCHANGES_PER_FINDING = 3;

interface Group {
  readonly rule: RuleId;
  readonly expected: string;
  readonly actual: string;
  readonly exchanges: Exchange[];
  count: number;
}

/**
 * Watches every exchange of a run (RunTransport.tap) over HTTPS to a documented operation and
 * judges its answer with grade's answer judges as it arrives (nothing but the tallies and a few
 * failing exchanges is kept): a wrong value anywhere fails its rule with that exchange as
 * evidence, whichever check's data it was. Equal findings (the same rule on the same operation) are
 * one, with their count and first exchanges. CPU only: no request of its own.
 */
export class AnswersWatch {
  readonly #reading;
  readonly #apiPrefix: string;
  readonly #held = new Map<RuleId, number>();
  readonly #broken = new Map<string, Group>();
  #answers = 0;

  constructor(profile: Profile) {
    this.#reading = { profile, given: true };
    this.#apiPrefix = profile.api_prefix;
  }

  observe(exchange: Exchange): void {
    // An answer that did not complete (a reset, a stall, a deadline) shows nothing of these rules: the check that asked reports it errored.
    if (exchange.response === undefined || exchange.error !== undefined || !exchange.request.url.startsWith('https:')) return;
    const seen = observeExchange(exchange, this.#apiPrefix);
    if (seen === null || seen.operation === undefined) return;
    // A body past the bounds of the run's JSON parser (nested too deep, too many values) is the checks' JSON-RESPONSE finding: not judged again here.
    if (exchange.response.jsonProblem !== undefined) return;
    this.#answers++;
    for (const j of answerJudgements(seen, this.#reading)) {
      if (j.ok) {
        this.#held.set(j.ruleId, (this.#held.get(j.ruleId) ?? 0) + 1);
        continue;
      }
      const key = `${j.ruleId} ${seen.operation.operationId}`;
      const group = this.#broken.get(key) ?? (this.#broken.size < MAX_FINDINGS ? { rule: j.ruleId, expected: j.expected, actual: j.actual, exchanges: [], count: 0 } : undefined);
      if (group === undefined) continue;
      this.#broken.set(key, group);
      group.count++;
      if (group.exchanges.length < EXCHANGES_PER_FINDING && !group.exchanges.some((e) => e.id === exchange.id)) group.exchanges.push(retainExchange(exchange));
    }
  }

  /** The check's result: the rules some answer showed, failed where one broke them. */
  check(replay: string): CheckResult {
    const groups = [...this.#broken.values()];
    const rules = EVERY_ANSWER_RULES.filter((r) => this.#held.has(r) || groups.some((g) => g.rule === r));
    const base = { id: EVERY_ANSWER_CHECK_ID, title: TITLE, rules, source: { kind: 'builtin' as const, name: EVERY_ANSWER_CHECK_ID }, replay, durationMs: 0 };
    if (rules.length === 0) return { ...base, rules: [...EVERY_ANSWER_RULES], status: 'skipped', reason: 'no answer of a documented operation showed a rule to judge', findings: [], exchanges: [] };
    const verdicts = [...this.#held.values()].reduce((a, b) => a + b, 0) + groups.reduce((n, g) => n + g.count, 0);
    const summary = `${this.#answers} answer${this.#answers === 1 ? '' : 's'} judged, ${verdicts} verdict${verdicts === 1 ? '' : 's'} on ${rules.length} rule${rules.length === 1 ? '' : 's'}`;
    if (groups.length === 0) return { ...base, status: 'passed', reason: summary, findings: [], exchanges: [] };
    const findings: Finding[] = groups.map((g) => ({
      ruleId: g.rule,
      expected: g.expected,
      actual: `${g.actual}${g.count > 1 ? `; ${g.count} answers like it` : ''}`,
      exchangeIds: g.exchanges.map((e) => e.id),
    }));
    return { ...base, status: 'failed', reason: `${summary}: ${groups.reduce((n, g) => n + g.count, 0)} broke one`, findings, exchanges: groups.flatMap((g) => g.exchanges) };
  }
}
