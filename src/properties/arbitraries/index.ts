/**
 * The generators of the property checks and of `clockcheck fuzz`: fast-check arbitraries of values
 * in the spec's formats and of whole request payloads, valid or breaking exactly one rule.
 */
// values, valid and invalid (invalid ones labelled with why)
export { usDate, type UsDateConstraints } from './us-date.ts';
export { invalidUsDate } from './invalid-us-date.ts';
export { ymdDateRange } from './ymd-date-range.ts';
export { clockTime } from './clock-time.ts';
export { invalidClockTime } from './invalid-clock-time.ts';
export { offsetDateTime } from './offset-date-time.ts';
export { invalidOffsetDateTime } from './invalid-offset-date-time.ts';
export { lenientOffsetDateTime } from './lenient-offset-date-time.ts';
export { zoneInstant, type ZoneInstant, type ZoneInstantConstraints } from './zone-instant.ts';
export { zoneOffsetMismatch, type ZoneOffsetMismatch } from './zone-offset-mismatch.ts';
export { timezoneName } from './timezone-name.ts';
export { invalidTimezoneName } from './invalid-timezone-name.ts';
export { weekdayList } from './weekday-list.ts';
export { invalidWeekdayList } from './invalid-weekday-list.ts';
export { password } from './password.ts';
export { invalidPassword } from './invalid-password.ts';
export { employeeCode } from './employee-code.ts';
export { invalidEmployeeCode } from './invalid-employee-code.ts';
export type { LabelledValue, RuleBreakingValue } from './_internals/labelled-value.ts';
// whole payloads, as GeneratedCase
export { scheduleCase, REPEAT_TYPES, type RepeatType, type ScheduleCaseOptions } from './schedule-case.ts';
export { invalidScheduleCase, SCHEDULE_BREAKABLE_RULES } from './invalid-schedule-case.ts';
export { userCase, type UserCaseOptions } from './user-case.ts';
export { invalidUserCase, USER_BREAKABLE_RULES } from './invalid-user-case.ts';
export { timesheetCase, type TimesheetCaseOptions } from './timesheet-case.ts';
export { invalidTimesheetCase, TIMESHEET_BREAKABLE_RULES } from './invalid-timesheet-case.ts';
export { breakCase } from './break-case.ts';
export { invalidBreakCase, BREAK_BREAKABLE_RULES } from './invalid-break-case.ts';
