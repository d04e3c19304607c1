import type { z } from 'zod';
import { SCHEDULE_CONDITIONS, type ConditionalRule } from './conditions.ts';
import { BREAK_FIELDS, breakViolations } from './payloads/break.ts';
import type { FieldTable, Operation } from './payloads/field-table.ts';
import { SCHEDULE_FIELDS, scheduleViolations } from './payloads/schedule.ts';
import { TIMESHEET_FIELDS, timesheetViolations } from './payloads/timesheet.ts';
import { USER_FIELDS, userViolations } from './payloads/user.ts';
import { breakCreateResponse, breakListResponse } from './responses.ts';
import type { RuleId } from './rules.ts';
import type { Violation } from './violation.ts';

/** What a body's check needs besides the body: the company timezone, and on update the stored record. */
export interface ViolationContext {
  readonly companyTimezone: string;
  readonly stored?: Readonly<Record<string, unknown>>;
}

/** A request body as the spec model has it: a field table, for one operation, with its conditional rules. */
export interface RequestModel {
  readonly table: FieldTable;
  readonly operation: Operation;
  readonly conditions: readonly ConditionalRule[];
  /** The spec model's check of a body of this operation (the payloads' own validator). */
  readonly violations: (body: Readonly<Record<string, unknown>>, context: ViolationContext) => Violation[];
  /** Rules of the body the schema cannot say (cross-field, or about stored data), as `x-clockcheck-rules`. */
  readonly beyondSchema: readonly { readonly rule: RuleId; readonly why: string }[];
}

/** The query parameters of a list (§4.6), by name. */
export type ListParameter = 'page' | 'page_size' | 'sort' | 'search' | 'date_range' | 'active' | 'role';

/** One operation of the API (spec §4): its request, parameters, shown response and rules (the OpenAPI document, regressions.yaml). */
export interface OperationModel {
  readonly method: 'get' | 'post' | 'put' | 'delete';
  /** The path under `{base_url}/api/public`, OpenAPI style. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly section: string;
  readonly pathParameter?: { readonly name: string; readonly description: string };
  readonly request?: RequestModel;
  /** GET /breaks takes its `ids` filter as a JSON body (§4.4). */
  readonly idsBody?: boolean;
  readonly query?: readonly ListParameter[];
  /** The success response the spec shows; absent where it is "not shown". */
  readonly response?: { readonly schema: z.ZodType; readonly rules: readonly RuleId[] };
  /** The operation's own rules beyond those of its body and parameters. */
  readonly rules: readonly RuleId[];
}

const LIST: readonly ListParameter[] = ['page', 'page_size', 'sort', 'search', 'date_range'];
const OFFSETS_MATCH = { rule: 'TS-OFFSET-MATCHES-TIMEZONE', why: "each offset is the one its timezone (clock_in_timezone / clock_out_timezone, else the company's) has at that instant" } as const;

