import type { RecordId } from '../../../records/created-id.ts';
import { parseOffsetDateTime } from '../../../contract/formats/index.ts';
import type { GeneratorContext } from '../../family.ts';
import { formatInZone } from './format-in-zone.ts';
import { InternalError } from '../../../errors.ts';

/** What break generators need from the context: the timesheet's instants, the break rule, the zone. */
export interface BreakFrame {
  readonly timesheetId: RecordId;
  readonly breakRuleId: RecordId;
  /** Timesheet start and end, UTC ms. */
  readonly start: number;
  readonly end: number;
  /** Whole seconds from the timesheet's start to its end. */
  readonly seconds: number;
  readonly zone: string;
}

/**
 * The break frame of a context.
 * @throws InternalError when it has no closed timesheet or no break rule: its callers make sure it
 *   has (profileContext refuses a profile's fixtures.timesheet that is not one; a run creates its own).
 */
export function breakFrame(ctx: GeneratorContext): BreakFrame {
  const sheet = ctx.timesheet;
  if (!sheet || ctx.breakRuleId === undefined) {
    throw new InternalError('break cases need ctx.timesheet (a closed timesheet) and ctx.breakRuleId');
  }
  const start = parseOffsetDateTime(sheet.start)?.dateTime.toMillis();
  const end = parseOffsetDateTime(sheet.end)?.dateTime.toMillis();
  if (start === undefined || end === undefined || end - start < 2000) {
    throw new InternalError(`ctx.timesheet ${sheet.start}..${sheet.end} is not a closed interval of at least 2 s with offsets`);
  }
  return { timesheetId: sheet.id, breakRuleId: ctx.breakRuleId, start, end, seconds: Math.floor((end - start) / 1000), zone: ctx.companyTimezone };
}

/** A break payload from seconds relative to the timesheet start, written in the company timezone. */
export function breakPayload(frame: BreakFrame, from: number, to: number): Record<string, unknown> {
  return {
    timesheet_id: frame.timesheetId,
    break_rule_id: frame.breakRuleId,
    start: formatInZone(frame.start + from * 1000, frame.zone),
    end: formatInZone(frame.start + to * 1000, frame.zone),
  };
}
