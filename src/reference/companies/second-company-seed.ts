import type { ServerContext } from '../context.ts';
import type { Company } from './company.ts';
import { seedInTurn, type CompanySeedPlan, type SeededRecords } from '../seed-records.ts';
import { seedPlan, summaryOf, type SeedName, type SeedSummary } from '../seed.ts';

/** The second company's seed, as a SeedSummary gives the first's, with its schedule. */
export interface SecondCompanySeed extends Omit<SeedSummary, 'name'> {
  readonly scheduleIds: readonly number[];
}

/**
 * The second company's seed, the same whichever seed the first has: 4 users (Nora Owner, admin;
 * Otto Overseer, manager; Ada Ortiz, employee; Olaf Former, inactive employee), a job, a task, two
 * break rules, 2 closed timesheets from 2026-10-01 with 3 breaks each (the notes and days of the
 * first company's first two: a search or a date_range matches in both companies), a schedule and a
 * webhook subscription. An "Ada" of its own: a search for "ada" matches in both companies too.
 */
function secondCompanyPlan(company: Company): CompanySeedPlan {
  return {
    company,
    users: [
      ['Nora', 'Owner', 1, true],
      ['Otto', 'Overseer', 2, true],
      ['Ada', 'Ortiz', 3, true],
      ['Olaf', 'Former', 3, false],
    ],
    emailDomain: 'second.seed.clockcheck.test',
    jobs: ['Kitchen'],
    tasks: ['Prep'],
    breakRules: ['Lunch', 'Rest'],
    closedTimesheets: 2,
    openTimesheet: false,
    schedule: true,
    webhookUrl: 'https://hooks.example.test/second-company',
  };
}

/**
 * Fills an empty context with two companies' seeds: the first company's `name` and the second's
 * (secondCompanyPlan), kind by kind with the companies in turn, so their IDs interleave and each
 * company's have gaps (the first company's IDs differ from its seed alone: its summary says them).
 */
export function seedTwoCompanies(ctx: ServerContext, name: SeedName, second: Company): { first: SeedSummary; second: SecondCompanySeed } {
  const plans = [seedPlan(name, ctx.firstCompany), secondCompanyPlan(second)];
  const [first, other] = seedInTurn(ctx, plans) as [SeededRecords, SeededRecords];
  return {
    first: { name, ...summaryOf(first, plans[0]!) },
    second: { ...summaryOf(other, plans[1]!), scheduleIds: other.scheduleIds },
  };
}
