import { DateTime } from 'luxon';
import type { ServerContext } from './context.ts';
import type { Company } from './companies/company.ts';
import { formatNaiveDateTime, formatOffsetDateTime } from '../contract/formats/index.ts';
import { hashPassword } from './password-hash.ts';
import type { UserRecord } from './records.ts';
import { newUserRecord } from './new-user.ts';

/** A seeded user: first name, last name, role (1 admin, 2 manager, 3 employee), active. */
export type SeedUser = readonly [first: string, last: string, role: number, active: boolean];

/** What one company's seed holds (seed.ts and second-company-seed.ts say which). */
export interface CompanySeedPlan {
  readonly company: Company;
  readonly users: readonly SeedUser[];
  /** The domain of its users' e-mails (`first.last@domain`). */
  readonly emailDomain: string;
  readonly jobs: readonly string[];
  readonly tasks: readonly string[];
  /** Two break rules: the breaks of a day take the first (Lunch) and the second (Rest). */
  readonly breakRules: readonly string[];
  /** Closed timesheets, one a day from 2026-10-01, three breaks each. */
  readonly closedTimesheets: number;
  /** An open timesheet from 2026-10-20 08:00. */
  readonly openTimesheet: boolean;
  /** A schedule its admin assigned to its first employee. */
  readonly schedule: boolean;
  readonly webhookUrl: string | null;
}

/** The records one company's seed stored. */
export interface SeededRecords {
  readonly users: readonly UserRecord[];
  readonly jobIds: readonly number[];
  readonly taskIds: readonly number[];
  readonly breakRuleIds: readonly number[];
  readonly closedTimesheetIds: readonly number[];
  readonly openTimesheetId: number | null;
  readonly breakCount: number;
  readonly scheduleIds: readonly number[];
}

export const SEED_CREATED_AT = '2026-09-01T08:00:00';

/**
 * Makes each list's items in turn (the first list's first item, the second's first, the first's
 * second, ...; a list that has run out is passed over), so the IDs of the companies' records
 * interleave, as on a database the companies share. With one list, its items in order.
 */
function inTurn<T, R>(lists: readonly (readonly T[])[], make: (item: T, which: number) => R): R[][] {
  const made = lists.map(() => [] as R[]);
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let index = 0; index < longest; index++) {
    lists.forEach((list, which) => {
      if (index < list.length) made[which]!.push(make(list[index] as T, which));
    });
  }
  return made;
}

const times = (count: number) => Array.from({ length: count }, (_, index) => index);

/**
 * Fills the shared repositories with each plan's records, kind by kind (users, jobs, tasks, break
 * rules, closed timesheets with their breaks, open timesheets, schedules), the companies in turn
 * within each kind. One plan stores its records exactly in that order, as the single company always was.
 */
export function seedInTurn(ctx: ServerContext, plans: readonly CompanySeedPlan[]): SeededRecords[] {
  const passwordHash = hashPassword('Seed-pass1!');
  const users = inTurn(plans.map((p) => p.users), (user, i) => seedUser(ctx, plans[i]!, user, passwordHash));
  const named = (table: 'jobs' | 'tasks' | 'breakRules', names: (p: CompanySeedPlan) => readonly string[]) =>
    inTurn(plans.map(names), (name, i) => ctx[table].insert({ name }, plans[i]!.company.id).id);
  const [jobIds, taskIds, breakRuleIds] = [named('jobs', (p) => p.jobs), named('tasks', (p) => p.tasks), named('breakRules', (p) => p.breakRules)];
  const workers = users.map((list) => list.filter((u) => u.active).slice(0, 3));
  const days = inTurn(plans.map((p) => times(p.closedTimesheets)), (day, i) =>
    seedClosedTimesheet(ctx, plans[i]!.company, { workers: workers[i]!, jobIds: jobIds[i]!, taskIds: taskIds[i]!, breakRuleIds: breakRuleIds[i]! }, day),
  );
  const open = inTurn(plans.map((p) => (p.openTimesheet ? [0] : [])), (_, i) => seedOpenTimesheet(ctx, plans[i]!.company, workers[i]![0] as UserRecord));
  const schedules = inTurn(plans.map((p) => (p.schedule ? [0] : [])), (_, i) => seedSchedule(ctx, plans[i]!.company, users[i]!, jobIds[i]!));
  for (const plan of plans) if (plan.webhookUrl) plan.company.webhook = { url: plan.webhookUrl, created_at: SEED_CREATED_AT };
  return plans.map((_, i) => ({
    users: users[i]!,
    jobIds: jobIds[i]!,
    taskIds: taskIds[i]!,
    breakRuleIds: breakRuleIds[i]!,
    closedTimesheetIds: days[i]!,
    openTimesheetId: open[i]![0] ?? null,
    breakCount: days[i]!.length * SEED_BREAKS.length,
    scheduleIds: schedules[i]!,
  }));
}

