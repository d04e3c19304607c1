import { formatDuration } from '../../duration.ts';
import type { StoredKind } from '../written-record.ts';
import { recordKey, type KeptRecord } from './kept-record.ts';
import type { Found } from './list-reader.ts';

/** The read-back's one-line summary: what of each kind was read back, in how many requests, the fields judged, and what got in the way. */
export function summaryOf(records: readonly KeptRecord[], found: ReadonlyMap<string, Found>, fields: number, unnamed: number, problems: readonly string[], settleMs: number, differed: boolean, sent: number): string {
  const kinds: StoredKind[] = ['user', 'timesheet', 'break'];
  const parts = kinds.flatMap((kind) => {
    const all = records.filter((r) => r.kind === kind);
    if (all.length === 0) return [];
    const read = all.filter((r) => found.has(recordKey(r))).length;
    return [`${read} of ${all.length} ${kind}${all.length === 1 ? '' : 's'}`];
  });
  const notes = [
    ...(unnamed > 0 ? [`${unnamed} create answer${unnamed === 1 ? '' : 's'} named no ID to find ${unnamed === 1 ? 'its record' : 'theirs'} by`] : []),
    ...(differed ? [`what differed was read again after ${formatDuration(settleMs)} (read_back.settle)`] : []),
    ...problems.slice(0, 3),
  ];
  return `read back ${parts.join(', ')} the run wrote, in ${sent} request${sent === 1 ? '' : 's'}; ${fields} field${fields === 1 ? '' : 's'} judged${notes.length > 0 ? `; ${notes.join('; ')}` : ''}`;
}
