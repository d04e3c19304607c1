import { DateTime } from 'luxon';
import { SCHEDULE_FIELDS, scheduleViolations } from '../../contract/payloads/schedule.ts';
import type { Violation } from '../../contract/violation.ts';
import type { Operation } from '../../contract/payloads/field-table.ts';
import type { ServerContext } from '../context.ts';
import type { CompanyScope } from '../companies/company-scope.ts';
import { fromSpec, validationError, type ServerViolation } from '../http/api-response.ts';
import type { ApiRequest, Router } from '../http/router.ts';
import type { ScheduleRecord } from '../records.ts';
import { requireObjectBody, requireOwnRecord } from './require-record.ts';

const isLenientDate = (v: string) =>
  DateTime.fromFormat(v, 'yyyy-MM-dd').isValid || DateTime.fromFormat(v, 'M/d/yyyy').isValid;

/** Spec violations minus the ones a switched-on fault stops checking. */
function faultTolerated(ctx: ServerContext, violations: Violation[], body: Record<string, unknown>, operation: Operation): Violation[] {
  return violations.filter((v) => {
    // The faults are lenient about strings; an array or object is never one, and String() of a
    // deeply nested array overflows the stack.
    const raw = body[v.field];
    const value = typeof raw === 'object' && raw !== null ? '' : String(raw);
    switch (v.ruleId) {
      case 'SCH-DATE-FORMAT':
        if (ctx.fault('date-format-lenient') && isLenientDate(value)) return false;
        // A leap-year rule of every fourth year: 02/29 of a century year not divisible by 400 passes.
        if (ctx.fault('leap-century-accepted') && /^02\/29\/\d\d00$/.test(value) && Number(value.slice(6)) % 4 === 0) return false;
        return !(ctx.fault('date-calendar-unchecked') && /^\d{2}\/\d{2}\/\d{4}$/.test(value));
      case 'SCH-TIME-FORMAT':
        if (ctx.fault('time-24-00-accepted') && /^[0-2]\d:[0-5]\d$/.test(value)) return false;
        return !(ctx.fault('time-12h-accepted') && /^(0?[1-9]|1[0-2]):[0-5]\d ?[AaPp][Mm]$/.test(value));
      case 'SCH-WEEKS-FORMAT':
        return !ctx.fault('weeks-format-unchecked');
      case 'SCH-TIMEZONE-NAME':
        return !ctx.fault('timezone-name-unchecked');
      case 'SCH-TIMES-UNLESS-ALL-DAY':
        return !ctx.fault('all-day-times-not-required') && !(operation === 'update' && ctx.fault('update-conditionals-skipped'));
      case 'SCH-REPEAT-FIELDS':
        if (operation === 'update' && ctx.fault('update-conditionals-skipped')) return false;
        return !(ctx.fault('repeat-end-date-not-required') && v.field === 'repeat_end_date');
      case 'SCH-WEEKLY-WEEKS':
        return !ctx.fault('weekly-weeks-not-required') && !(operation === 'update' && ctx.fault('update-conditionals-skipped'));
      case 'SCH-UPDATE-EVENT-PID':
        return !ctx.fault('update-event-pid-not-required');
      case 'SCH-COLOR-REQUIRED':
        return !ctx.fault('color-not-required');
      default:
        return true;
    }
  });
}

/** Valid values at the edge of their domain, refused under a fault as if they broke their format rule. */
function edgeRefusals(ctx: ServerContext, body: Record<string, unknown>): ServerViolation[] {
  const refused: ServerViolation[] = [];
  for (const field of ['start_time', 'end_time']) {
    if (ctx.fault('time-2359-refused') && body[field] === '23:59') refused.push({ rule: 'SCH-TIME-FORMAT', field, message: `${field} must be a 24-hour time HH:mm` });
  }
  if (ctx.fault('weeks-single-refused') && typeof body.weeks === 'string' && body.weeks !== '' && !body.weeks.includes(',')) {
    refused.push({ rule: 'SCH-WEEKS-FORMAT', field: 'weeks', message: 'weeks must be weekday names joined by commas' });
  }
  for (const field of ['start_date', 'end_date', 'repeat_end_date']) {
    if (ctx.fault('leap-day-refused') && typeof body[field] === 'string' && body[field].startsWith('02/29/')) refused.push({ rule: 'SCH-DATE-FORMAT', field, message: `${field} must be a real date MM/DD/YYYY` });
    // A leap-year rule without the 400: 2000 is taken for a common year.
    if (ctx.fault('leap-2000-refused') && typeof body[field] === 'string' && /^02\/29\/\d\d00$/.test(body[field])) refused.push({ rule: 'SCH-DATE-FORMAT', field, message: `${field} must be a real date MM/DD/YYYY` });
  }
  return refused;
}

/**
 * Checks against storage: assigned_by and user_ids name active users of the company, job_id one of
 * its jobs. Another company's user or job is refused as an unknown one is.
 *
 * Scope spot, the exists-check by ID alone: `users` is the company's; a backend that checks
 * `user_ids` (or `assigned_by`) by ID alone (`company.users.shared` in its place) assigns another
 * company's users.
 */
