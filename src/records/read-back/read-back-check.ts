import type { RuleId } from '../../contract/rules.ts';
import type { StoredKind } from '../written-record.ts';

/** The run-wide check that reads back what the run wrote: every accepted create and edit of a user, timesheet or break. */
export const READ_BACK_CHECK_ID = 'records/read-back';
export const READ_BACK_RULES: readonly RuleId[] = ['STORE-CREATE', 'STORE-EDIT', 'STORE-TEXT', 'STORE-NUMBER', 'STORE-DATETIME', 'BRK-IDS-FILTER'];
export const READ_BACK_TITLE = 'what the run wrote reads back: every accepted create and edit of a user, timesheet or break, read through the lists and compared field by field by meaning (§1, §2.2, §2.3, §2.4, §4.2)';

/** Records a list page holds when the read asks for the most (§4.6: page_size maximum 100). */
export const READ_PAGE_SIZE = 100;

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
