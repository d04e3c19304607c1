import type { RuleId } from '../contract/rules.ts';
import type { ApiResponse } from './http/api-response.ts';
import type { CompanyId } from './companies/company.ts';

/**
 * Faults of the reference server that show only under concurrent load: a certification (one call at
 * a time, paced) never meets them, so they are not in the selftest's catalog (faults.ts);
 * `clockcheck load --workload` with enough in flight shows each, under its operation and rule.
 */
export interface LoadFault {
  readonly name: string;
  /** The rule it breaks; null for one no rule of the spec covers (latency). */
  readonly rule: RuleId | null;
  /** Where a workload run shows it. */
  readonly shows: string;
  readonly description: string;
}

/** Connections with a request in the last BUSY_WINDOW_MS (this one's included) from which the server counts as busy. */
export const BUSY_CONNECTIONS = 3;
export const BUSY_WINDOW_MS = 100;
/** Under load-slow-timesheets: what each other busy connection adds to POST /timesheets, ms. */
export const SLOW_MS_PER_REQUEST = 100;

/**
 * How concurrent the load on the server is: the connections that sent a request in the last
 * BUSY_WINDOW_MS. A single-threaded server handles one request at a time, so "in flight" says
 * little; clients that keep several connections busy at once is what concurrent load is. A
 * certification sends its paced checks one at a time, on one connection mostly.
 */
export class Concurrency {
  readonly #seen = new Map<object, number>();

  /** Notes a request on `connection` at `now`; returns the connections busy now, this one included. */
  note(connection: object, now: number): number {
    this.#seen.set(connection, now);
    for (const [c, at] of this.#seen) if (now - at > BUSY_WINDOW_MS) this.#seen.delete(c);
    return this.#seen.size;
  }
}

const loadFault = <const N extends string>(name: N, rule: RuleId | null, shows: string, description: string): LoadFault & { readonly name: N } => ({ name, rule, shows, description });

export const LOAD_FAULTS = [
  loadFault('load-drops-writes', 'STORE-CREATE', 'the read-back after the load: writes not found', `While busy (requests on ${BUSY_CONNECTIONS} or more connections within ${BUSY_WINDOW_MS} ms), every second create of a user, timesheet or break answers 2xx with its ID and is not stored.`),
  loadFault('load-duplicates-writes', 'STORE-CREATE', 'the read-back after the load: a user listed twice', 'While busy, every second create of a user is stored twice: a second user with the same fields under another ID.'),
  loadFault('load-wrong-page', 'PAG-BLOCK-CONSISTENT', 'the sampled answers of the lists', 'While busy, a list page of two or more items is served without its last item, its pagination block unchanged.'),
  loadFault('load-slow-timesheets', null, "POST /timesheets' latency (an --ensure on it)", `POST /timesheets answers ${SLOW_MS_PER_REQUEST} ms later for each other busy connection: its latency grows with the load; no other operation slows.`),
] as const satisfies readonly LoadFault[];

export type LoadFaultName = (typeof LOAD_FAULTS)[number]['name'];

export function isLoadFaultName(name: string): name is LoadFaultName {
  return LOAD_FAULTS.some((f) => f.name === name);
}

/** What the load faults need of the server: which are on, and the (shared) stores a create went to. */
export interface LoadFaultState {
  fault(name: LoadFaultName): boolean;
  readonly stores: Readonly<Record<'users' | 'timesheets' | 'breaks', { get(id: number): object | undefined; ownerOf(id: number): CompanyId | undefined; insert(fields: never, company: CompanyId): unknown; remove(id: number): boolean }>>;
}

/** The record a create answer names, wherever the dialect puts it: at the top, or in `items` or `data`. */
function createdIdOf(body: unknown): number | null {
  const top = body as { id?: unknown; items?: unknown; data?: unknown } | null;
  for (const candidate of [top, top?.items, top?.data]) {
    const record = Array.isArray(candidate) && candidate.length === 1 ? candidate[0] : candidate;
    const id = (record as { id?: unknown } | null | undefined)?.id;
    if (typeof id === 'number') return id;
  }
  return null;
}

/**
 * Applies the load faults that are on to one answer: `busy` when BUSY_CONNECTIONS or more
 * connections were busy as it was made (Concurrency). Returns the answer to send (a list page may lose its last item).
 */
export class LoadFaultEffects {
  #creates = 0;
  #userCreates = 0;

  constructor(private readonly state: LoadFaultState) {}

  apply(method: string, path: string, answer: ApiResponse, busy: boolean): ApiResponse {
    if (!busy || answer.status < 200 || answer.status >= 300) return answer;
    const collection = /^\/(users|timesheets|breaks)\/?$/.exec(path)?.[1] as 'users' | 'timesheets' | 'breaks' | undefined;
    if (collection === undefined) return answer;
    if (method === 'POST') this.#created(collection, createdIdOf(answer.body));
    if (method === 'GET' && this.state.fault('load-wrong-page')) return shortPage(answer);
    return answer;
  }

  #created(collection: 'users' | 'timesheets' | 'breaks', id: number | null): void {
    if (id === null) return;
    const store = this.state.stores[collection];
    if (this.state.fault('load-drops-writes') && this.#creates++ % 2 === 1) {
      store.remove(id);
      return;
    }
    if (collection === 'users' && this.state.fault('load-duplicates-writes') && this.#userCreates++ % 2 === 1) {
      const { id: _, ...fields } = store.get(id) as { id: number };
      store.insert(fields as never, store.ownerOf(id) as CompanyId); // the duplicate is the same company's
    }
  }
}

/** A list answer without the last item of its page (its block unchanged). */
function shortPage(answer: ApiResponse): ApiResponse {
  const body = answer.body as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object') return answer;
  for (const key of ['items', 'data']) {
    const items = body[key];
    if (Array.isArray(items) && items.length >= 2) return { ...answer, body: { ...body, [key]: items.slice(0, -1) } };
  }
  return answer;
}
