import { shiftYmdDate } from '../../contract/formats/ymd-date.ts';
import type { TargetRequest } from '../../client/client.ts';
import type { Exchange } from '../../client/exchange.ts';
import { retainExchange } from '../../client/retained.ts';
import type { Profile } from '../../profile/profile.ts';
import { readId } from '../created-id.ts';
import { locateItems } from '../locate.ts';
import { recordReadingFor } from '../record-reading.ts';
import type { StoredKind } from '../written-record.ts';
import { recordKey, type KeptRecord } from './kept-record.ts';
import { READ_PAGE_SIZE } from './read-back-check.ts';

/** What the reads send with, and how many they may send. */
export interface ReaderDeps {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  /** The run's nonce: in every e-mail it writes (a search for it lists the run's users). */
  readonly nonce: string;
  /** The requests a read of everything may send. */
  readonly maxRequests: number;
}

/** A record read back: the item as listed, and the exchange that listed it. */
export interface Found {
  readonly item: unknown;
  readonly exchange: Exchange;
}

export interface ReadAll {
  readonly found: Map<string, Found>;
  readonly exchanges: Exchange[];
  /** Reads that were not answered with a list: their status and what they were for. */
  readonly problems: string[];
  /** `ids` reads answered with the whole list that left out breaks the run created (BRK-IDS-FILTER, §4.4). */
  readonly idsShort: { readonly missing: KeptRecord[]; readonly asked: number; readonly exchange: Exchange }[];
}

/** Sends the reads, within the requests the plan gave the check. */
export class ListReader {
  readonly #deps: ReaderDeps;
  #sent = 0;
  #allowed: number;

  constructor(deps: ReaderDeps) {
    this.#deps = deps;
    this.#allowed = deps.maxRequests;
  }

  /** A second read, after the settle time: as many requests again. */
  allowMore(): void {
    this.#allowed = this.#sent + this.#deps.maxRequests;
  }

  get sent(): number {
    return this.#sent;
  }

  get left(): number {
    return this.#allowed - this.#sent;
  }

  /** Reads `records` back; `listed` breaks (not written by the run) are asked for with those written, their membership alone judged. */
  async readAll(records: readonly KeptRecord[], listed: readonly KeptRecord[] = []): Promise<ReadAll> {
    const out: ReadAll = { found: new Map(), exchanges: [], problems: [], idsShort: [] };
    const of = (kind: StoredKind) => records.filter((r) => r.kind === kind);
    await this.#breaks([...of('break'), ...listed], out);
    await this.#users(of('user'), out);
    await this.#timesheets(of('timesheet'), out);
    return out;
  }

  /** GET /breaks with `ids` (§4.4), a hundred at a time. */
  async #breaks(breaks: readonly KeptRecord[], out: ReadAll): Promise<void> {
    for (let i = 0; i < breaks.length && this.left > 0; i += READ_PAGE_SIZE) {
      const chunk = breaks.slice(i, i + READ_PAGE_SIZE);
      const listed = await this.#page('/breaks', { page_size: READ_PAGE_SIZE }, { ids: chunk.map((b) => b.rawId) }, 'break', out);
      // The whole answer on one page (§2.5's last_page 1, or fewer items than asked for): every break asked for, which the run created, is in it.
      const whole = listed !== null && (listed.lastPage === null ? listed.items < READ_PAGE_SIZE : listed.lastPage <= 1);
      const missing = chunk.filter((b) => !out.found.has(recordKey(b)));
      if (whole && missing.length > 0) out.idsShort.push({ missing, asked: chunk.length, exchange: out.exchanges.at(-1) as Exchange });
    }
  }

  /** GET /users searched for the run's nonce, then the plain list for those the search did not list. */
  async #users(users: readonly KeptRecord[], out: ReadAll): Promise<void> {
    if (users.length === 0) return;
    const missing = () => users.filter((u) => !out.found.has(recordKey(u))).length;
    await this.#walk('/users', { search: this.#deps.nonce }, 'user', missing, out);
    if (missing() > 0) await this.#walk('/users', {}, 'user', missing, out);
  }

  /** GET /timesheets filtered by the dates written (a day either side: the target reads a date in its own zone). */
  async #timesheets(sheets: readonly KeptRecord[], out: ReadAll): Promise<void> {
    if (sheets.length === 0) return;
    const days = sheets.flatMap((s) => {
      const start = s.fields.get('start')?.value;
      return typeof start === 'string' && /^\d{4}-\d{2}-\d{2}/.test(start) ? [start.slice(0, 10)] : [];
    });
    const range: Record<string, string> = days.length === sheets.length ? { date_range: `${shiftYmdDate(min(days), -1)},${shiftYmdDate(max(days), 1)}` } : {};
    await this.#walk('/timesheets', range, 'timesheet', () => sheets.filter((s) => !out.found.has(recordKey(s))).length, out);
  }

  /** Pages of a list at page_size 100 until the records sought are all found, the list ends (§2.5's last_page, else a short page), or the requests run out. */
  async #walk(path: string, query: Record<string, string>, kind: StoredKind, missing: () => number, out: ReadAll): Promise<void> {
    for (let page = 1; missing() > 0 && this.left > 0; page++) {
      const listed = await this.#page(path, { ...query, page_size: READ_PAGE_SIZE, ...(page > 1 ? { page } : {}) }, undefined, kind, out);
      if (listed === null) return;
      const more = listed.lastPage === null ? listed.items >= READ_PAGE_SIZE : page < listed.lastPage;
      if (!more) return;
    }
  }

  /** One page: its items kept by kind and ID; how many it held and the last page it names (§2.5), or null when the answer is no list. */
  async #page(path: string, query: Record<string, string | number>, json: unknown, kind: StoredKind, out: ReadAll): Promise<{ items: number; lastPage: number | null } | null> {
    this.#sent++;
    const exchange = await this.#deps.send({ method: 'GET', path, query, ...(json === undefined ? {} : { json }) });
    const kept = retainExchange(exchange);
    out.exchanges.push(kept);
    const status = exchange.response?.status;
    const items = status !== undefined && status >= 200 && status < 300 ? locateItems(exchange.response?.json, recordReadingFor(this.#deps.profile, path)) : undefined;
    if (items === undefined) {
      out.problems.push(`GET ${path} answered ${status === undefined ? `nothing (${exchange.error?.code ?? 'no response'})` : status < 200 || status >= 300 ? `status ${status}` : 'without a list of items'}`);
      return null;
    }
    for (const item of items) {
      const id = readId((item as { id?: unknown } | null)?.id);
      if (id !== null && !out.found.has(`${kind}:${String(id)}`)) out.found.set(`${kind}:${String(id)}`, { item, exchange: kept });
    }
    const lastPage = (exchange.response?.json as { meta_data?: { pagination?: { last_page?: unknown } } } | null)?.meta_data?.pagination?.last_page;
    return { items: items.length, lastPage: typeof lastPage === 'number' && Number.isInteger(lastPage) ? lastPage : null };
  }
}

const min = (days: readonly string[]) => days.reduce((a, b) => (b < a ? b : a));
const max = (days: readonly string[]) => days.reduce((a, b) => (b > a ? b : a));
