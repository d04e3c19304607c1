import type { TargetRequest } from '../client/client.ts';
import type { Exchange } from '../client/exchange.ts';
import type { Profile } from '../profile/profile.ts';
import { readCreatedId, readId, type CreatedKind, type RecordId } from '../records/created-id.ts';
import { locateItems } from '../records/locate.ts';

/** One company as the isolation checks act in it: its name in findings, and a send with its token. */
export interface Company {
  readonly name: 'the first company' | 'the second company';
  readonly send: (request: TargetRequest) => Promise<Exchange>;
  /** The break rule its breaks name: the profile's, else one its breaks list shows (readBreakRule). */
  readonly breakRuleId: RecordId | undefined;
  /** Told of each record it created (the run's ledger: what the run left on the target). */
  readonly onCreated: (kind: CreatedKind, id: RecordId) => void;
}

/**
 * What a company wrote for the other's probes, each a baseline the other company's variants change in
 * one field: a user marked with `mark` (its first name; a search for it lists that user alone), a
 * timesheet of that user (the mark in its notes, on `date`, in UTC), a break in it, and a schedule of
 * that user (titled with the mark).
 */
export interface CompanyRecords {
  readonly company: Company;
  readonly mark: string;
  readonly userId: RecordId;
  readonly email: string;
  readonly timesheetId: RecordId;
  /** `YYYY-MM-DD` of the timesheet and the break (UTC). */
  readonly date: string;
  readonly breakId: RecordId | undefined;
  readonly scheduleId: RecordId;
  /** The create bodies, for the other company's variants (one reference changed). */
  readonly bodies: { readonly timesheet: Record<string, unknown>; readonly break: Record<string, unknown> | undefined; readonly schedule: Record<string, unknown> };
  readonly exchanges: readonly Exchange[];
}

/** A company's records could not be made: why, and the exchanges that show it (the unit errors with it). */
export interface RecordsProblem {
  readonly problem: string;
  readonly exchanges: readonly Exchange[];
}

const usDate = (isoDate: string) => `${isoDate.slice(5, 7)}/${isoDate.slice(8, 10)}/${isoDate.slice(0, 4)}`;

/** The break rule a company's breaks name, from the first page of its breaks (§2.4 shows `break_rule_id`); undefined when it lists none. */
export async function readBreakRule(company: Company, into: Exchange[]): Promise<RecordId | undefined> {
  const exchange = await company.send({ method: 'GET', path: '/breaks', query: { page_size: 10 } });
  into.push(exchange);
  const items = locateItems(exchange.response?.json) ?? [];
  for (const item of items) {
    const id = item !== null && typeof item === 'object' ? readId((item as { break_rule_id?: unknown }).break_rule_id) : null;
    if (id !== null) return id;
  }
  return undefined;
}

/** Creates one record; its ID, or the problem (a refusal, an answer naming no usable ID). */
async function create(company: Company, profile: Profile, kind: CreatedKind, path: string, json: Record<string, unknown>, into: Exchange[]): Promise<RecordId | string> {
  const exchange = await company.send({ method: 'POST', path, json });
  into.push(exchange);
  const status = exchange.response?.status;
  if (status === undefined || status < 200 || status >= 300) return `${company.name} refused its own ${kind} (POST ${path} answered ${status ?? exchange.error?.code ?? 'nothing'} in exchange ${exchange.id})`;
  const read = readCreatedId(exchange.response?.json, profile, kind);
  if (read.kind !== 'id') return `${company.name}'s ${kind} create (exchange ${exchange.id}) named no usable ID`;
  company.onCreated(kind, read.id);
  return read.id;
}

/**
 * Writes a company's marked records: the user, its timesheet, a break in it (when a break rule is
 * known), its schedule. Each must be accepted: a company that refuses its own valid records gives the
 * probes no baseline, and the unit errors saying which write was refused.
 */
export async function writeCompanyRecords(company: Company, profile: Profile, values: { readonly mark: string; readonly email: string; readonly password: string; readonly date: string }): Promise<CompanyRecords | RecordsProblem> {
  const exchanges: Exchange[] = [];
  const { mark, date } = values;
  const userId = await create(company, profile, 'user', '/users', { first_name: mark, last_name: 'Isolation', email: values.email, password: values.password }, exchanges);
  if (typeof userId === 'string') return { problem: userId, exchanges };
  const timesheet = { user_id: userId, start: `${date}T08:00:00+00:00`, end: `${date}T16:00:00+00:00`, clock_in_timezone: 'UTC', clock_out_timezone: 'UTC', notes: mark };
  const timesheetId = await create(company, profile, 'timesheet', '/timesheets', timesheet, exchanges);
  if (typeof timesheetId === 'string') return { problem: timesheetId, exchanges };
  const breakBody = company.breakRuleId === undefined ? undefined : { timesheet_id: timesheetId, break_rule_id: company.breakRuleId, start: `${date}T10:00:00+00:00`, end: `${date}T10:15:00+00:00` };
  const breakId = breakBody === undefined ? undefined : await create(company, profile, 'break', '/breaks', breakBody, exchanges);
  if (typeof breakId === 'string') return { problem: breakId, exchanges };
  const schedule = { assigned_by: userId, title: mark, repeat: false, all_day: true, color: 'blue', user_ids: [userId], start_date: usDate(date), end_date: usDate(date) };
  const scheduleId = await create(company, profile, 'schedule', '/schedules', schedule, exchanges);
  if (typeof scheduleId === 'string') return { problem: scheduleId, exchanges };
  return { company, mark, userId, email: values.email, timesheetId, date, breakId, scheduleId, bodies: { timesheet, break: breakBody, schedule }, exchanges };
}
