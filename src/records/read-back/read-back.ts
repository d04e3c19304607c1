import { shiftYmdDate } from '../../contract/formats/ymd-date.ts';
import type { TargetRequest } from '../../client/client.ts';
import type { Exchange } from '../../client/exchange.ts';
import { retainExchange } from '../../client/retained.ts';
import { parseJsonExact } from '../../contract/json-text.ts';
import type { RuleId } from '../../contract/rules.ts';
import type { Clock } from '../../clock.ts';
import type { Profile } from '../../profile/profile.ts';
import { readCreatedId, readId } from '../created-id.ts';
import { locateItems } from '../locate.ts';
import { recordReadingFor } from '../record-reading.ts';
import { createdFields, differences, editedFields, shownCount, type Difference, type StoredKind, type WrittenRecord } from '../written-record.ts';
import type { CheckResult, Finding } from '../../report/model.ts';
import { formatDuration } from '../../duration.ts';
import { pathOf } from '../created-ids.ts';

/** The run-wide check that reads back what the run wrote: every accepted create and edit of a user, timesheet or break. */
export const READ_BACK_CHECK_ID = 'records/read-back';
export const READ_BACK_RULES: readonly RuleId[] = ['STORE-CREATE', 'STORE-EDIT', 'STORE-TEXT', 'STORE-NUMBER', 'STORE-DATETIME', 'BRK-IDS-FILTER'];
export const READ_BACK_TITLE = 'what the run wrote reads back: every accepted create and edit of a user, timesheet or break, read through the lists and compared field by field by meaning (§1, §2.2, §2.3, §2.4, §4.2)';

/** Records a list page holds when the read asks for the most (§4.6: page_size maximum 100). */
export const READ_PAGE_SIZE = 100;
/** Findings a failed check lists at most; each cites the write and the read. */
const MAX_FINDINGS = 12;

/** How many records of each kind a plan writes at most (plan-writes.ts). */
export type WriteCounts = Readonly<Record<StoredKind, number>>;

/**
 * The requests the read-back plans for what a run writes at most: for users one search for the
 * run's nonce plus a walk of the list, for timesheets a walk filtered by the dates written, for
 * breaks one `ids` read per hundred (§4.4); each walk a page per hundred records and one more (the
 * target's own records share the pages). None when nothing is written.
 */
export function readBackRequests(counts: WriteCounts): number {
  const pages = (n: number) => (n === 0 ? 0 : Math.ceil(n / READ_PAGE_SIZE) + 1);
  return (counts.user === 0 ? 0 : 1 + pages(counts.user)) + pages(counts.timesheet) + Math.ceil(counts.break / READ_PAGE_SIZE);
}

interface Kept {
  readonly kind: StoredKind;
  readonly id: string;
  /** The ID as the target wrote it, for an `ids` body (a BigInt beyond 2^53 goes back exactly). */
  readonly rawId: number | bigint;
  fields: WrittenRecord['fields'];
  readonly writes: Exchange[];
  /** The checks whose accepted writes these were (none for a write outside every check: the calls that meet the checks' needs). */
  readonly writers: Set<string>;
}

