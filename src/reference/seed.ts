import { DateTime } from 'luxon';
import type { ServerContext } from './context.ts';
import { formatNaiveDateTime, formatOffsetDateTime } from '../contract/formats/index.ts';
import { hashPassword } from './password-hash.ts';
import type { UserRecord } from './records.ts';
import { newUserRecord } from './new-user.ts';

/**
 * Seed data a harness can rely on (documented in docs/reference-server.md, "Seed data"; printed by `clockcheck serve`).
 * IDs are stable because every repository starts empty and counts from 1.
 */
export interface SeedSummary {
  readonly name: SeedName;
  /** The first active user of each role; null where the seed has none (a company just set up has only its admin). */
  readonly activeUserIds: { readonly admin: number; readonly manager: number | null; readonly employee: number | null };
  readonly allActiveUserIds: readonly number[];
  readonly inactiveUserId: number | null;
  readonly jobIds: readonly number[];
  readonly taskIds: readonly number[];
  readonly breakRuleIds: readonly number[];
  readonly timesheetIds: readonly number[];
  /** An open timesheet (end null), for breaks without an upper bound; null where the seed has none. */
  readonly openTimesheetId: number | null;
  readonly breakCount: number;
  /** The seeded webhook subscription's URL; null where the company has subscribed nothing. */
  readonly webhookUrl: string | null;
}

const SEED_CREATED_AT = '2026-09-01T08:00:00';

const SEED_USERS: ReadonlyArray<[first: string, last: string, role: number, active: boolean]> = [
  ['Ada', 'Admin', 1, true],
  ['Max', 'Manager', 2, true],
  ['Emma', 'Employee', 3, true],
  ['Ivan', 'Inactive', 3, false],
  ['Zoe', 'Zimmerman', 3, true],
  ['Bruno', 'Baker', 2, true],
  ['Carla', 'Castillo', 3, true],
  ['Ada', 'Byron', 3, true],
  ['Dmitri', 'Dvorak', 1, true],
  ['Farah', 'Fischer', 3, true],
  ['Gus', 'Garcia', 2, false],
  ['Hana', 'Haddad', 3, true],
];

function seedUser(ctx: ServerContext, first: string, last: string, role: number, active: boolean, passwordHash: string): UserRecord {
  return ctx.users.insert({
    ...newUserRecord(SEED_CREATED_AT),
    first_name: first,
    last_name: last,
    email: `${first}.${last}@seed.clockcheck.test`.toLowerCase(),
    role_id: role,
    active,
    password_hash: passwordHash,
  });
}

/**
 * The seeds a server can start from:
 * - `standard`: 12 users (10 active, every role; 2 inactive), jobs, tasks, break rules, 12 closed
 *   timesheets with 3 breaks each, an open timesheet, a webhook subscription;
 * - `small`: a company of 4 users (an admin, a manager, an employee, an inactive employee), jobs,
 *   tasks, break rules, one closed timesheet with its 3 breaks, a webhook subscription;
 * - `fresh`: a company just set up: its admin user, and the jobs, tasks and break rules the API
 *   cannot create; nothing else.
 */
export const SEED_NAMES = ['standard', 'small', 'fresh'] as const;
export type SeedName = (typeof SEED_NAMES)[number];

/** Users of each seed: the standard seed's, the first four, or the admin alone. */
const USERS_OF: Readonly<Record<SeedName, typeof SEED_USERS>> = {
  standard: SEED_USERS,
  small: SEED_USERS.slice(0, 4),
  fresh: SEED_USERS.slice(0, 1),
};

/** Closed timesheets of each seed (three breaks each). */
const CLOSED_TIMESHEETS_OF: Readonly<Record<SeedName, number>> = { standard: 12, small: 1, fresh: 0 };

