import type { RuleId } from '../contract/rules.ts';
import type { Profile } from '../profile/profile.ts';

/**
 * The isolation checks between two companies (§1, §5.5: each token is a company administrator's;
 * OWASP API1:2023): what each checks, the rules it judges, and what the pair of them costs. They
 * run as one unit (run-isolation.ts), both ways: the first company's token on the second's records,
 * and the second's on the first's.
 */
export const ISOLATION_UNIT_ID = 'isolation/companies';

export const ISOLATION_CHECKS = {
  'isolation/lists': {
    rules: ['ISO-LIST-SCOPED'],
    title: "a company's lists, searches, `ids` and `date_range` queries show none of another company's records, and a query only they match totals 0 (§1, §5.5, §4.6)",
  },
  'isolation/items': {
    rules: ['ISO-ITEM-SCOPED', 'ISO-FOREIGN-ID'],
    title: "a change by ID of another company's user or schedule is refused with a 4xx, shows none of it and changes nothing (§1, §5.5, §4.1, §4.2)",
  },
  'isolation/references': {
    rules: ['ISO-REFERENCE-SCOPED'],
    title: "a create that references another company's user or timesheet is refused, where the same create referencing the caller's own is accepted (§1, §5.5, §2.1, §2.3, §4.4)",
  },
} as const satisfies Record<string, { readonly rules: readonly RuleId[]; readonly title: string }>;

export type IsolationCheckId = keyof typeof ISOLATION_CHECKS;
export const ISOLATION_CHECK_IDS = Object.keys(ISOLATION_CHECKS) as IsolationCheckId[];
export const ISOLATION_RULES: readonly RuleId[] = [...new Set(ISOLATION_CHECK_IDS.flatMap((id) => ISOLATION_CHECKS[id].rules))];

/** Why the isolation checks are skipped without a second company: the one line the summary shows too. */
export const NO_SECOND_COMPANY = "isolation between companies was not certified: the profile names no second_company.token_env (a second company's administrator token), so no check read or wrote as another company";

/** Per company: the records each writes for the other's probes (a user, its timesheet, a break in it, its schedule). */
export function isolationWrites(profile: Profile): number {
  return profile.second_company === undefined ? 0 : 4;
}

/**
 * The requests the unit sends at most, both ways: in each company its records (isolationWrites), the
 * break rule it names when the profile gives none (one list read), and from the other company's side
 * four queries (a search, a user list, a date_range, an `ids` read), the change of the user by ID
 * and its read back, the schedule's where IDs are global, the three creates that reference the
 * other's records, the timesheet list that shows a timesheet ID names none of its own (IDs not
 * global), and an ID that never existed where the profile asks foreign IDs to be answered as one.
 */
export function isolationRequests(profile: Profile): number {
  const second = profile.second_company;
  if (second === undefined) return 0;
  const global = second.ids === 'global';
  const breakRules = (profile.fixtures.break_rule_id === undefined ? 1 : 0) + (second.break_rule_id === undefined ? 1 : 0);
  const perSide = 4 + 2 + (global ? 1 : 0) + 3 + (global ? 0 : 1) + (second.foreign_ids === 'as-missing' ? 1 : 0);
  return 2 * isolationWrites(profile) + breakRules + 2 * perSide;
}
