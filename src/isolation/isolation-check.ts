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


/** Per company: the records each writes for the other's probes (a user, its timesheet, a break in it, its schedule). */
export function isolationWrites(profile: Profile): number {
  return profile.second_company === undefined ? 0 : 4;
}

/**
 * The requests the unit sends at most, by the token that sends them. Each company: its records
 * (isolationWrites), the break rule its break names when the profile gives none (one list read),
 * its read back of its user after the other's change, and where IDs are not global its user and
 * timesheet lists (which show an ID names none of its own). The first company's probes of the
 * second's records: a search for the mark, an `ids` read, the change of the user, the references of
 * a timesheet and a schedule. The second company's of the first's: those, a date_range, the change
 * of the schedule (IDs global), a break's reference, and an ID that never existed where the profile
 * reads foreign IDs as missing.
 */
export function isolationRequests(profile: Profile): { readonly first: number; readonly second: number } {
  const second = profile.second_company;
  if (second === undefined) return { first: 0, second: 0 };
  const global = second.ids === 'global';
  const own = isolationWrites(profile) + 1 + (global ? 0 : 2);
  const first = own + (profile.fixtures.break_rule_id === undefined ? 1 : 0) + 5;
  const secondShare = own + (second.break_rule_id === undefined ? 1 : 0) + 5 + 1 + (global ? 1 : 0) + 1 + (second.foreign_ids === 'as-missing' ? 1 : 0);
  return { first, second: secondShare };
}