function referenceViolations(ctx: ServerContext, company: CompanyScope, record: Record<string, unknown>): ServerViolation[] {
  const violations: ServerViolation[] = [];
  const users = ctx.fault('schedule-users-unscoped') ? company.users.shared : company.users;
  const isActive = (id: unknown) => typeof id === 'number' && users.get(id)?.active === true;
  const exists = (id: unknown) => typeof id === 'number' && users.exists(id);
  if (typeof record.assigned_by === 'number' && !isActive(record.assigned_by)) {
    violations.push({ rule: 'SCH-ASSIGNED-BY-ACTIVE', field: 'assigned_by', message: `assigned_by ${record.assigned_by} is not an active user` });
  }
  if (Array.isArray(record.user_ids)) {
    const accept = ctx.fault('inactive-user-assignable') ? exists : isActive;
    const bad = record.user_ids.filter((id) => !accept(id));
    if (bad.length > 0) {
      const shown = bad.map((id) => (typeof id === 'object' && id !== null ? (Array.isArray(id) ? 'an array' : 'an object') : String(id)));
      violations.push({ rule: 'SCH-USER-IDS-ACTIVE', field: 'user_ids', message: `user_ids ${shown.join(', ')} are not active users` });
    }
  }
  if (typeof record.job_id === 'number' && !company.jobs.exists(record.job_id)) {
    violations.push({ rule: null, field: 'job_id', message: `job ${record.job_id} does not exist` });
  }
  return violations;
}

/** A stored schedule as a payload: nulls and bookkeeping fields dropped, so the spec validator can judge a merge. */
function asPayload(record: ScheduleRecord): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (value !== null && name in SCHEDULE_FIELDS) payload[name] = value;
  }
  return payload;
}

function validate(ctx: ServerContext, company: CompanyScope, body: Record<string, unknown>, operation: Operation, stored?: ScheduleRecord) {
  const base = stored ? asPayload(stored) : undefined;
  const record = base ? { ...base, ...body } : body;
  const violations: ServerViolation[] = [
    ...fromSpec(faultTolerated(ctx, scheduleViolations(body, operation, base), record, operation)),
    ...edgeRefusals(ctx, body),
    ...referenceViolations(ctx, company, record),
  ];
  if (ctx.fault('all-day-times-required-anyway') && record.all_day === true) {
    for (const name of ['start_time', 'end_time']) {
      if (record[name] === undefined) violations.push({ rule: null, field: name, message: `${name} is required` });
    }
  }
  if (violations.length > 0) throw validationError(violations);
}

function fieldsOf(body: Record<string, unknown>): Partial<ScheduleRecord> {
  const fields: Record<string, unknown> = {};
  for (const name of Object.keys(SCHEDULE_FIELDS)) if (body[name] !== undefined && name !== 'update_series') fields[name] = body[name];
  return fields as Partial<ScheduleRecord>;
}

/** POST /schedules (§4.1). An omitted timezone becomes the company timezone. */
function createSchedule(ctx: ServerContext, request: ApiRequest) {
  const body = requireObjectBody(request.body);
  validate(ctx, request.company, body, 'create');
  const now = ctx.timestamp();
  const defaults: Omit<ScheduleRecord, 'id' | 'assigned_by' | 'title' | 'repeat' | 'all_day' | 'color' | 'user_ids' | 'start_date' | 'end_date'> = {
    event_pid: null,
    description: null,
    job_id: null,
    timezone: ctx.fault('timezone-default-utc') ? 'UTC' : request.company.timezone,
    publish: true,
    start_time: null,
    end_time: null,
    use_different_address: false,
    street: null,
    city: null,
    state: null,
    country: null,
    zip_code: null,
    repeat_type: null,
    repeat_end_date: null,
    weeks: null,
    created_at: now,
    updated_at: now,
  };
  // validate() has established that the required fields are present with their types.
  const schedule = request.company.schedules.insert({ ...defaults, ...fieldsOf(body) } as Omit<ScheduleRecord, 'id'>);
  request.company.notify('schedules', schedule.id, 'created');
  return ctx.dialect.created('schedule', { ...schedule }, 'Schedule created successfully.');
}

/** PUT /schedules/{schedule_id} (§4.1): partial update; event_pid required; conditionals judged on the merge. */
function updateSchedule(ctx: ServerContext, request: ApiRequest) {
  // Scope spot, the lookup by ID alone: the schedule is looked up within the company, so another
  // company's schedule is a 404 like an ID that never existed; a backend that finds it by ID alone
  // (`request.company.schedules.shared`) updates another company's schedule.
  const stored = requireOwnRecord(request.company.schedules, request.params.scheduleId, 'Schedule', { byIdAlone: ctx.fault('schedule-update-by-id-alone'), foreignForbidden: ctx.fault('foreign-id-forbidden') });
  const body = requireObjectBody(request.body);
  validate(ctx, request.company, body, 'update', stored);
  const schedule = request.company.schedules.replace({ ...stored, ...fieldsOf(body), updated_at: ctx.timestamp() });
  request.company.notify('schedules', schedule.id, 'updated');
  return ctx.dialect.updated('schedule', { ...schedule }, 'Schedule updated successfully.');
}

export function scheduleRoutes(router: Router, ctx: ServerContext): void {
  router.add('POST', '/schedules', (r) => createSchedule(ctx, r)).add('PUT', '/schedules/:scheduleId', (r) => updateSchedule(ctx, r));
}
