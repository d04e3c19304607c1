import { parseOffsetDateTime } from '../../contract/formats/index.ts';
import { TIMESHEET_FIELDS, timesheetViolations } from '../../contract/payloads/timesheet.ts';
import type { Violation } from '../../contract/violation.ts';
import type { ServerContext } from '../context.ts';
import type { CompanyScope } from '../companies/company-scope.ts';
import { fromSpec, ok, validationError, type ServerViolation } from '../http/api-response.ts';
import type { ApiRequest, Router } from '../http/router.ts';
import { parseListQuery, sortable, sortRecords } from '../list-query.ts';
import { paginate } from '../pagination.ts';
import type { TimesheetRecord } from '../records.ts';
import { requireObjectBody } from './require-record.ts';
import { timesheetOffsetViolations } from './timesheet-offsets.ts';
import { instantOf } from '../instant.ts';
import { withinDateRange } from './date-range.ts';
import { storedTimesheetFields } from '../stored-form.ts';

const SORTABLE = sortable(['id', 'user_id', 'start', 'end', 'created_at'], { start: 'start_ms', end: 'end_ms' });

/** The timesheet as returned: the stored record without its sort instants. */
function presentTimesheet(sheet: TimesheetRecord): Omit<TimesheetRecord, 'start_ms' | 'end_ms'> {
  const { start_ms: _s, end_ms: _e, ...rest } = sheet;
  return rest;
}
const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

function faultTolerated(ctx: ServerContext, violations: Violation[], body: Record<string, unknown>): Violation[] {
  return violations.filter((v) => {
    if (v.ruleId === 'TS-DATETIME-FORMAT' && ctx.fault('timesheet-naive-datetime')) return !NAIVE.test(String(body[v.field]));
    // Offsets are judged by timesheetOffsetViolations, which knows the offset faults.
    return v.ruleId !== 'TS-OFFSET-MATCHES-TIMEZONE' && v.ruleId !== 'TS-OFFSET-DEFAULT-TIMEZONE';
  });
}

/**
 * Checks against storage: user_id, job_id and task_id name the company's user, job and task; another
 * company's is refused as an unknown one is.
 *
 * Scope spot, the exists-check by ID alone: `company.users` is the company's; a backend that checks
 * `user_id` by ID alone (`company.users.shared` in its place) clocks a timesheet for another company's user.
 */
function referenceViolations(ctx: ServerContext, company: CompanyScope, body: Record<string, unknown>): ServerViolation[] {
  const violations: ServerViolation[] = [];
  const users = ctx.fault('timesheet-user-unscoped') ? company.users.shared : company.users;
  if (typeof body.user_id === 'number' && !users.exists(body.user_id) && !ctx.fault('timesheet-unknown-user')) {
    violations.push({ rule: 'TS-USER-EXISTS', field: 'user_id', message: `user ${body.user_id} does not exist` });
  }
  if (typeof body.job_id === 'number' && !company.jobs.exists(body.job_id)) {
    violations.push({ rule: null, field: 'job_id', message: `job ${body.job_id} does not exist` });
  }
  if (typeof body.task_id === 'number' && !company.tasks.exists(body.task_id)) {
    violations.push({ rule: null, field: 'task_id', message: `task ${body.task_id} does not exist` });
  }
  if (body.end === null && ctx.fault('timesheet-end-null-rejected')) {
    violations.push({ rule: null, field: 'end', message: 'end must be a datetime' });
  }
  const start = typeof body.start === 'string' ? parseOffsetDateTime(body.start) : null;
  const end = typeof body.end === 'string' ? parseOffsetDateTime(body.end) : null;
  if (start && end && end.dateTime < start.dateTime) {
    violations.push({ rule: null, field: 'end', message: 'end is before start' });
  }
  return violations;
}

/** POST /timesheets (§4.3): offsets must match their timezones at that instant; timezones default to the company's. */
function createTimesheet(ctx: ServerContext, request: ApiRequest) {
  const body = requireObjectBody(request.body);
  const { company } = request;
  const zone = company.timezone;
  const violations: ServerViolation[] = [
    ...fromSpec(faultTolerated(ctx, timesheetViolations(body, zone), body)),
    ...fromSpec(timesheetOffsetViolations(ctx, body, zone)),
    ...referenceViolations(ctx, company, body),
  ];
  if (violations.length > 0) throw validationError(violations);
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(TIMESHEET_FIELDS)) if (body[name] !== undefined) fields[name] = body[name];
  const now = ctx.timestamp();
  const written = {
    end: null,
    job_id: null,
    task_id: null,
    notes: null,
    mileage: null,
    ...(fields as Pick<TimesheetRecord, 'user_id' | 'start'>),
    start_ms: instantOf(body.start as string, zone),
    end_ms: typeof body.end === 'string' ? instantOf(body.end, zone) : null,
    clock_in_timezone: typeof body.clock_in_timezone === 'string' ? body.clock_in_timezone : zone,
    clock_out_timezone: typeof body.clock_out_timezone === 'string' ? body.clock_out_timezone : zone,
    created_at: now,
    updated_at: now,
  };
  const sheet = company.timesheets.insert(storedTimesheetFields(ctx, written));
  company.notify('timesheets', sheet.id, 'created');
  // The answer shows what was written; a stored-form fault shows only when the timesheet is read again (stored-form.ts).
  return ctx.dialect.created('timesheet', presentTimesheet({ ...written, id: sheet.id }), 'Timesheet created successfully.');
}

/** GET /timesheets (§4.3 example of date_range): date_range on the start's local date, search on notes; the company's timesheets only. */
function listTimesheets(ctx: ServerContext, request: ApiRequest) {
  const list = parseListQuery(request.query, SORTABLE, ctx);
  const range = list.dateRange;
  const needle = list.search?.toLowerCase() ?? null;
  const { records, total } = request.company.timesheets.listed(
    (s) => (range === null || withinDateRange(s.start, range)) && (needle === null || (s.notes ?? '').toLowerCase().includes(needle)),
  );
  return ok(ctx.dialect.list('timesheet', paginate(sortRecords(records, list.sort, ctx), list, request, ctx, (s) => ctx.dialect.record('timesheet', presentTimesheet(s)), total)));
}

export function timesheetRoutes(router: Router, ctx: ServerContext): void {
  router.add('POST', '/timesheets', (r) => createTimesheet(ctx, r)).add('GET', '/timesheets', (r) => listTimesheets(ctx, r));
}
