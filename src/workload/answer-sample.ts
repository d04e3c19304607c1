import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import type { RuleId } from '../contract/rules.ts';
import { exchangeJudgements } from '../grade/exchange-judges.ts';
import type { GradeReading } from '../grade/request-judges.ts';
import { observeExchange } from '../grade/traffic.ts';
import type { Finding } from '../report/model.ts';
import type { WorkloadOperationName } from './workload-operations.ts';

/** By default one answer in this many is judged (and every answer that is not 2xx). */
export const DEFAULT_SAMPLE_EVERY = 20;
/** Findings each rule keeps (the first ones), and the exchanges they cite. */
const KEPT_FINDINGS = 5;

/** What the sample showed of one rule on one operation. */
export interface SampledRule {
  readonly rule: RuleId;
  readonly operation: WorkloadOperationName;
  readonly held: number;
  readonly broken: number;
  /** The first findings, each citing its exchange (in `exchanges`). */
  readonly findings: readonly Finding[];
}

/** What the judging of sampled answers reports. */
export interface SampleReport {
  /** One answer in `every` per operation, and every answer that is not 2xx; 0: none judged. */
  readonly every: number;
  /** Answers judged, per operation and in all. */
  readonly judged: number;
  readonly judgedBy: Readonly<Partial<Record<WorkloadOperationName, number>>>;
  readonly rules: readonly SampledRule[];
  /** The exchanges the findings cite, redacted and cut as a run's report keeps them. */
  readonly exchanges: readonly Exchange[];
}

/**
 * Judges a sample of a workload's answers by the rules `grade` judges an exchange by alone (§2.4's
 * break shapes and formats, §2.5's pagination block against its own items, a created record's ID,
 * the JSON, the statuses a valid request may get), each reported with its rule ID and operation. Walks
 * across pages are not judged: while records are inserted, pages may legitimately shift. Deterministic:
 * per operation the 1st, (every+1)th, … answer, and every answer that is not 2xx.
 */
export class AnswerSample {
  readonly #every: number;
  readonly #reading: GradeReading;
  readonly #apiPrefix: string;
  readonly #seen = new Map<WorkloadOperationName, number>();
  readonly #judgedBy = new Map<WorkloadOperationName, number>();
  readonly #rules = new Map<string, { rule: RuleId; operation: WorkloadOperationName; held: number; broken: number; findings: Finding[] }>();
  readonly #exchanges = new Map<number, Exchange>();
  #judged = 0;

  constructor(reading: GradeReading, apiPrefix: string, every = DEFAULT_SAMPLE_EVERY) {
    this.#reading = reading;
    this.#apiPrefix = apiPrefix;
    this.#every = every;
  }

  observe(operation: WorkloadOperationName, exchange: Exchange): void {
    if (this.#every <= 0) return;
    const n = this.#seen.get(operation) ?? 0;
    this.#seen.set(operation, n + 1);
    const status = exchange.response?.status ?? 0;
    if (n % this.#every !== 0 && status >= 200 && status < 300) return;
    const observed = observeExchange(exchange, this.#apiPrefix);
    if (observed === null) return;
    this.#judged++;
    this.#judgedBy.set(operation, (this.#judgedBy.get(operation) ?? 0) + 1);
    for (const j of exchangeJudgements(observed, this.#reading)) {
      const key = `${j.ruleId} ${operation}`;
      let tally = this.#rules.get(key);
      if (!tally) this.#rules.set(key, (tally = { rule: j.ruleId, operation, held: 0, broken: 0, findings: [] }));
      if (j.ok) {
        tally.held++;
        continue;
      }
      tally.broken++;
      if (tally.findings.length < KEPT_FINDINGS) {
        tally.findings.push({ ruleId: j.ruleId, expected: j.expected, actual: j.actual, exchangeIds: [...j.exchangeIds] });
        this.#exchanges.set(exchange.id, retainExchange(exchange));
      }
    }
  }

  report(): SampleReport {
    const rules = [...this.#rules.values()].sort((a, b) => b.broken - a.broken || a.rule.localeCompare(b.rule) || a.operation.localeCompare(b.operation));
    return {
      every: this.#every,
      judged: this.#judged,
      judgedBy: Object.fromEntries(this.#judgedBy),
      rules,
      exchanges: [...this.#exchanges.values()].sort((a, b) => a.id - b.id),
    };
  }
}
