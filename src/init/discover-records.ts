import { isOffsetDateTime } from '../contract/formats/index.ts';
import { readField } from '../records/field-name.ts';
import type { RecordReading } from '../records/record-reading.ts';
import { asNumber } from '../records/same-meaning.ts';
import { found, notFound, type Discovery } from './discovery.ts';
import type { ListAnswer } from './list-answer.ts';

/** What the timesheet list shows: a job, a task, a closed timesheet, and the zones its records name. */
export interface TimesheetFixtures {
  readonly jobId: Discovery<number>;
  readonly taskId: Discovery<number>;
  readonly timesheet: Discovery<{ id: number; start: string; end: string }>;
  /** clock_in_timezone values the records name, most frequent first, with their counts. */
  readonly zones: ReadonlyArray<readonly [string, number]>;
}

const positiveId = (value: unknown): number | null => {
  const n = asNumber(value);
  return n !== null && Number.isSafeInteger(n) && n > 0 ? n : null;
};

/** The first ID a field holds across the records; 0 and null mean none (Laravel writes task_id 0). */
function firstReference(list: ListAnswer, field: string, reading: RecordReading, what: string, needs: string): Discovery<number> {
  if (!list.items) return notFound(`${list.said}: no timesheet list to read ${field} from; ${needs}`);
  for (const item of list.items) {
    const value = readField(item, field, reading.fields);
    const id = value.found ? positiveId(value.value) : null;
    const sheet = positiveId((item as { id?: unknown }).id);
    if (id !== null) return found(id, `${list.said}: timesheet ${sheet ?? '?'} names ${what} ${id}`);
  }
  const shown = list.items.some((item) => readField(item, field, reading.fields).found);
  return notFound(`${list.said}: ${list.items.length} timesheets, ${shown ? `none names a ${what} (${field} 0 or null means none)` : `their records do not show ${field}`}; ${needs}`);
}

/**
 * Reads a job, a task and a closed timesheet from GET /timesheets (§2.3; the record is not shown,
 * so the fields are looked up in either spelling and the IDs by meaning). A timesheet counts only
 * with start and end in ISO 8601 with offset: a record that writes them without an offset (e.g.
 * `clock_in_time`) does not say which instant it means, so it is left for the user.
 */
export function discoverTimesheets(list: ListAnswer, reading: RecordReading): TimesheetFixtures {
  const zones = new Map<string, number>();
  for (const item of list.items ?? []) {
    const zone = readField(item, 'clock_in_timezone', reading.fields);
    if (zone.found && typeof zone.value === 'string') zones.set(zone.value, (zones.get(zone.value) ?? 0) + 1);
  }
  let timesheet: Discovery<{ id: number; start: string; end: string }> = notFound(
    list.items ? `${list.said}: no closed timesheet with start and end in ISO 8601 with offset (the records do not show them so); \`clockcheck fuzz break\` needs one: give its id, start and end` : `${list.said}: no timesheet list`,
  );
  for (const item of list.items ?? []) {
    const id = positiveId((item as { id?: unknown }).id);
    const pairs: Array<[string, string]> = [['start', 'end'], ['clock_in_time', 'clock_out_time']];
    for (const [from, to] of pairs) {
      const start = readField(item, from, reading.fields).value;
      const end = readField(item, to, reading.fields).value;
      if (id !== null && typeof start === 'string' && typeof end === 'string' && isOffsetDateTime(start) && isOffsetDateTime(end)) {
        timesheet = found({ id, start, end }, `${list.said}: timesheet ${id} is closed, ${start} to ${end}`);
        break;
      }
    }
    if (timesheet.value !== undefined) break;
  }
  return {
    jobId: firstReference(list, 'job_id', reading, 'job', 'the timesheet and schedule checks with a job are skipped without one'),
    taskId: firstReference(list, 'task_id', reading, 'task', 'the timesheet check with a task is skipped without one'),
    timesheet,
    zones: [...zones.entries()].sort((a, b) => b[1] - a[1]),
  };
}

/** A break rule from GET /breaks: §2.4 shows `break_rule_id` on every listed break. */
export function discoverBreakRule(list: ListAnswer): Discovery<number> {
  if (!list.items) return notFound(`${list.said}: no break list; the break checks need a break rule: name one`);
  for (const item of list.items) {
    const id = positiveId((item as { break_rule_id?: unknown } | null)?.break_rule_id);
    if (id !== null) return found(id, `${list.said}: break ${String((item as { id?: unknown }).id)} has break_rule_id ${id}`);
  }
  return notFound(`${list.said}: ${list.items.length === 0 ? 'the target has no breaks' : 'no listed break names a break rule'}, so no break rule is known; the break checks and the break property family are skipped until you name one (the break rules are set up in the web app)`);
}
