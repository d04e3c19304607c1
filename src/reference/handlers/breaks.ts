import { storedBreakTime } from '../stored-form.ts';
import { breakIntervalViolations, breakViolations, breaksListBody } from '../../contract/payloads/break.ts';
import type { ServerContext } from '../context.ts';
import type { CompanyScope } from '../companies/company-scope.ts';
import { fromSpec, ok, validationError, type ServerViolation } from '../http/api-response.ts';
import type { ApiRequest, Router } from '../http/router.ts';
import { parseListQuery, sortable, sortRecords } from '../list-query.ts';
import { paginate } from '../pagination.ts';
import type { BreakRecord } from '../records.ts';
import { instantOf } from '../instant.ts';
import { requireObjectBody } from './require-record.ts';
import { withinDateRange } from './date-range.ts';

const SORTABLE = sortable(['id', 'start', 'end', 'break_rule_id', 'created_at'], { start: 'start_ms', end: 'end_ms' });
const NAIVE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** §2.4: length in seconds, end minus start (in minutes under the `break-duration-minutes` fault). */
function duration(ctx: ServerContext, record: BreakRecord): number {
  const seconds = Math.round((record.end_ms - record.start_ms) / 1000);
  if (ctx.fault('break-duration-whole-minutes')) return Math.floor(seconds / 60) * 60;
  return ctx.fault('break-duration-minutes') ? Math.round(seconds / 60) : seconds;
}

function timestamp(ctx: ServerContext, value: string): string {
  return ctx.fault('break-timestamps-with-offset') ? `${value}Z` : value;
}

/** §2.4: a break as the list operation returns it. */
function listedForm(ctx: ServerContext, record: BreakRecord) {
  const lengthName = ctx.fault('break-list-duration-name') ? 'duration' : 'duration_in_seconds';
  return {
    id: record.id,
    start: record.start,
    end: record.end,
    break_rule_id: record.break_rule_id,
    [lengthName]: duration(ctx, record),
    created_at: timestamp(ctx, record.created_at),
    updated_at: timestamp(ctx, record.updated_at),
  };
}

/** §2.4: a break as the create operation returns it: `duration`, plus `timesheet_id`. */
function createdForm(ctx: ServerContext, record: BreakRecord) {
  return {
    id: record.id,
    ...(ctx.fault('break-create-no-timesheet-id') ? {} : { timesheet_id: record.timesheet_id }),
    start: record.start,
    end: record.end,
    break_rule_id: record.break_rule_id,
    duration: duration(ctx, record),
    created_at: timestamp(ctx, record.created_at),
    updated_at: timestamp(ctx, record.updated_at),
  };
}

/**
 * Checks against storage: timesheet_id and break_rule_id name the company's timesheet and break rule;
 * another company's is refused as an unknown one is.
 *
 * Scope spot, the exists-check by ID alone: `company.timesheets` is the company's; a backend that
 * reads `timesheet_id` by ID alone (`company.timesheets.shared` in its place) adds a break to another
 * company's timesheet.
 */
function referenceViolations(ctx: ServerContext, company: CompanyScope, body: Record<string, unknown>): ServerViolation[] {
  const violations: ServerViolation[] = [];
  const timesheets = ctx.fault('break-timesheet-unscoped') ? company.timesheets.shared : company.timesheets;
  const sheet = typeof body.timesheet_id === 'number' ? timesheets.get(body.timesheet_id) : undefined;
  if (typeof body.timesheet_id === 'number' && !sheet) {
    violations.push({ rule: 'BRK-REFERENCES-EXIST', field: 'timesheet_id', message: `timesheet ${body.timesheet_id} does not exist` });
  }
  if (typeof body.break_rule_id === 'number' && !company.breakRules.exists(body.break_rule_id) && !ctx.fault('break-unknown-rule')) {
    violations.push({ rule: 'BRK-REFERENCES-EXIST', field: 'break_rule_id', message: `break rule ${body.break_rule_id} does not exist` });
  }
  if (sheet && typeof body.start === 'string' && typeof body.end === 'string') {
    const interval = breakIntervalViolations(body.start, body.end, sheet).filter(
      (v) => !(v.ruleId === 'BRK-WITHIN-TIMESHEET' && ctx.fault('break-outside-timesheet')),
    );
    violations.push(...fromSpec(interval));
  }
  return violations;
}