/** Spec §4: every documented operation, in the spec's order. */
export const OPERATIONS: readonly OperationModel[] = [
  {
    method: 'post',
    path: '/schedules',
    operationId: 'createSchedule',
    summary: 'Create a schedule',
    section: '4.1, 2.1',
    request: { table: SCHEDULE_FIELDS, operation: 'create', conditions: SCHEDULE_CONDITIONS, violations: (body) => scheduleViolations(body, 'create'), beyondSchema: [{ rule: 'SCH-USER-IDS-ACTIVE', why: 'user_ids name active users' }] },
    rules: ['SCH-USER-IDS-ACTIVE', 'SCH-ASSIGNED-BY-ACTIVE'],
  },
  {
    method: 'put',
    path: '/schedules/{schedule_id}',
    operationId: 'updateSchedule',
    summary: 'Update a schedule',
    section: '4.1, 2.1',
    pathParameter: { name: 'schedule_id', description: 'The schedule to update.' },
    request: {
      table: SCHEDULE_FIELDS,
      operation: 'update',
      conditions: SCHEDULE_CONDITIONS,
      violations: (body, context) => scheduleViolations(body, 'update', context.stored),
      beyondSchema: [{ rule: 'SCH-UPDATE-CONDITIONALS', why: 'the conditional rules of create hold on update too, on the stored schedule with the changes' }],
    },
    rules: [],
  },
  {
    method: 'post',
    path: '/users',
    operationId: 'createUser',
    summary: 'Create a user',
    section: '4.2, 2.2',
    request: { table: USER_FIELDS, operation: 'create', conditions: [], violations: (body) => userViolations(body, 'create'), beyondSchema: [] },
    rules: ['USR-ROLE-ID-DEFAULT', 'USR-TRACK-LOCATION-DEFAULT', 'USR-TRACK-MILEAGE-DEFAULT', 'USR-PAY-RATE-DEFAULT', 'USR-BILLING-RATE-TYPE-DEFAULT'],
  },
  {
    method: 'put',
    path: '/users/{user_id}',
    operationId: 'editUser',
    summary: 'Edit a user',
    section: '4.2, 2.2',
    pathParameter: { name: 'user_id', description: 'The user to edit.' },
    request: { table: USER_FIELDS, operation: 'update', conditions: [], violations: (body) => userViolations(body, 'update'), beyondSchema: [] },
    rules: ['PUT-PARTIAL'],
  },
  { method: 'get', path: '/users', operationId: 'listUsers', summary: 'List users', section: '4.2, 4.6', query: [...LIST, 'active', 'role'], rules: ['USR-LIST-FILTER-ACTIVE', 'USR-LIST-FILTER-ROLE'] },
  {
    method: 'post',
    path: '/timesheets',
    operationId: 'createTimesheet',
    summary: 'Create a timesheet',
    section: '4.3, 2.3',
    request: { table: TIMESHEET_FIELDS, operation: 'create', conditions: [], violations: (body, context) => timesheetViolations(body, context.companyTimezone), beyondSchema: [OFFSETS_MATCH, { rule: 'TS-OFFSET-DEFAULT-TIMEZONE', why: "without a timezone, the offsets are the company timezone's" }, { rule: 'TS-USER-EXISTS', why: 'user_id names an existing user' }] },
    rules: ['TS-USER-EXISTS'],
  },
  { method: 'get', path: '/timesheets', operationId: 'listTimesheets', summary: 'List timesheets', section: '4.3, 4.6', query: LIST, rules: [] },
  {
    method: 'post',
    path: '/breaks',
    operationId: 'createBreak',
    summary: 'Create a break',
    section: '4.4, 2.4',
    request: {
      table: BREAK_FIELDS,
      operation: 'create',
      conditions: [],
      violations: (body) => breakViolations(body),
      beyondSchema: [
        { rule: 'BRK-WITHIN-TIMESHEET', why: "the break lies inside its timesheet's start and end" },
        { rule: 'BRK-REFERENCES-EXIST', why: 'timesheet_id and break_rule_id name existing records' },
      ],
    },
    response: { schema: breakCreateResponse, rules: ['BRK-CREATE-RESPONSE', 'BRK-CREATE-SHAPE', 'BRK-TIMESTAMP-FORMAT'] },
    rules: ['BRK-DURATION'],
  },
  {
    method: 'get',
    path: '/breaks',
    operationId: 'listBreaks',
    summary: 'List breaks',
    section: '4.4, 2.4, 2.5',
    idsBody: true,
    query: ['page', 'page_size', 'sort', 'date_range'],
    response: { schema: breakListResponse, rules: ['BRK-LIST-RESPONSE', 'BRK-LIST-SHAPE', 'BRK-TIMESTAMP-FORMAT', 'PAG-BLOCK-FIELDS'] },
    rules: ['BRK-IDS-FILTER', 'BRK-IDS-ALL', 'BRK-DURATION'],
  },
  {
    method: 'delete',
    path: '/webhooks/subscription/unsubscribe',
    operationId: 'unsubscribeWebhook',
    summary: 'Remove the webhook subscription',
    section: '4.5, 6',
    rules: ['WH-UNSUBSCRIBE'],
  },
];

/**
 * The operation a request goes to: `method` and `path` under the API prefix (a `{name}` segment of
 * an operation's path matches any one segment; a query string is ignored). undefined for none.
 */
export function operationFor(method: string, path: string): OperationModel | undefined {
  const segments = path.split('?')[0]!.replace(/\/+$/, '').split('/');
  return OPERATIONS.find((o) => {
    if (o.method !== method.toLowerCase()) return false;
    const wanted = o.path.split('/');
    return wanted.length === segments.length && wanted.every((part, i) => /^\{.+\}$/.test(part) || part === segments[i]);
  });
}
