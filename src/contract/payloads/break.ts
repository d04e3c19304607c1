import { z } from 'zod';
import { isOffsetDateTime, parseOffsetDateTime } from '../formats/index.ts';
import { OFFSET_DATETIME_SCHEMA } from '../formats/json-schema.ts';
import type { Violation } from '../violation.ts';
import { field, format, type FieldTable } from './field-table.ts';
import { payloadSchema } from './payload-schema.ts';
import { isJsonObject, tableViolations } from './validate.ts';

const required = { requiredOn: ['create'] as const, requiredRule: 'BRK-CREATE-REQUIRED' as const };
const datetime = format('BRK-DATETIME-FORMAT', isOffsetDateTime, 'expected ISO 8601 with offset YYYY-MM-DDTHH:MM:SS±HH:MM', OFFSET_DATETIME_SCHEMA);

/** Spec §4.4: the break create payload. The spec gives no type rule of its own; JSON types fall under the required rule. */
export const BREAK_FIELDS = {
  timesheet_id: field(z.number().int(), 'BRK-CREATE-REQUIRED', required),
  break_rule_id: field(z.number().int(), 'BRK-CREATE-REQUIRED', required),
  start: field(z.string(), 'BRK-DATETIME-FORMAT', { ...required, formats: [datetime] }),
  end: field(z.string(), 'BRK-DATETIME-FORMAT', { ...required, formats: [datetime] }),
} satisfies FieldTable;

/** A break create payload (spec §4.4). */
export interface BreakPayload {
  timesheet_id?: number;
  break_rule_id?: number;
  start?: string;
  end?: string;
}

/** The spec rules a break create payload breaks on its own (§4.4); see `breakIntervalViolations` for the timesheet. */
export function breakViolations(body: Readonly<Record<string, unknown>>): Violation[] {
  return tableViolations(BREAK_FIELDS, body, 'create');
}

/** A timesheet's interval: `end` null or absent means the timesheet is still open. */
export interface TimesheetInterval {
  readonly start: string;
  readonly end?: string | null;
}

/**
 * §1, §2.4: a break is an interval inside its timesheet. Also flags an end before the start
 * (`BRK-END-AFTER-START`, a profile rule). Values that do not parse are left to the format rule.
 */
export function breakIntervalViolations(
  breakStart: string,
  breakEnd: string,
  timesheet: TimesheetInterval,
): Violation[] {
  const start = parseOffsetDateTime(breakStart)?.dateTime.toMillis();
  const end = parseOffsetDateTime(breakEnd)?.dateTime.toMillis();
  const sheetStart = parseOffsetDateTime(timesheet.start)?.dateTime.toMillis();
  const sheetEnd = timesheet.end ? parseOffsetDateTime(timesheet.end)?.dateTime.toMillis() : undefined;
  if (start === undefined || end === undefined || sheetStart === undefined) return [];
  const violations: Violation[] = [];
  if (end < start) {
    violations.push({ ruleId: 'BRK-END-AFTER-START', field: 'end', message: 'end is before start' });
  }
  if (start < sheetStart || (sheetEnd !== undefined && end > sheetEnd)) {
    violations.push({
      ruleId: 'BRK-WITHIN-TIMESHEET',
      field: start < sheetStart ? 'start' : 'end',
      message: `the break ${breakStart}..${breakEnd} is outside its timesheet ${timesheet.start}..${timesheet.end ?? '(open)'}`,
    });
  }
  return violations;
}

export const breakCreatePayload = payloadSchema<BreakPayload>('break create', breakViolations);

/** Spec §4.4: the GET /breaks body: `ids`, an array of integers, optional; null, empty or absent means all. */
export const breaksListBody = z.object({ ids: z.array(z.number().int()).nullable().optional() });

/** The IDs a GET /breaks body selects, or null when it selects all breaks (ids null, empty or absent). */
export function selectedBreakIds(body: unknown): number[] | null {
  if (!isJsonObject(body)) return null;
  const parsed = breaksListBody.safeParse(body);
  if (!parsed.success || !parsed.data.ids || parsed.data.ids.length === 0) return null;
  return parsed.data.ids;
}
