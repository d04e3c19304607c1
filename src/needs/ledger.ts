import type { CreatedResource } from '../report/model.ts';

/**
 * The records a run created on the target, in the order it created them, and what it removed. The
 * spec has no delete for users, timesheets or breaks, so most of them stay: the report lists them
 * (`createdResources`) and the terminal says what was left. A company has one webhook subscription
 * (§4.5), which unsubscribe removes: the ledger knows whether the run left one.
 */
export class Ledger {
  readonly #created: CreatedResource[] = [];
  /** The run's last webhook write: a subscribe (it left a subscription) or an unsubscribe. */
  #lastWebhookWrite: 'subscribed' | 'unsubscribed' | null = null;

  add(resource: CreatedResource): void {
    this.#created.push(resource);
    if (resource.kind === 'webhook') this.#lastWebhookWrite = 'subscribed';
  }

  /** A DELETE the target answered 2xx removed a record of this kind. */
  remove(kind: CreatedResource['kind']): void {
    if (kind === 'webhook') this.#lastWebhookWrite = 'unsubscribed';
  }

  get created(): readonly CreatedResource[] {
    return this.#created;
  }

  /** The run subscribed and has not unsubscribed since: the subscription it made is still there. */
  get leftSubscription(): boolean {
    return this.#lastWebhookWrite === 'subscribed';
  }
}