function seedUser(ctx: ServerContext, plan: CompanySeedPlan, [first, last, role, active]: SeedUser, passwordHash: string): UserRecord {
  const fields = { ...newUserRecord(SEED_CREATED_AT), first_name: first, last_name: last, role_id: role, active, password_hash: passwordHash };
  return ctx.users.insert({ ...fields, email: `${first}.${last}@${plan.emailDomain}`.toLowerCase() }, plan.company.id);
}

/** The breaks of each seeded day: [hour, minute, length in minutes, break rule (1 Lunch, 2 Rest)]. */
const SEED_BREAKS = [[10, 30, 10, 2], [12, 0, 30, 1], [15, 0, 15, 2]] as const;

/** What a company's closed timesheets are made of: its workers, and its jobs, tasks and break rules. */
interface DayMaterial {
  readonly workers: readonly UserRecord[];
  readonly jobIds: readonly number[];
  readonly taskIds: readonly number[];
  readonly breakRuleIds: readonly number[];
}

/**
 * The closed timesheet of `day` (0 for 2026-10-01), 09:00 to 17:00 company time, the workers and the
 * jobs and tasks taking turns, with its three breaks; its ID.
 */
function seedClosedTimesheet(ctx: ServerContext, company: Company, material: DayMaterial, day: number): number {
  const zone = company.timezone;
  const date = DateTime.fromObject({ year: 2026, month: 10, day: 1 + day, hour: 9 }, { zone });
  const worker = material.workers[day % material.workers.length] as UserRecord;
  const sheet = ctx.timesheets.insert(
    {
      user_id: worker.id,
      start: formatOffsetDateTime(date),
      end: formatOffsetDateTime(date.set({ hour: 17 })),
      start_ms: date.toMillis(),
      end_ms: date.set({ hour: 17 }).toMillis(),
      job_id: material.jobIds[day % 2] ?? null,
      task_id: material.taskIds[day % 2] ?? null,
      clock_in_timezone: zone,
      clock_out_timezone: zone,
      notes: day % 3 === 0 ? `Stocktake day ${day + 1}` : `Shift ${day + 1}`,
      mileage: null,
      created_at: SEED_CREATED_AT,
      updated_at: SEED_CREATED_AT,
    },
    company.id,
  );
  for (const [hour, minute, length, rule] of SEED_BREAKS) {
    seedBreak(ctx, company, sheet.id, date, date.set({ hour, minute }), length, material.breakRuleIds[rule - 1] as number);
  }
  return sheet.id;
}

/** One break of `length` minutes from `start` on the timesheet of `day`, created at 18:00 UTC that day. */
function seedBreak(ctx: ServerContext, company: Company, timesheetId: number, day: DateTime, start: DateTime, length: number, breakRuleId: number): void {
  const created = formatNaiveDateTime(day.toUTC().set({ hour: 18 }));
  ctx.breaks.insert(
    {
      timesheet_id: timesheetId,
      break_rule_id: breakRuleId,
      start: formatOffsetDateTime(start),
      end: formatOffsetDateTime(start.plus({ minutes: length })),
      start_ms: start.toMillis(),
      end_ms: start.plus({ minutes: length }).toMillis(),
      created_at: created,
      updated_at: created,
    },
    company.id,
  );
}

/** An open timesheet (end null) from 2026-10-20 08:00 company time, for breaks without an upper bound; its ID. */
function seedOpenTimesheet(ctx: ServerContext, company: Company, worker: UserRecord): number {
  const zone = company.timezone;
  const openStart = DateTime.fromObject({ year: 2026, month: 10, day: 20, hour: 8 }, { zone });
  const fields = { user_id: worker.id, start: formatOffsetDateTime(openStart), end: null, start_ms: openStart.toMillis(), end_ms: null };
  const rest = { job_id: null, task_id: null, clock_in_timezone: zone, clock_out_timezone: zone, notes: 'Open shift', mileage: null };
  return ctx.timesheets.insert({ ...fields, ...rest, created_at: SEED_CREATED_AT, updated_at: SEED_CREATED_AT }, company.id).id;
}

/** A one-day schedule on 10/05/2026, 08:00 to 16:00, that the company's admin assigned to its first active employee; its ID. */
function seedSchedule(ctx: ServerContext, company: Company, users: readonly UserRecord[], jobIds: readonly number[]): number {
  const admin = users.find((u) => u.active && u.role_id === 1) as UserRecord;
  const employee = users.find((u) => u.active && u.role_id === 3) ?? admin;
  const when = { start_date: '10/05/2026', end_date: '10/05/2026', start_time: '08:00', end_time: '16:00' };
  const address = { use_different_address: false, street: null, city: null, state: null, country: null, zip_code: null };
  const repeat = { repeat: false, repeat_type: null, repeat_end_date: null, weeks: null };
  const shown = { event_pid: null, title: 'Opening shift', description: null, job_id: jobIds[0] ?? null, timezone: company.timezone, all_day: false, color: 'green', publish: true };
  const fields = { ...shown, ...when, ...address, ...repeat, assigned_by: admin.id, user_ids: [employee.id], created_at: SEED_CREATED_AT, updated_at: SEED_CREATED_AT };
  return ctx.schedules.insert(fields, company.id).id;
}
