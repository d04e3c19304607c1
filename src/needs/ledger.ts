import type { CreatedResource, RecordCompany as LedgerCompany } from '../report/model.ts';

/**
 * The records a run created on the target, in the order it created them, and what it removed. The
 * spec has no delete for users, timesheets or breaks, so most of them stay: the report lists them
 * (`createdResources`) and the terminal says what was left. A company has one webhook subscription
 * (§4.5), which unsubscribe removes: the ledger knows whether the run left one.
 */
export class Ledger {
  readonly #created: CreatedResource[] = [];
  /** Each company's last webhook write in the run: a subscribe (it left a subscription) or an unsubscribe. */
  readonly #lastWebhookWrite = new Map<LedgerCompany, 'subscribed' | 'unsubscribed'>();

  /** A record the run created, in the first company or, with the second company's token, in the second. */
  add(resource: CreatedResource, company: LedgerCompany = 'first'): void {
    this.#created.push(resource);
    if (resource.kind === 'webhook') this.#lastWebhookWrite.set(company, 'subscribed');
  }

  /** A DELETE the target answered 2xx removed a record of this kind, in that company. */
  remove(kind: CreatedResource['kind'], company: LedgerCompany = 'first'): void {
    if (kind === 'webhook') this.#lastWebhookWrite.set(company, 'unsubscribed');
  }

  /** The companies whose subscription the run made and has not unsubscribed since, the first first. */
  get leftSubscriptions(): readonly LedgerCompany[] {
    return (['first', 'second'] as const).filter((company) => this.#lastWebhookWrite.get(company) === 'subscribed');
  }

  get created(): readonly CreatedResource[] {
    return this.#created;
  }

  /** The run subscribed and has not unsubscribed since: the subscription it made is still there. */
  get leftSubscription(): boolean {
    return this.leftSubscriptions.length > 0;
  }
}