/** What the read-back sends and waits with. */
export interface ReadBackDeps {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  readonly clock: Clock;
  /** The run's nonce: in every e-mail it writes (unique-values.ts). */
  readonly nonce: string;
  /**
   * The requests a read of everything may send: what the plan gave it. The read again after the
   * settle time, of what differed only, may send as many more (the plan does not count them: they are
   * sent only for a target that failed).
   */
  readonly maxRequests: number;
  readonly replay: string;
  /**
   * A record written with a 2xx that the reads do not find, also after the settle time, is a lost
   * write (STORE-CREATE) when every list was read to its end: `load --workload` judges so. Default
   * false (a run's read-back judges what it finds): a list a budget cut short proves nothing.
   */
  readonly missingIsLost?: boolean;
}

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
  readonly #records = new Map<string, Kept>();
  /**
   * Breaks the target listed (a 2xx GET /breaks) that the run did not write, at most a hundred: the
   * `ids` reads fill the room left in their hundred with them, so an `ids` filter that drops some of
   * many IDs shows although the run wrote few breaks. Only whether an `ids` answer lists them is
   * judged (BRK-IDS-FILTER): the spec has no delete for breaks, so a break once listed still exists.
   */
  readonly #listedBreaks = new Map<string, Kept>();
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
      const record: Kept = known ?? { kind, id, rawId, fields: new Map(), writes: [], writers: new Set() };
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
  #listedToAsk(written: number): Kept[] {
    if (written === 0) return [];
    const room = Math.ceil(written / READ_PAGE_SIZE) * READ_PAGE_SIZE - written;
    return [...this.#listedBreaks.values()].filter((b) => !this.#records.has(key(b))).slice(0, room);
  }

  /** Reads back every record kept and judges what was written (the check's result). */
  async check(deps: ReadBackDeps): Promise<CheckResult> {
    const started = deps.clock.now();
    const base = { id: READ_BACK_CHECK_ID, title: READ_BACK_TITLE, rules: [...READ_BACK_RULES], source: { kind: 'builtin' as const, name: READ_BACK_CHECK_ID }, replay: deps.replay };
    const records = [...this.#records.values()];
    if (records.length === 0) {
      const reason = `the run wrote no user, timesheet or break it can read back${this.#unnamed > 0 ? ` (${this.#unnamed} create answer${this.#unnamed === 1 ? '' : 's'} named no ID)` : ''}`;
      return { ...base, status: 'skipped', reason, findings: [], exchanges: [], durationMs: 0 };
    }
    const reader = new Reader(deps);
    const listed = this.#listedToAsk(records.filter((r) => r.kind === 'break').length);
    let read = await reader.readAll(records, listed);
    let judged = judgeAll(records, read.found, deps.profile);
    // The spec promises no consistency delay either way: what differs, or a break an `ids` read left out, is read once more after the settle time.
    // An `ids` read that left some out is sent again as it was (an ids filter may drop only some of many IDs).
    const shortOf = (r: ReadAll) => new Set(r.idsShort.flatMap((s) => s.missing.map(key)));
    const notFound = () => (deps.missingIsLost ? records.filter((r) => r.kind !== 'break' && !read.found.has(key(r))) : []);
    const unseen = new Set(notFound().map(key));
    if (judged.differing.size > 0 || read.idsShort.length > 0 || unseen.size > 0) {
      await deps.clock.sleep(deps.profile.read_back.settle);
      reader.allowMore();
      const short = shortOf(read);
      const breaksAgain = read.idsShort.length > 0;
      const again = records.filter((r) => judged.differing.has(key(r)) || short.has(key(r)) || unseen.has(key(r)) || (breaksAgain && r.kind === 'break'));
      const reread = await reader.readAll(again, breaksAgain ? listed : []);
      for (const record of again) {
        const found = reread.found.get(key(record));
        if (found) read.found.set(key(record), found);
      }
      read = { ...read, exchanges: [...read.exchanges, ...reread.exchanges], problems: [...read.problems, ...reread.problems], idsShort: reread.idsShort };
      judged = judgeAll(records, read.found, deps.profile);
    }
    judged.findings.push(...storedTwice(records, read.found));
    if (deps.missingIsLost && read.problems.length === 0 && reader.left > 0) {
      const lost = await lostWrites(reader, notFound(), read, deps.profile);
      judged.findings.unshift(...lost);
    }
    for (const short of read.idsShort) {
      judged.findings.unshift({
        ruleId: 'BRK-IDS-FILTER',
        expected: `GET /breaks with the ids of ${short.asked} breaks the run created or saw listed lists each of them (§4.4: "only the breaks with those IDs")`,
        actual: `${short.missing.length} left out of the whole answer (${short.missing.slice(0, 5).map((b) => b.id).join(', ')}${short.missing.length > 5 ? ', …' : ''}), also after ${formatDuration(deps.profile.read_back.settle)}`,
        exchangeIds: [short.exchange.id],
        ...writtenBy(short.missing),
      });
    }
    const durationMs = deps.clock.now() - started;
    const summary = summaryOf(records, read.found, judged.fieldsJudged, this.#unnamed, read.problems, deps.profile.read_back.settle, judged.differing.size > 0, reader.sent);
    if (judged.findings.length > 0) {
      const cited = new Set(judged.findings.flatMap((f) => f.exchangeIds));
      const exchanges = [...records.flatMap((r) => r.writes), ...read.exchanges].filter((e) => cited.has(e.id));
      const findings = judged.findings.slice(0, MAX_FINDINGS);
      // Replayed with the checks whose writes differed: alone, the read-back has nothing to read.
      const writers = [...new Set(findings.flatMap((f) => f.writtenBy ?? []))];
      const replay = writers.length === 0 ? base.replay : `${base.replay},${writers.join(',')}`;
      return { ...base, replay, status: 'failed', reason: summary, findings, exchanges: dedupe(exchanges), durationMs };
    }
    if (judged.fieldsJudged === 0) {
      const status = read.problems.length > 0 ? 'errored' : 'skipped';
      return { ...base, status, reason: summary, findings: [], exchanges: read.exchanges.slice(0, 3), durationMs };
    }
    return { ...base, status: 'passed', reason: summary, findings: [], exchanges: read.exchanges.slice(0, 3), durationMs };
  }
}

/** A record read back: the item as listed, and the exchange that listed it. */
interface Found {
  readonly item: unknown;
  readonly exchange: Exchange;
}

interface ReadAll {
  readonly found: Map<string, Found>;
  readonly exchanges: Exchange[];
  /** Reads that were not answered with a list: their status and what they were for. */
  readonly problems: string[];
  /** `ids` reads answered with the whole list that left out breaks the run created (BRK-IDS-FILTER, §4.4). */
  readonly idsShort: { readonly missing: Kept[]; readonly asked: number; readonly exchange: Exchange }[];
}

const key = (r: Pick<Kept, 'kind' | 'id'>) => `${r.kind}:${r.id}`;

/** Sends the reads, within the requests the plan gave the check. */
class Reader {
  readonly #deps: ReadBackDeps;
  #sent = 0;
  #allowed: number;

  constructor(deps: ReadBackDeps) {
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
  async readAll(records: readonly Kept[], listed: readonly Kept[] = []): Promise<ReadAll> {
    const out: ReadAll = { found: new Map(), exchanges: [], problems: [], idsShort: [] };
    const of = (kind: StoredKind) => records.filter((r) => r.kind === kind);
    await this.#breaks([...of('break'), ...listed], out);
    await this.#users(of('user'), out);
    await this.#timesheets(of('timesheet'), out);
    return out;
  }

  /** GET /breaks with `ids` (§4.4), a hundred at a time. */
  async #breaks(breaks: readonly Kept[], out: ReadAll): Promise<void> {
    for (let i = 0; i < breaks.length && this.left > 0; i += READ_PAGE_SIZE) {
      const chunk = breaks.slice(i, i + READ_PAGE_SIZE);
      const listed = await this.#page('/breaks', { page_size: READ_PAGE_SIZE }, { ids: chunk.map((b) => b.rawId) }, 'break', out);
      // The whole answer on one page (§2.5's last_page 1, or fewer items than asked for): every break asked for, which the run created, is in it.
      const whole = listed !== null && (listed.lastPage === null ? listed.items < READ_PAGE_SIZE : listed.lastPage <= 1);
      const missing = chunk.filter((b) => !out.found.has(key(b)));
      if (whole && missing.length > 0) out.idsShort.push({ missing, asked: chunk.length, exchange: out.exchanges.at(-1) as Exchange });
    }
  }

  /** GET /users searched for the run's nonce, then the plain list for those the search did not list. */
  async #users(users: readonly Kept[], out: ReadAll): Promise<void> {
    if (users.length === 0) return;
    const missing = () => users.filter((u) => !out.found.has(key(u))).length;
    await this.#walk('/users', { search: this.#deps.nonce }, 'user', missing, out);
    if (missing() > 0) await this.#walk('/users', {}, 'user', missing, out);
  }

  /** GET /timesheets filtered by the dates written (a day either side: the target reads a date in its own zone). */
  async #timesheets(sheets: readonly Kept[], out: ReadAll): Promise<void> {
    if (sheets.length === 0) return;
    const days = sheets.flatMap((s) => {
      const start = s.fields.get('start')?.value;
      return typeof start === 'string' && /^\d{4}-\d{2}-\d{2}/.test(start) ? [start.slice(0, 10)] : [];
    });
    const range: Record<string, string> = days.length === sheets.length ? { date_range: `${shiftYmdDate(min(days), -1)},${shiftYmdDate(max(days), 1)}` } : {};
    await this.#walk('/timesheets', range, 'timesheet', () => sheets.filter((s) => !out.found.has(key(s))).length, out);
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

interface Judged {
  readonly findings: Finding[];
  readonly differing: Set<string>;
  readonly fieldsJudged: number;
}

function judgeAll(records: readonly Kept[], found: ReadonlyMap<string, Found>, profile: Profile): Judged {
  const findings: Finding[] = [];
  const differing = new Set<string>();
  let fieldsJudged = 0;
  for (const record of records) {
    const read = found.get(key(record));
    if (!read) continue;
    const reading = recordReadingFor(profile, `/${record.kind}s`);
    const diffs = differences({ kind: record.kind, id: record.id, fields: record.fields, writtenBy: [] }, read.item, reading);
    fieldsJudged += shownCount(record.fields, read.item, reading);
    if (diffs.length === 0) continue;
    differing.add(key(record));
    for (const diff of diffs) findings.push(finding(record, diff, read.exchange));
  }
  return { findings, differing, fieldsJudged };
}

function finding(record: Kept, diff: Difference, read: Exchange): Finding {
  const write = record.writes.at(-1);
  return {
    ruleId: diff.rule,
    expected: `${record.kind} ${record.id}${record.writers.size > 0 ? ` (written by ${[...record.writers].sort().join(', ')})` : ''}: ${diff.expected}`,
    actual: `${diff.field} ${diff.actual} in the list read`,
    exchangeIds: [...(write ? [write.id] : []), read.id],
    ...writtenBy([record]),
  };
}

/**
 * Users listed more often than the run created them: two listed users with an e-mail the run sent
 * in one accepted create only (each e-mail the run writes is unique to it: unique-values.ts). One
 * create stored twice (STORE-CREATE). Only what the reads listed is seen: a copy on a page the walk
 * did not reach is not.
 */
function storedTwice(records: readonly Kept[], found: ReadonlyMap<string, Found>): Finding[] {
  const written = new Map<string, Kept[]>();
  for (const record of records) {
    const email = record.kind === 'user' ? record.fields.get('email')?.value : undefined;
    if (typeof email === 'string') written.set(email, [...(written.get(email) ?? []), record]);
  }
  const listed = new Map<string, { id: string; exchange: Exchange }[]>();
  for (const [k, entry] of found) {
    const email = k.startsWith('user:') ? (entry.item as { email?: unknown } | null)?.email : undefined;
    if (typeof email === 'string' && written.has(email)) listed.set(email, [...(listed.get(email) ?? []), { id: k.slice('user:'.length), exchange: entry.exchange }]);
  }
  const findings: Finding[] = [];
  for (const [email, copies] of listed) {
    const creates = written.get(email)!;
    if (copies.length <= creates.length) continue;
    findings.push({
      ruleId: 'STORE-CREATE',
      expected: `one user for each accepted create with e-mail ${email} (${creates.length}: user ${creates.map((r) => r.id).join(', ')})`,
      actual: `${copies.length} users listed with it: ${copies.map((c) => c.id).join(', ')} (a create stored twice)`,
      exchangeIds: [...new Set([...creates.flatMap((r) => r.writes.map((w) => w.id)), ...copies.map((c) => c.exchange.id)])],
      ...writtenBy(creates),
    });
  }
  return findings;
}

/** Breaks an `ids` read left out that are read once more alone, at most (each a request). */
const MAX_SINGLE_READS = 20;

/**
 * Lost writes (ReadBackDeps.missingIsLost): each user or timesheet written with a 2xx that no list
 * read found, and each break the `ids` reads left out that a read of its ID alone does not list either
 * (one it does list is the ids filter's doing, BRK-IDS-FILTER, and stays in `read.idsShort`).
 */
async function lostWrites(reader: Reader, notFound: readonly Kept[], read: ReadAll, profile: Profile): Promise<Finding[]> {
  const findings = notFound.map((record) => lostFinding(record, `not listed by GET /${record.kind}s read to its end${record.kind === 'user' ? ' (searched for the run\'s nonce, then the whole list)' : ' (the dates written, a day either side)'}, also after ${formatDuration(profile.read_back.settle)}`, read.exchanges.at(-1)));
  const remaining: ReadAll['idsShort'] = [];
  let reads = 0;
  for (const short of read.idsShort) {
    const stillShort: Kept[] = [];
    for (const b of short.missing) {
      if (reads >= MAX_SINGLE_READS || reader.left <= 0) {
        stillShort.push(b);
        continue;
      }
      reads++;
      const alone = await reader.readAll([b]);
      read.exchanges.push(...alone.exchanges);
      if (alone.found.has(key(b))) stillShort.push(b);
      else findings.push(lostFinding(b, `not listed by GET /breaks with its ID alone (ids [${b.id}]), nor with the others`, alone.exchanges.at(-1)));
    }
    if (stillShort.length > 0) remaining.push({ ...short, missing: stillShort });
  }
  read.idsShort.splice(0, read.idsShort.length, ...remaining);
  return findings;
}

function lostFinding(record: Kept, actual: string, read: Exchange | undefined): Finding {
  const write = record.writes.at(-1);
  return {
    ruleId: 'STORE-CREATE',
    expected: `${record.kind} ${record.id}, created with a 2xx${write ? ` (exchange ${write.id})` : ''}, read back (a lost write otherwise)`,
    actual,
    exchangeIds: [...(write ? [write.id] : []), ...(read ? [read.id] : [])],
    ...writtenBy([record]),
  };
}

/** The checks whose writes a finding judges (Finding.writtenBy), when any check wrote them. */
function writtenBy(records: readonly Kept[]): Pick<Finding, 'writtenBy'> {
  const checks = [...new Set(records.flatMap((r) => [...r.writers]))].sort();
  return checks.length === 0 ? {} : { writtenBy: checks };
}

function summaryOf(records: readonly Kept[], found: ReadonlyMap<string, Found>, fields: number, unnamed: number, problems: readonly string[], settleMs: number, differed: boolean, sent: number): string {
  const kinds: StoredKind[] = ['user', 'timesheet', 'break'];
  const parts = kinds.flatMap((kind) => {
    const all = records.filter((r) => r.kind === kind);
    if (all.length === 0) return [];
    const read = all.filter((r) => found.has(key(r))).length;
    return [`${read} of ${all.length} ${kind}${all.length === 1 ? '' : 's'}`];
  });
  const notes = [
    ...(unnamed > 0 ? [`${unnamed} create answer${unnamed === 1 ? '' : 's'} named no ID to find ${unnamed === 1 ? 'its record' : 'theirs'} by`] : []),
    ...(differed ? [`what differed was read again after ${formatDuration(settleMs)} (read_back.settle)`] : []),
    ...problems.slice(0, 3),
  ];
  return `read back ${parts.join(', ')} the run wrote, in ${sent} request${sent === 1 ? '' : 's'}; ${fields} field${fields === 1 ? '' : 's'} judged${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
}

function dedupe(exchanges: readonly Exchange[]): Exchange[] {
  const seen = new Set<number>();
  return exchanges.filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/** The JSON object a request sent, read exactly (IDs beyond 2^53 as BigInt); null for anything else. */
function bodyOf(text: string | undefined): Readonly<Record<string, unknown>> | null {
  if (text === undefined) return null;
  try {
    const value = parseJsonExact(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const min = (days: readonly string[]) => days.reduce((a, b) => (b < a ? b : a));
const max = (days: readonly string[]) => days.reduce((a, b) => (b > a ? b : a));

