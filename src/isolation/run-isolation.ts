import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import { NO_SECOND_COMPANY, type Profile } from '../profile/profile.ts';
import { IN_SECOND_COMPANY, type CheckResult, type CreatedResource } from '../report/model.ts';
import { readBreakRule, writeCompanyRecords, type Company, type CompanyRecords } from './company-records.ts';
import { changeSchedule, changeUser } from './cross-items.ts';
import { breakIds, dateRangeAround, searchForMark, timesheetList, userList, type Direction, type Known } from './cross-lists.ts';
import { referenceOwnerRecords } from './cross-references.ts';
import { ISOLATION_CHECK_IDS, ISOLATION_CHECKS, ISOLATION_UNIT_ID, type IsolationCheckId } from './isolation-check.ts';
import { IsolationTally } from './probe-tally.ts';

/** What the isolation unit runs with: the run's send (its token; `auth: 'second-token'` for the second company's), the profile, fresh values. */
export interface IsolationOptions {
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  readonly profile: Profile;
  readonly seed: number;
  /** A fresh e-mail, letters-only name and token, unique within the run and across runs. */
  readonly unique: () => { readonly email: string; readonly name: string; readonly token: string };
  readonly replayBase: string;
  readonly readOnly: boolean;
  /** Each record the unit created, in either company (the run's ledger). */
  readonly onCreated: (resource: CreatedResource) => void;
}

/** The date of both companies' timesheets and breaks: a past day (UTC, no zone rule involved) from the run's seed. */
export function isolationDate(seed: number): string {
  return `2004-03-${String(10 + (Math.abs(seed) % 18)).padStart(2, '0')}`;
}

/** A result of each isolation check with one status and reason (a skip, an error before any probe). */
export function isolationResults(status: 'skipped' | 'errored', reason: string, replayBase: string, exchanges: readonly Exchange[] = []): CheckResult[] {
  return ISOLATION_CHECK_IDS.map((id) => ({ ...base(id, replayBase), status, reason, findings: [], exchanges: status === 'errored' ? [...exchanges] : [] }));
}

function base(id: IsolationCheckId, replayBase: string) {
  const check = ISOLATION_CHECKS[id];
  return { id, title: check.title, rules: check.rules, source: { kind: 'builtin' as const, name: id }, replay: `${replayBase} --only ${id}`, durationMs: 0 };
}

function company(name: Company['name'], options: IsolationOptions, auth: 'token' | 'second-token', breakRuleId: Company['breakRuleId']): Company {
  const checkId = auth === 'token' ? ISOLATION_UNIT_ID : `${ISOLATION_UNIT_ID}${IN_SECOND_COMPANY}`;
  return { name, send: (request) => options.send({ ...request, auth }), breakRuleId, onCreated: (kind, id) => options.onCreated({ kind, id: String(id), checkId }) };
}

/** Writes each company's marked records (the first, then the second, so their IDs interleave on a shared sequence). */
async function writeBoth(options: IsolationOptions): Promise<{ readonly both: readonly [CompanyRecords, CompanyRecords] } | { readonly problem: string; readonly exchanges: Exchange[] }> {
  const { profile } = options;
  const exchanges: Exchange[] = [];
  const first = company('the first company', options, 'token', profile.fixtures.break_rule_id);
  const second = company('the second company', options, 'second-token', profile.second_company?.break_rule_id);
  const companies = [
    first.breakRuleId === undefined ? { ...first, breakRuleId: await readBreakRule(first, exchanges) } : first,
    second.breakRuleId === undefined ? { ...second, breakRuleId: await readBreakRule(second, exchanges) } : second,
  ];
  const written: CompanyRecords[] = [];
  for (const c of companies) {
    const values = options.unique();
    const records = await writeCompanyRecords(c, profile, { mark: `${values.name}Iso`, email: values.email, password: `Iso-${values.token}-a1!`, date: isolationDate(options.seed) });
    if ('problem' in records) return { problem: records.problem, exchanges: [...exchanges, ...records.exchanges] };
    written.push(records);
  }
  return { both: [written[0]!, written[1]!] };
}

/**
 * One way: the caller's token on the owner's records. The second company's token sends every probe;
 * the first company's the fewest that judge each rule (the search, the `ids` read, the change of the
 * user, the references of a timesheet and a schedule): where the second token has a window of its
 * own, only the first company's calls cost the run time (isolation-check.ts, isolationRequests).
 */
async function probe(d: Direction, options: IsolationOptions, full: boolean): Promise<void> {
  const known: Known = { global: options.profile.second_company?.ids === 'global' };
  if (!known.global) {
    await userList(d, known);
    await timesheetList(d, known);
  }
  const values = options.unique();
  const baseline = await changeUser(d, known, { email: values.email, password: `Iso-${values.token}-b2!` }, full);
  await searchForMark(d, baseline);
  if (full) await dateRangeAround(d);
  await breakIds(d, known);
  if (full) await changeSchedule(d, known);
  await referenceOwnerRecords(d, known, full);
}

/**
 * The isolation checks (isolation-check.ts): each company writes its marked records, then each
 * company's token probes the other's: lists, items, references. Skipped without a second company or
 * under --read-only; errored, naming the write, when a company refuses its own valid records.
 */
export async function runIsolation(options: IsolationOptions): Promise<CheckResult[]> {
  if (options.profile.second_company === undefined) return isolationResults('skipped', NO_SECOND_COMPANY, options.replayBase);
  if (options.readOnly) return isolationResults('skipped', 'the isolation checks write a user, a timesheet, a break and a schedule in each company (--read-only)', options.replayBase);
  const started = Date.now();
  const written = await writeBoth(options);
  if ('problem' in written) return isolationResults('errored', `the records the isolation checks probe could not be written: ${written.problem}`, options.replayBase, written.exchanges);
  const [first, second] = written.both;
  const tally = new IsolationTally();
  await probe({ caller: first, owner: second, profile: options.profile, tally }, options, false);
  await probe({ caller: second, owner: first, profile: options.profile, tally }, options, true);
  const durationMs = Date.now() - started;
  return ISOLATION_CHECK_IDS.map((id): CheckResult => {
    const t = tally.checks[id];
    const notes = t.skipped.length > 0 ? { notes: t.skipped.map((why) => `not probed: ${why}`) } : {};
    if (t.judged === 0) return { ...base(id, options.replayBase), durationMs, status: 'skipped', reason: t.skipped.join('; ') || 'nothing to probe', findings: [], exchanges: [] };
    const summary = `${t.judged} verdict${t.judged === 1 ? '' : 's'}, both ways between the two companies`;
    const status = t.findings.length > 0 ? 'failed' : 'passed';
    // A rule of the check no probe gave a verdict on (ISO-FOREIGN-ID under foreign_ids: either) is left out of its result: never counted judged.
    const rules = ISOLATION_CHECKS[id].rules.filter((rule) => t.rules.has(rule));
    return { ...base(id, options.replayBase), rules, durationMs, status, reason: status === 'failed' ? `${summary}: ${t.findings.length} crossed` : summary, findings: t.findings, exchanges: t.exchanges, ...notes };
  });
}
