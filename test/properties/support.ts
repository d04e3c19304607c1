import fc from 'fast-check';
import { DateTime } from 'luxon';
import { formatOffsetDateTime } from '../../src/contract/formats/index.ts';
import { breakIntervalViolations, breakViolations } from '../../src/contract/payloads/break.ts';
import { scheduleViolations } from '../../src/contract/payloads/schedule.ts';
import { timesheetViolations } from '../../src/contract/payloads/timesheet.ts';
import { userViolations } from '../../src/contract/payloads/user.ts';
import type { RuleId } from '../../src/contract/rules.ts';
import type { FamilyRequest, GeneratedCase, GeneratorContext } from '../../src/properties/family.ts';

/** A closed timesheet 08:00 to 18:00 local on `date` (the runner's setup shape). */
function timesheet(zone: string, date: { year: number; month: number; day: number }) {
  const start = DateTime.fromObject({ ...date, hour: 8 }, { zone });
  return { id: 7, start: formatOffsetDateTime(start), end: formatOffsetDateTime(start.set({ hour: 18 })) };
}

/**
 * Contexts the generators must work in: company zones with and without DST, in both hemispheres,
 * with half-hour offsets; with and without job/task IDs; timesheets on DST transition days.
 */
export const CONTEXTS: readonly GeneratorContext[] = [
  { companyTimezone: 'America/Chicago', activeUserIds: [1, 2, 3], jobId: 1, taskId: 2, breakRuleId: 1, timesheet: timesheet('America/Chicago', { year: 2026, month: 3, day: 8 }), uniqueTag: 'cc123' },
  { companyTimezone: 'Australia/Lord_Howe', activeUserIds: [5], breakRuleId: 2, timesheet: timesheet('Australia/Lord_Howe', { year: 2025, month: 4, day: 6 }), uniqueTag: 't' },
  { companyTimezone: 'UTC', activeUserIds: [10, 12], jobId: 4, breakRuleId: 9, timesheet: timesheet('UTC', { year: 2026, month: 3, day: 17 }), uniqueTag: 'fuzz' },
  { companyTimezone: 'Asia/Kolkata', activeUserIds: [1, 2, 3, 5, 6, 7, 8, 9, 10, 12], taskId: 1, breakRuleId: 1, timesheet: timesheet('Asia/Kolkata', { year: 2027, month: 3, day: 2 }), uniqueTag: 'x' },
  { companyTimezone: 'Europe/London', activeUserIds: [1], breakRuleId: 1, timesheet: timesheet('Europe/London', { year: 2026, month: 3, day: 29 }), uniqueTag: 'london' },
];

/** A generated case with the context it was generated in. */
export function inContexts(build: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>): fc.Arbitrary<{ ctx: GeneratorContext; c: GeneratedCase }> {
  return fc.constantFrom(...CONTEXTS).chain((ctx) => build(ctx).map((c) => ({ ctx, c })));
}

/** The schedule the runner creates before schedule-update cases (src/properties/setup-resource.ts), as stored. */
export const STORED_SCHEDULE = {
  assigned_by: 1,
  title: 'clockcheck property base',
  repeat: false,
  all_day: true,
  color: 'blue',
  user_ids: [1],
  start_date: '03/10/2026',
  end_date: '03/10/2026',
  timezone: 'America/Chicago',
  publish: true,
  use_different_address: false,
};

const CONDITIONALS: ReadonlySet<string> = new Set(['SCH-TIMES-UNLESS-ALL-DAY', 'SCH-REPEAT-FIELDS', 'SCH-WEEKLY-WEEKS']);

/**
 * The rules the spec model says `payload` breaks when sent with `request` in `ctx`. On schedule
 * update a conditional rule's breach is SCH-UPDATE-CONDITIONALS (§4.1), and the payload is judged
 * both on its own and merged over STORED_SCHEDULE; the two readings must agree (else a marker rule).
 */
export function violatedRules(request: FamilyRequest, payload: Readonly<Record<string, unknown>>, ctx: GeneratorContext): Set<string> {
  const ids = (vs: ReadonlyArray<{ ruleId: RuleId }>) => new Set<string>(vs.map((v) => v.ruleId));
  const put = request.method === 'PUT';
  if (request.path.startsWith('/schedules')) {
    if (!put) return ids(scheduleViolations(payload, 'create'));
    const update = (s: Set<string>) => new Set([...s].map((r) => (CONDITIONALS.has(r) ? 'SCH-UPDATE-CONDITIONALS' : r)));
    const alone = update(ids(scheduleViolations(payload, 'update')));
    const merged = update(ids(scheduleViolations(payload, 'update', STORED_SCHEDULE)));
    return sameSet(alone, merged) ? alone : new Set([...alone, ...merged, 'READINGS-DISAGREE']);
  }
  if (request.path.startsWith('/users')) return ids(userViolations(payload, put ? 'update' : 'create'));
  if (request.path === '/timesheets') return ids(timesheetViolations(payload, ctx.companyTimezone));
  if (request.path === '/breaks') {
    const found = ids(breakViolations(payload));
    if (typeof payload.start === 'string' && typeof payload.end === 'string' && ctx.timesheet) {
      for (const v of breakIntervalViolations(payload.start, payload.end, ctx.timesheet)) found.add(v.ruleId);
    }
    return found;
  }
  throw new Error(`no spec model for ${request.method} ${request.path}`);
}

export function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

/** The set a case must violate: nothing when valid, exactly its rule when invalid. */
export function expectedRules(c: GeneratedCase): Set<string> {
  return new Set(c.breaks ? [c.breaks] : []);
}

export const REQUESTS = {
  scheduleCreate: { method: 'POST', path: '/schedules' },
  scheduleUpdate: { method: 'PUT', path: '/schedules/{id}' },
  userCreate: { method: 'POST', path: '/users' },
  userEdit: { method: 'PUT', path: '/users/{id}' },
  timesheet: { method: 'POST', path: '/timesheets' },
  break: { method: 'POST', path: '/breaks' },
} as const satisfies Record<string, FamilyRequest>;
