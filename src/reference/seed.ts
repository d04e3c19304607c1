import type { ServerContext } from './context.ts';
import type { Company } from './companies/company.ts';
import { seedInTurn, type CompanySeedPlan, type SeededRecords, type SeedUser } from './seed-records.ts';

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

const SEED_USERS: readonly SeedUser[] = [
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
const USERS_OF: Readonly<Record<SeedName, readonly SeedUser[]>> = {
  standard: SEED_USERS,
  small: SEED_USERS.slice(0, 4),
  fresh: SEED_USERS.slice(0, 1),
};

/** Closed timesheets of each seed (three breaks each). */
const CLOSED_TIMESHEETS_OF: Readonly<Record<SeedName, number>> = { standard: 12, small: 1, fresh: 0 };

/** The seed `name` as a plan for `company` (the first company's seed). */
export function seedPlan(name: SeedName, company: Company): CompanySeedPlan {
  return {
    company,
    users: USERS_OF[name],
    emailDomain: 'seed.clockcheck.test',
    jobs: ['Warehouse', 'Front desk'],
    tasks: ['Inventory', 'Cleaning'],
    breakRules: ['Lunch', 'Rest'],
    closedTimesheets: CLOSED_TIMESHEETS_OF[name],
    openTimesheet: name === 'standard',
    schedule: false,
    webhookUrl: name === 'fresh' ? null : 'https://hooks.example.test/clockcheck',
  };
}

/** What a company's seed stored, as its summary says it (SeedSummary less the seed's name). */
export function summaryOf(records: SeededRecords, plan: CompanySeedPlan): Omit<SeedSummary, 'name'> {
  const { users } = records;
  const byRole = (role: number) => users.find((u) => u.active && u.role_id === role)?.id ?? null;
  return {
    activeUserIds: { admin: byRole(1) as number, manager: byRole(2), employee: byRole(3) },
    allActiveUserIds: users.filter((u) => u.active).map((u) => u.id),
    inactiveUserId: users.find((u) => !u.active)?.id ?? null,
    jobIds: records.jobIds,
    taskIds: records.taskIds,
    breakRuleIds: records.breakRuleIds,
    timesheetIds: [...records.closedTimesheetIds, ...(records.openTimesheetId === null ? [] : [records.openTimesheetId])],
    openTimesheetId: records.openTimesheetId,
    breakCount: records.breakCount,
    webhookUrl: plan.webhookUrl,
  };
}

/**
 * Fills an empty context with the seed data of `name` (default `standard`: 12 users, jobs, tasks,
 * break rules, 13 timesheets, 36 breaks), all of them the first company's.
 */
export function seed(ctx: ServerContext, name: SeedName = 'standard'): SeedSummary {
  const plan = seedPlan(name, ctx.firstCompany);
  const [records] = seedInTurn(ctx, [plan]);
  return { name, ...summaryOf(records as SeededRecords, plan) };
}