/** Fills an empty context with the seed data of `name` (default `standard`: 12 users, jobs, tasks, break rules, 13 timesheets, 36 breaks). */
export function seed(ctx: ServerContext, name: SeedName = 'standard'): SeedSummary {
  const passwordHash = hashPassword('Seed-pass1!');
  const users = USERS_OF[name].map(([first, last, role, active]) => seedUser(ctx, first, last, role, active, passwordHash));
  const jobIds = ['Warehouse', 'Front desk'].map((job) => ctx.jobs.insert({ name: job }).id);
  const taskIds = ['Inventory', 'Cleaning'].map((task) => ctx.tasks.insert({ name: task }).id);
  const breakRuleIds = ['Lunch', 'Rest'].map((rule) => ctx.breakRules.insert({ name: rule }).id);
  const workers = users.filter((u) => u.active).slice(0, 3);
  const closed = seedClosedTimesheets(ctx, workers, jobIds, taskIds, breakRuleIds, CLOSED_TIMESHEETS_OF[name]);
  const open = name === 'standard' ? seedOpenTimesheet(ctx, workers[0] as UserRecord) : null;
  const webhookUrl = name === 'fresh' ? null : 'https://hooks.example.test/clockcheck';
  if (webhookUrl) ctx.webhook = { url: webhookUrl, created_at: SEED_CREATED_AT };

  const byRole = (role: number) => users.find((u) => u.active && u.role_id === role)?.id ?? null;
  return {
    name,
    activeUserIds: { admin: byRole(1) as number, manager: byRole(2), employee: byRole(3) },
    allActiveUserIds: users.filter((u) => u.active).map((u) => u.id),
    inactiveUserId: users.find((u) => !u.active)?.id ?? null,
    jobIds,
    taskIds,
    breakRuleIds,
    timesheetIds: [...closed.timesheetIds, ...(open === null ? [] : [open])],
    openTimesheetId: open,
    breakCount: closed.breakCount,
    webhookUrl,
  };
}

/** The breaks of each seeded day: [hour, minute, length in minutes, break rule (1 Lunch, 2 Rest)]. */
const SEED_BREAKS = [[10, 30, 10, 2], [12, 0, 30, 1], [15, 0, 15, 2]] as const;

/**
 * `count` closed timesheets, one a day from 2026-10-01, 09:00 to 17:00 company time, the workers and
 * the jobs and tasks taking turns, three breaks each.
 */
function seedClosedTimesheets(ctx: ServerContext, workers: readonly UserRecord[], jobIds: readonly number[], taskIds: readonly number[], breakRuleIds: readonly number[], count: number): { timesheetIds: number[]; breakCount: number } {
  const zone = ctx.companyTimezone;
  const timesheetIds: number[] = [];
  let breakCount = 0;
  for (let day = 0; day < count; day++) {
    const date = DateTime.fromObject({ year: 2026, month: 10, day: 1 + day, hour: 9 }, { zone });
    const worker = workers[day % workers.length] as UserRecord;
    const sheet = ctx.timesheets.insert({
      user_id: worker.id,
      start: formatOffsetDateTime(date),
      end: formatOffsetDateTime(date.set({ hour: 17 })),
      start_ms: date.toMillis(),
      end_ms: date.set({ hour: 17 }).toMillis(),
      job_id: jobIds[day % 2] ?? null,
      task_id: taskIds[day % 2] ?? null,
      clock_in_timezone: zone,
      clock_out_timezone: zone,
      notes: day % 3 === 0 ? `Stocktake day ${day + 1}` : `Shift ${day + 1}`,
      mileage: null,
      created_at: SEED_CREATED_AT,
      updated_at: SEED_CREATED_AT,
    });
    timesheetIds.push(sheet.id);
    for (const [hour, minute, length, rule] of SEED_BREAKS) {
      seedBreak(ctx, sheet.id, date, date.set({ hour, minute }), length, breakRuleIds[rule - 1] as number);
      breakCount++;
    }
  }
  return { timesheetIds, breakCount };
}

/** One break of `length` minutes from `start` on the timesheet of `day`, created at 18:00 UTC that day. */
function seedBreak(ctx: ServerContext, timesheetId: number, day: DateTime, start: DateTime, length: number, breakRuleId: number): void {
  ctx.breaks.insert({
    timesheet_id: timesheetId,
    break_rule_id: breakRuleId,
    start: formatOffsetDateTime(start),
    end: formatOffsetDateTime(start.plus({ minutes: length })),
    start_ms: start.toMillis(),
    end_ms: start.plus({ minutes: length }).toMillis(),
    created_at: formatNaiveDateTime(day.toUTC().set({ hour: 18 })),
    updated_at: formatNaiveDateTime(day.toUTC().set({ hour: 18 })),
  });
}

/** An open timesheet (end null) from 2026-10-20 08:00 company time, for breaks without an upper bound; its ID. */
function seedOpenTimesheet(ctx: ServerContext, worker: UserRecord): number {
  const zone = ctx.companyTimezone;
  const openStart = DateTime.fromObject({ year: 2026, month: 10, day: 20, hour: 8 }, { zone });
  return ctx.timesheets.insert({
    user_id: worker.id,
    start: formatOffsetDateTime(openStart),
    end: null,
    start_ms: openStart.toMillis(),
    end_ms: null,
    job_id: null,
    task_id: null,
    clock_in_timezone: zone,
    clock_out_timezone: zone,
    notes: 'Open shift',
    mileage: null,
    created_at: SEED_CREATED_AT,
    updated_at: SEED_CREATED_AT,
  }).id;
}
