import type { CheckResult, Finding } from '../report/model.ts';
import type { RuleId } from '../contract/rules.ts';
import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';

/**
 * Collects what one rate-limit check saw and concluded, and turns it into a CheckResult. The
 * checks are built in (`source.kind: builtin`), not scenarios: their schedule is timed, not stepwise.
 */
export class CheckOutcome {
  readonly #exchanges = new Map<number, Exchange>();
  readonly #findings: Finding[] = [];
  readonly #notes: string[] = [];
  readonly #started = performance.now();

  constructor(
    readonly id: string,
    readonly title: string,
    readonly rules: readonly RuleId[],
    readonly replay: string,
  ) {}

  /**
   * Keeps exchanges as evidence of this check (each once), as a report keeps them (retained.ts): a
   * whole page judged under load lives only while its judge reads it.
   */
  keep(exchanges: Iterable<Exchange>): void {
    for (const exchange of exchanges) this.#exchanges.set(exchange.id, retainExchange(exchange));
  }

  /** The exchanges kept so far, in the order they were kept. */
  kept(): Exchange[] {
    return [...this.#exchanges.values()];
  }

  fail(ruleId: RuleId, expected: string, actual: string, evidence: readonly Exchange[] = []): void {
    this.keep(evidence);
    this.#findings.push({ ruleId, expected, actual, exchangeIds: evidence.map((e) => e.id) });
  }

  /** An observation shown with the result (a header value, a timing): not a verdict. */
  note(text: string): void {
    this.#notes.push(text);
  }

  get failed(): boolean {
    return this.#findings.length > 0;
  }

  /** passed or failed, from the findings. */
  result(): CheckResult {
    return this.#build(this.#findings.length > 0 ? 'failed' : 'passed');
  }

  /** No verdict could be reached (the target was too slow for the window, a transport error). */
  errored(reason: string): CheckResult {
    return this.#build('errored', reason);
  }

  skipped(reason: string): CheckResult {
    return this.#build('skipped', reason);
  }

  #build(status: CheckResult['status'], reason?: string): CheckResult {
    const exchanges = [...this.#exchanges.values()].sort((a, b) => a.id - b.id);
    return {
      id: this.id,
      title: this.title,
      rules: this.rules,
      source: { kind: 'builtin', name: this.id },
      status,
      findings: status === 'failed' ? this.#findings : [],
      ...(reason === undefined ? {} : { reason }),
      ...(this.#notes.length > 0 ? { notes: this.#notes } : {}),
      exchanges,
      durationMs: Math.round(performance.now() - this.#started),
      replay: this.replay,
    };
  }
}
