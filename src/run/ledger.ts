import type { CreatedResource } from '../report/model.ts';

/**
 * The records a run created on the target, in the order it created them. The spec has no delete
 * for users, timesheets or breaks, so most of them stay: the report lists them (`createdResources`)
 * and the terminal says what was left.
 */
export class Ledger {
  readonly #created: CreatedResource[] = [];

  add(resource: CreatedResource): void {
    this.#created.push(resource);
  }

  get created(): readonly CreatedResource[] {
    return this.#created;
  }
}
