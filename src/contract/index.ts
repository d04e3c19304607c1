/** The API as the spec states it: formats, payload rules, response fragments, the rule catalog. */
export * from './formats/index.ts';
export * as primitives from './primitives.ts';
export { RULES, ruleById, isRuleId, type Rule, type RuleId, type RuleBasis, type RuleFamily } from './rules.ts';
export type { Violation } from './violation.ts';
export { SCHEDULE_CONDITIONS, conditionalViolations, conditionallyRequiredFields, type ConditionalRule } from './conditions.ts';
export type { Operation, FieldSpec, FieldTable } from './payloads/field-table.ts';
export { isJsonObject } from './payloads/validate.ts';
export {
  SCHEDULE_FIELDS,
  scheduleViolations,
  scheduleCreatePayload,
  scheduleUpdatePayload,
  type SchedulePayload,
} from './payloads/schedule.ts';
export {
  USER_FIELDS,
  USER_DEFAULTS,
  USER_DEFAULT_RULES,
  USER_OPTION_FLAGS,
  ROLE_IDS,
  BILLING_RATE_TYPES,
  EMPLOYEE_CODE_SHAPE,
  userViolations,
  userCreatePayload,
  userEditPayload,
  type UserPayload,
} from './payloads/user.ts';
export { PASSWORD_MIN_LENGTH, PASSWORD_CLASSES, missingPasswordClasses, passwordRuleBreaks, type PasswordClass } from './payloads/password.ts';
export {
  TIMESHEET_FIELDS,
  timesheetViolations,
  offsetZoneViolations,
  governingZone,
  timesheetCreatePayload,
  type TimesheetPayload,
} from './payloads/timesheet.ts';
export {
  BREAK_FIELDS,
  breakViolations,
  breakIntervalViolations,
  breakCreatePayload,
  breaksListBody,
  selectedBreakIds,
  type BreakPayload,
  type TimesheetInterval,
} from './payloads/break.ts';
export * from './responses.ts';
