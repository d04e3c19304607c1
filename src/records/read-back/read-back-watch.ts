import type { Exchange } from '../../client/exchange.ts';
import { retainExchange } from '../../client/retained.ts';
import type { Profile } from '../../profile/profile.ts';
import type { CheckResult } from '../../report/model.ts';
import { readCreatedId, readId } from '../created-id.ts';
import { locateItems } from '../locate.ts';
import { recordReadingFor } from '../record-reading.ts';
import { pathOf } from '../url-path.ts';
import { createdFields, editedFields } from '../written-record.ts';
import { bodyOf, recordKey, type KeptRecord } from './kept-record.ts';
import { readBack, type ReadBackDeps } from './read-back.ts';
import { READ_PAGE_SIZE, type WriteCounts } from './read-back-check.ts';

const BREAK_LIST = /\/breaks\/?$/;
const WRITE_PATH = /\/(users|timesheets|breaks)(?:\/([^/?#]+))?\/?$/;
const KIND_OF = { users: 'user', timesheets: 'timesheet', breaks: 'break' } as const;


/**
 * Watches every exchange of a run (RunTransport.tap) and keeps what each accepted write of a user,
 * timesheet or break sent: a create (2xx to POST /users, /timesheets, /breaks, with an ID in its
 * answer) starts a record with the fields sent and §2.2's defaults; an edit (2xx to PUT
 * /users/{id}) changes the fields it sent and keeps the others (PUT is partial, §1). At the end of
 * the run `check` reads them back, in as few requests as the lists allow, and judges each field.
 */
export class ReadBackWatch {
  readonly #profile: Pick<Profile, 'id_pointer'>;
  readonly #records = new Map<string, KeptRecord>();
  /**
   * Breaks the target listed (a 2xx GET /breaks) that the run did not write, at most a hundred: the
   * `ids` reads fill the room left in their hundred with them, so an `ids` filter that drops some of
   * many IDs shows although the run wrote few breaks. Only whether an `ids` answer lists them is
   * judged (BRK-IDS-FILTER): the spec has no delete for breaks, so a break once listed still exists.
   */
  readonly #listedBreaks = new Map<string, KeptRecord>();
  /** Accepted creates whose answer named no usable ID: they cannot be found again. */
  #unnamed = 0;

  constructor(profile: Pick<Profile, 'id_pointer'>) {
    this.#profile = profile;
  }

  /** How many records of each kind the run wrote and can read back. */
  get counts(): WriteCounts {
    const counts = { user: 0, timesheet: 0, break: 0 };
    for (const record of this.#records.values()) counts[record.kind]++;
    return counts;
  }

  /** Keeps what an accepted write of `exchange` wrote; `checkId` is the check that sent it (current-check.ts), undefined outside every check. */
  observe(exchange: Exchange, checkId?: string): void {
    const status = exchange.response?.status ?? 0;
    if (status >= 200 && status < 300 && exchange.request.method === 'GET') this.#listed(exchange);
    if (status < 200 || status >= 300 || (exchange.request.method !== 'POST' && exchange.request.method !== 'PUT')) return;
    const match = WRITE_PATH.exec(pathOf(exchange.request.url));
    if (!match) return;
    const kind = KIND_OF[match[1] as keyof typeof KIND_OF];
    const body = bodyOf(exchange.request.body);
    if (body === null) return;
    if (exchange.request.method === 'POST' && match[2] === undefined) {
      const read = readCreatedId(exchange.response?.json, this.#profile, kind);
      if (read.kind !== 'id') {
        this.#unnamed++;
        return;
      }
      const id = String(read.id);
      this.#records.set(`${kind}:${id}`, { kind, id, rawId: read.id, fields: createdFields(kind, body), writes: [retainExchange(exchange)], writers: new Set(checkId === undefined ? [] : [checkId]) });
      return;
    }
    if (exchange.request.method === 'PUT' && kind === 'user' && match[2] !== undefined) {
      const rawId = readId(decodeURIComponent(match[2]));
      if (rawId === null) return;
      const id = String(rawId);
      const known = this.#records.get(`user:${id}`);
      // A user the run did not create (a fixture): only the fields this edit wrote are known.
      const record: KeptRecord = known ?? { kind, id, rawId, fields: new Map(), writes: [], writers: new Set() };
      record.fields = editedFields(kind, known?.fields, body);
      record.writes.push(retainExchange(exchange));
      if (checkId !== undefined) record.writers.add(checkId);
      this.#records.set(`user:${id}`, record);
    }
  }

  /** Keeps the breaks a list of breaks showed (#listedBreaks). */
  #listed(exchange: Exchange): void {
    if (!BREAK_LIST.test(pathOf(exchange.request.url)) || this.#listedBreaks.size >= READ_PAGE_SIZE) return;
    const items = locateItems(exchange.response?.json, recordReadingFor({ record_fields: 'auto' }, '/breaks')) ?? [];
    for (const item of items) {
      const rawId = readId((item as { id?: unknown } | null)?.id);
      if (rawId === null || this.#listedBreaks.size >= READ_PAGE_SIZE) continue;
      const id = String(rawId);
      if (!this.#listedBreaks.has(id)) this.#listedBreaks.set(id, { kind: 'break', id, rawId, fields: new Map(), writes: [], writers: new Set() });
    }
  }

  /** Breaks the target listed that the run did not write, as many as fit the room left in the `ids` reads of those it wrote (none when it wrote none: no read is added for them). */
  #listedToAsk(written: number): KeptRecord[] {
    if (written === 0) return [];
    const room = Math.ceil(written / READ_PAGE_SIZE) * READ_PAGE_SIZE - written;
    return [...this.#listedBreaks.values()].filter((b) => !this.#records.has(recordKey(b))).slice(0, room);
  }

  /** Reads back every record kept and judges what was written (the check's result: read-back.ts). */
  check(deps: ReadBackDeps): Promise<CheckResult> {
    const records = [...this.#records.values()];
    return readBack({ records, listed: this.#listedToAsk(records.filter((r) => r.kind === 'break').length), unnamed: this.#unnamed }, deps);
  }

}
