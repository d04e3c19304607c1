import type { Exchange } from '../../client/exchange.ts';
import type { Clock } from '../../clock.ts';
import type { CheckResult, Finding } from '../../report/model.ts';
import { formatDuration } from '../../duration.ts';
import { recordKey, type KeptRecord } from './kept-record.ts';
import { ListReader, type ReadAll, type ReaderDeps } from './list-reader.ts';
import { lostWrites } from './lost-writes.ts';
import { READ_BACK_CHECK_ID, READ_BACK_RULES, READ_BACK_TITLE } from './read-back-check.ts';
import { summaryOf } from './read-back-summary.ts';
import { judgeAll, storedTwice, writtenBy, type Judged } from './written-findings.ts';

/** Findings a failed check lists at most; each cites the write and the read. */
const MAX_FINDINGS = 12;

/** What the read-back sends and waits with. */
export interface ReadBackDeps extends ReaderDeps {
  readonly clock: Clock;
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

/** What a run wrote, as its watch kept it (read-back-watch.ts). */
export interface Written {
  readonly records: readonly KeptRecord[];
  /** Breaks the target listed that the run did not write, asked for beside those it wrote (their membership alone judged). */
  readonly listed: readonly KeptRecord[];
  /** Accepted creates whose answer named no usable ID. */
  readonly unnamed: number;
}

/**
 * Reads back what the run wrote, in as few requests as the lists allow, and judges each field by
 * meaning. The spec promises no consistency delay either way: what differs, or a break an `ids`
 * read left out, is read once more after the profile's settle time.
 */
export async function readBack(written: Written, deps: ReadBackDeps): Promise<CheckResult> {
  const started = deps.clock.now();
  const base = { id: READ_BACK_CHECK_ID, title: READ_BACK_TITLE, rules: [...READ_BACK_RULES], source: { kind: 'builtin' as const, name: READ_BACK_CHECK_ID }, replay: deps.replay };
  const { records, unnamed } = written;
  if (records.length === 0) {
    const reason = `the run wrote no user, timesheet or break it can read back${unnamed > 0 ? ` (${unnamed} create answer${unnamed === 1 ? '' : 's'} named no ID)` : ''}`;
    return { ...base, status: 'skipped', reason, findings: [], exchanges: [], durationMs: 0 };
  }
  const reader = new ListReader(deps);
  const { read, judged } = await readAndJudge(reader, written, deps);
  const notFound = deps.missingIsLost ? records.filter((r) => r.kind !== 'break' && !read.found.has(recordKey(r))) : [];
  judged.findings.push(...storedTwice(records, read.found));
  if (deps.missingIsLost && read.problems.length === 0 && reader.left > 0) judged.findings.unshift(...(await lostWrites(reader, notFound, read, deps.profile)));
  judged.findings.unshift(...read.idsShort.map((short) => idsShortFinding(short, deps.profile.read_back.settle)).reverse());
  const summary = summaryOf(records, read.found, judged.fieldsJudged, unnamed, read.problems, deps.profile.read_back.settle, judged.differing.size > 0, reader.sent);
  const ended = { ...base, reason: summary, durationMs: deps.clock.now() - started };
  if (judged.findings.length > 0) {
    const cited = new Set(judged.findings.flatMap((f) => f.exchangeIds));
    const exchanges = [...records.flatMap((r) => r.writes), ...read.exchanges].filter((e) => cited.has(e.id));
    const findings = judged.findings.slice(0, MAX_FINDINGS);
    // Replayed with the checks whose writes differed: alone, the read-back has nothing to read.
    const writers = [...new Set(findings.flatMap((f) => f.writtenBy ?? []))];
    const replay = writers.length === 0 ? base.replay : `${base.replay},${writers.join(',')}`;
    return { ...ended, replay, status: 'failed', findings, exchanges: dedupe(exchanges) };
  }
  const status = judged.fieldsJudged > 0 ? 'passed' : read.problems.length > 0 ? 'errored' : 'skipped';
  return { ...ended, status, findings: [], exchanges: read.exchanges.slice(0, 3) };
}

/**
 * The reads and their judgement: what differs, a break an `ids` read left out, or (missingIsLost) a
 * record not found is read once more after the settle time; an `ids` read that left some out is sent
 * again as it was (an ids filter may drop only some of many IDs).
 */
async function readAndJudge(reader: ListReader, written: Written, deps: ReadBackDeps): Promise<{ read: ReadAll; judged: Judged }> {
  const { records, listed } = written;
  let read = await reader.readAll(records, listed);
  let judged = judgeAll(records, read.found, deps.profile);
  const unseen = new Set(deps.missingIsLost ? records.filter((r) => r.kind !== 'break' && !read.found.has(recordKey(r))).map(recordKey) : []);
  if (judged.differing.size === 0 && read.idsShort.length === 0 && unseen.size === 0) return { read, judged };
  await deps.clock.sleep(deps.profile.read_back.settle);
  reader.allowMore();
  const short = new Set(read.idsShort.flatMap((s) => s.missing.map(recordKey)));
  const breaksAgain = read.idsShort.length > 0;
  const again = records.filter((r) => judged.differing.has(recordKey(r)) || short.has(recordKey(r)) || unseen.has(recordKey(r)) || (breaksAgain && r.kind === 'break'));
  const reread = await reader.readAll(again, breaksAgain ? listed : []);
  for (const record of again) {
    const found = reread.found.get(recordKey(record));
    if (found) read.found.set(recordKey(record), found);
  }
  read = { ...read, exchanges: [...read.exchanges, ...reread.exchanges], problems: [...read.problems, ...reread.problems], idsShort: reread.idsShort };
  judged = judgeAll(records, read.found, deps.profile);
  return { read, judged };
}

/** BRK-IDS-FILTER: an `ids` read answered with the whole list that left out breaks it asked for, also after the settle time. */
function idsShortFinding(short: ReadAll['idsShort'][number], settleMs: number): Finding {
  return {
    ruleId: 'BRK-IDS-FILTER',
    expected: `GET /breaks with the ids of ${short.asked} breaks the run created or saw listed lists each of them (§4.4: "only the breaks with those IDs")`,
    actual: `${short.missing.length} left out of the whole answer (${short.missing.slice(0, 5).map((b) => b.id).join(', ')}${short.missing.length > 5 ? ', …' : ''}), also after ${formatDuration(settleMs)}`,
    exchangeIds: [short.exchange.id],
    ...writtenBy(short.missing),
  };
}

function dedupe(exchanges: readonly Exchange[]): Exchange[] {
  const seen = new Set<number>();
  return exchanges.filter((e) => !seen.has(e.id) && seen.add(e.id));
}
