import type { RuleId } from '../contract/rules.ts';
import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { retainExchange } from '../client/retained.ts';
import { IN_SECOND_COMPANY, type CreatedResource, type Finding } from '../report/model.ts';
import { readCreatedId } from '../records/created-id.ts';
import { recordReadingFor } from '../records/record-reading.ts';
import { InternalError } from '../errors.ts';
import { unobserved, type Judgement } from './expectations.ts';
import type { Expectation } from './format.ts';
import type { LoadedScenario } from './loader.ts';
import type { ScenarioDeps } from './scenario-deps.ts';
import { render } from './template.ts';
import type { TemplateContext } from './template-context.ts';

const RESOURCE_KINDS: ReadonlyArray<[RegExp, CreatedResource['kind']]> = [
  [/^\/schedules\b/, 'schedule'],
  [/^\/users\b/, 'user'],
  [/^\/timesheets\b/, 'timesheet'],
  [/^\/breaks\b/, 'break'],
  [/^\/webhooks\b/, 'webhook'],
];

/**
 * One scenario being run: what it sent (its exchanges as its report keeps them, the last one
 * whole for the step that reads it), what it found, noted and captured. The steps, the pair and the
 * built-in checks all send and judge through it.
 */
export class ScenarioRun {
  readonly exchanges: Exchange[] = [];
  last: Exchange | undefined;
  readonly findings: Finding[] = [];
  readonly notes: string[] = [];
  /** Rules left out of the verdict: what they need was not there (ctx.notJudged). */
  readonly notJudged = new Set<RuleId>();
  readonly vars: Record<string, unknown> = {};
  /** Optional record fields the target showed, and the ones it did not (`if_present` expectations). */
  observedOptional = 0;
  readonly notShown: string[] = [];
  /** Whether the step running is the scenario's last (only then may a check release the run); whether it did. */
  lastStep = false;
  released = false;
  readonly defaultRule: RuleId;
  readonly #template: TemplateContext;

  constructor(
    readonly loaded: LoadedScenario,
    readonly deps: ScenarioDeps,
    readonly release?: () => void,
  ) {
    this.defaultRule = loaded.scenario.rules[0] as RuleId;
    this.#template = { ...deps.template, vars: this.vars };
  }

  /** Renders the templates of a value with the scenario's vars. */
  render(value: unknown): unknown {
    return render(value, this.#template);
  }

  /** Sends one request of the scenario; a resource it creates goes to the run's ledger. */
  async send(request: TargetRequest): Promise<Exchange> {
    if (this.released) throw new InternalError(`scenario ${this.loaded.id} sent ${request.method} ${request.path ?? request.url} after it released the run (doneSending)`);
    const exchange = await this.deps.send(request);
    this.exchanges.push(retainExchange(exchange));
    this.last = exchange;
    const path = request.path ?? '';
    // The webhook check's second company writes with its own token: its records are that company's.
    const company = request.auth === 'second-token' ? 'second' : 'first';
    if (request.method === 'POST' && exchange.response && exchange.response.status < 300) {
      const kind = RESOURCE_KINDS.find(([pattern]) => pattern.test(path))?.[1];
      const read = kind === undefined ? null : readCreatedId(exchange.response.json, this.deps.profile, kind === 'webhook' ? undefined : kind);
      // A company has one subscription (§4.5): made, whether or not its answer names an ID. An ID
      // that is no integer is kept as the target wrote it, or escaped when it holds a control
      // character (records/created-ids judges it).
      if (kind && read && (read.kind !== 'absent' || kind === 'webhook')) {
        const id = read.kind === 'id' ? String(read.id) : read.kind === 'absent' ? 'subscription' : ledgerId(read.value, read.shown);
        this.deps.onCreated({ kind, id, checkId: company === 'second' ? `${this.loaded.id}${IN_SECOND_COMPANY}` : this.loaded.id }, company);
      }
    }
    if (request.method === 'DELETE' && exchange.response && exchange.response.status >= 200 && exchange.response.status < 300) {
      const kind = RESOURCE_KINDS.find(([pattern]) => pattern.test(path))?.[1];
      if (kind) this.deps.onRemoved?.(kind, this.loaded.id, company);
    }
    return exchange;
  }

  /** Keeps an exchange the scenario did not send (a delivery the sink received), once; returns it as kept. */
  keep(exchange: Exchange): Exchange {
    const kept = retainExchange(exchange);
    if (!this.exchanges.some((e) => e.id === kept.id)) this.exchanges.push(kept);
    return kept;
  }

  /** Findings of the exchange's judgements, each once: two assertions on a field the answer lacks (its type, its value) are one finding, not two. */
  addJudgements(judgements: readonly Judgement[], exchange: Exchange): void {
    for (const j of judgements) {
      const repeated = this.findings.some((f) => f.ruleId === j.ruleId && f.expected === j.expected && f.actual === j.actual && f.exchangeIds.length === 1 && f.exchangeIds[0] === exchange.id);
      if (!repeated) this.findings.push({ ...j, exchangeIds: [exchange.id] });
    }
  }

  /** Counts the optional fields an expectation found, and names those the target did not show. */
  noteUnobserved(expectation: Expectation, exchange: Exchange): void {
    const { observed, missing } = unobserved(expectation, exchange, recordReadingFor(this.deps.profile, exchange.request.url));
    this.observedOptional += observed;
    this.notShown.push(...missing);
  }
}

/** A created record's ID that is no integer, as the ledger keeps it: as written when it is plain text, else escaped. */
function ledgerId(value: unknown, shown: string): string {
  return typeof value === 'string' && value.length <= 80 && !/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(value) ? value : shown;
}
