import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClockcheckError, InternalError, UsageError } from '../../src/errors.ts';
import { PROPERTY_FAMILIES } from '../../src/properties/families.ts';
import type { FamilyRequest } from '../../src/properties/family.ts';
import { profileContext } from '../../src/properties/profile-context.ts';
import { breakCase, scheduleCase, timesheetCase } from '../../src/properties/arbitraries/index.ts';
import { profileSchema } from '../../src/profile/profile.ts';
import { expectedRules, REQUESTS, sameSet, violatedRules } from './support.ts';

const TIMESHEET = { id: 99, start: '2030-03-04T08:00:00-06:00', end: '2030-03-04T18:00:00-06:00' };
const FIXTURES = { active_user_ids: [41, 42], job_id: 7, task_id: 8, break_rule_id: 9, timesheet: TIMESHEET };
const FULL = profileSchema.parse({ company_timezone: 'America/Chicago', fixtures: FIXTURES });
const use = (request: FamilyRequest) => ({ request, neededBy: 'fuzz: test payloads' });

/** The ClockcheckError profileContext throws for `fixtures` (only company_timezone besides). */
function failure(fixtures: Record<string, unknown>, request: FamilyRequest): ClockcheckError {
  try {
    profileContext(profileSchema.parse({ fixtures }), 'fuzz', use(request));
  } catch (error) {
    if (error instanceof ClockcheckError) return error;
    throw error;
  }
  throw new Error('expected a ClockcheckError');
}

describe('profileContext', () => {
  it('takes the company timezone and every fixture from the profile', () => {
    expect(profileContext(FULL, 'fuzz', use(REQUESTS.break))).toEqual({
      companyTimezone: 'America/Chicago',
      activeUserIds: [41, 42],
      jobId: 7,
      taskId: 8,
      breakRuleId: 9,
      timesheet: TIMESHEET,
      uniqueTag: 'fuzz',
    });
  });

  it('leaves out job and task when the profile has none, and the generators then send neither', () => {
    const ctx = profileContext(profileSchema.parse({ fixtures: { active_user_ids: [41] } }), 'fuzz', use(REQUESTS.timesheet));
    expect(ctx).toEqual({ companyTimezone: 'America/Chicago', activeUserIds: [41], uniqueTag: 'fuzz' });
    const payloads = [...fc.sample(scheduleCase(ctx, 'create'), { seed: 1, numRuns: 200 }), ...fc.sample(timesheetCase(ctx), { seed: 1, numRuns: 200 })].map((c) => c.payload);
    expect(payloads.some((p) => 'job_id' in p || 'task_id' in p)).toBe(false);
  });

  it('needs no fixture for user payloads', () => {
    const ctx = profileContext(profileSchema.parse({}), 'tag', use(REQUESTS.userEdit));
    expect(ctx).toEqual({ companyTimezone: 'America/Chicago', activeUserIds: [], uniqueTag: 'tag' });
  });

  it('names the missing fixture, what needs it and `clockcheck init`, in one line, instead of guessing', () => {
    const cases = [
      { fixtures: {}, request: REQUESTS.scheduleCreate, key: 'fixtures.active_user_ids' },
      { fixtures: {}, request: REQUESTS.scheduleUpdate, key: 'fixtures.active_user_ids' },
      { fixtures: { job_id: 7, task_id: 8 }, request: REQUESTS.timesheet, key: 'fixtures.active_user_ids' },
      { fixtures: { active_user_ids: [41], break_rule_id: 9 }, request: REQUESTS.break, key: 'fixtures.timesheet' },
      { fixtures: { active_user_ids: [41], timesheet: TIMESHEET }, request: REQUESTS.break, key: 'fixtures.break_rule_id' },
    ];
    for (const { fixtures, request, key } of cases) {
      const error = failure(fixtures, request);
      expect(error).toBeInstanceOf(UsageError);
      expect(error.message).toContain(`fuzz: test payloads need ${key} (`);
      expect(error.message).toContain('the profile has none; `clockcheck init` discovers it');
      expect(error.message).not.toContain('\n');
    }
  });

  it('does not need active users for breaks', () => {
    const ctx = profileContext(profileSchema.parse({ fixtures: { break_rule_id: 9, timesheet: TIMESHEET } }), 'fuzz', use(REQUESTS.break));
    expect(ctx.activeUserIds).toEqual([]);
    expect(fc.sample(breakCase(ctx), { seed: 2, numRuns: 50 }).every((c) => c.payload.timesheet_id === 99 && c.payload.break_rule_id === 9)).toBe(true);
  });

  it('refuses a timesheet that ends before, or under 2 s after, it starts (breaks could not lie inside it), as a profile value that cannot serve', () => {
    for (const end of ['2030-03-04T07:00:00-06:00', '2030-03-04T08:00:01-06:00']) {
      const error = failure({ break_rule_id: 9, timesheet: { ...TIMESHEET, end } }, REQUESTS.break);
      expect(error.code).toBe('CLOCKCHECK_PROFILE');
      expect(error.message).toMatch(/need fixtures\.timesheet to end at least 2 s after it starts; it runs .* to .*: name a closed timesheet/);
      expect(error.message).not.toContain('\n');
    }
  });

  it('calls a context the generators cannot use a bug of clockcheck\'s: a request of no known resource, a break timesheet no caller checked', () => {
    expect(() => profileContext(FULL, 'fuzz', use({ method: 'POST', path: '/jobs' }))).toThrow(InternalError);
    const unchecked = { ...profileContext(FULL, 'fuzz', use(REQUESTS.break)), timesheet: { ...TIMESHEET, end: TIMESHEET.start } };
    expect(() => breakCase(unchecked)).toThrow(InternalError);
    expect(() => breakCase({ ...unchecked, timesheet: undefined })).toThrow(InternalError);
  });

  it('knows the fixtures of every property family\'s request', () => {
    for (const family of PROPERTY_FAMILIES) expect(() => profileContext(FULL, 'fuzz', use(family.request))).not.toThrow();
  });

  it('makes every family\'s cases valid or break exactly their rule, naming only the profile\'s IDs', () => {
    for (const family of PROPERTY_FAMILIES) {
      const ctx = profileContext(FULL, 'fuzz', use(family.request));
      for (const c of fc.sample(family.cases(ctx), { seed: 5, numRuns: 150 })) {
        const found = violatedRules(family.request, c.payload, ctx);
        expect(sameSet(found, expectedRules(c)), `${family.name} ${c.label}: ${JSON.stringify(c.payload)} violates {${[...found].join(', ')}}`).toBe(true);
        const p = c.payload;
        for (const id of [p.assigned_by, p.user_id, ...((p.user_ids as unknown[] | undefined) ?? [])]) if (id !== undefined) expect([41, 42]).toContain(id);
        if (p.job_id !== undefined) expect(p.job_id).toBe(7);
        if (p.task_id !== undefined) expect(p.task_id).toBe(8);
        if (p.timesheet_id !== undefined) expect(p.timesheet_id).toBe(99);
        if (p.break_rule_id !== undefined) expect(p.break_rule_id).toBe(9);
      }
    }
  });
});