/** POST /breaks (§4.4): `{items, message}` with the break in its create form. */
function createBreak(ctx: ServerContext, request: ApiRequest) {
  const body = requireObjectBody(request.body);
  const format = breakViolations(body).filter(
    (v) => !(v.ruleId === 'BRK-DATETIME-FORMAT' && ctx.fault('break-naive-datetime') && NAIVE.test(String(body[v.field]))),
  );
  const { company } = request;
  const zone = company.timezone;
  const violations = [...fromSpec(format), ...referenceViolations(ctx, company, body)];
  if (violations.length > 0) throw validationError(violations);
  const now = ctx.timestamp();
  const written = {
    timesheet_id: body.timesheet_id as number,
    break_rule_id: body.break_rule_id as number,
    start: body.start as string,
    end: body.end as string,
    start_ms: instantOf(body.start as string, zone),
    end_ms: instantOf(body.end as string, zone),
    created_at: now,
    updated_at: now,
  };
  const [start, end] = [storedBreakTime(ctx, written.start, zone), storedBreakTime(ctx, written.end, zone)];
  const record = company.breaks.insert({ ...written, start, end, start_ms: instantOf(start, zone), end_ms: instantOf(end, zone) });
  company.notify('breaks', record.id, 'created');
  // The answer shows what was written; a stored-form fault shows only when the break is read again (stored-form.ts).
  return ctx.dialect.breakCreated(createdForm(ctx, { ...written, id: record.id }), ctx.fault('break-create-no-message') ? null : 'Break added successfully.');
}

/** The IDs the GET /breaks body selects (§4.4), or null for all; a 422 for a malformed `ids`. */
function selectedIds(ctx: ServerContext, body: unknown): number[] | null {
  if (body === undefined) return null;
  const parsed = breaksListBody.safeParse(body);
  if (!parsed.success) {
    throw validationError([{ rule: null, field: 'ids', message: 'ids must be an array of integers or null' }]);
  }
  const ids = parsed.data.ids;
  if (ctx.fault('break-ids-ignored')) return null;
  if (ids && ids.length === 0 && ctx.fault('break-ids-empty-none')) return [];
  if (ids && ids.length > 10 && ctx.fault('break-ids-first-ten')) return ids.slice(0, 10);
  return ids && ids.length > 0 ? ids : null;
}

/** GET /breaks (§4.4): optional JSON body `ids`, pagination, sort, date_range on the start's date; the company's breaks only. */
function listBreaks(ctx: ServerContext, request: ApiRequest) {
  const ids = selectedIds(ctx, request.body);
  const list = parseListQuery(request.query, SORTABLE, ctx);
  const wanted = ids === null ? null : new Set(ids);
  const range = list.dateRange;
  // Scope spot, the `ids` filter without the scope: the IDs select among the company's breaks, so
  // another company's ID selects nothing; a backend that reads `WHERE id IN (…)` alone lists another
  // company's breaks by their IDs: under a fault, `breaks.listedEscaping(<in range>, (b) => wanted.has(b.id))`
  // when `wanted` is given.
  const inRange = (b: Readonly<BreakRecord>) => range === null || withinDateRange(b.start, range);
  const { records, total } =
    wanted !== null && ctx.fault('break-ids-unscoped')
      ? request.company.breaks.listedEscaping(() => false, (b) => wanted.has(b.id) && inRange(b))
      : request.company.breaks.listed((b) => (wanted === null || wanted.has(b.id)) && inRange(b));
  return ok(ctx.dialect.list('break', paginate(sortRecords(records, list.sort, ctx), list, request, ctx, (b) => listedForm(ctx, b), total)));
}

export function breakRoutes(router: Router, ctx: ServerContext): void {
  router.add('POST', '/breaks', (r) => createBreak(ctx, r)).add('GET', '/breaks', (r) => listBreaks(ctx, r));
}
