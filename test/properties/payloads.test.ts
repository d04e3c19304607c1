import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InternalError } from '../../src/errors.ts';
import { breakCase } from '../../src/properties/arbitraries/break-case.ts';
import { BREAK_BREAKABLE_RULES, invalidBreakCase } from '../../src/properties/arbitraries/invalid-break-case.ts';
import { invalidScheduleCase, SCHEDULE_BREAKABLE_RULES } from '../../src/properties/arbitraries/invalid-schedule-case.ts';
import { invalidTimesheetCase, TIMESHEET_BREAKABLE_RULES } from '../../src/properties/arbitraries/invalid-timesheet-case.ts';
import { invalidUserCase, USER_BREAKABLE_RULES } from '../../src/properties/arbitraries/invalid-user-case.ts';
import { REPEAT_TYPES, scheduleCase } from '../../src/properties/arbitraries/schedule-case.ts';
import { timesheetCase } from '../../src/properties/arbitraries/timesheet-case.ts';
import { userCase } from '../../src/properties/arbitraries/user-case.ts';
import type { GeneratedCase, GeneratorContext } from '../../src/properties/family.ts';
import { parseOffsetDateTime, parseUsDate } from '../../src/contract/formats/index.ts';
import { isRuleId } from '../../src/contract/rules.ts';
import { CONTEXTS, expectedRules, inContexts, REQUESTS, sameSet, violatedRules } from './support.ts';

const RUNS = { numRuns: 600 };
type Request = (typeof REQUESTS)[keyof typeof REQUESTS];

/** Every case breaks exactly the rules it says: none when valid, its `breaks` when invalid. */
function assertExactRules(request: Request, build: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>) {
  fc.assert(
    fc.property(inContexts(build), ({ ctx, c }) => {
      const found = violatedRules(request, c.payload, ctx);
      expect(sameSet(found, expectedRules(c)), `${c.label}: ${JSON.stringify(c.payload)} violates {${[...found].join(', ')}}`).toBe(true);
    }),
    RUNS,
  );
}

/** The `breaks` seen over a sample of cases in every context. */
function brokenRules(build: (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>): Set<string> {
  return new Set(CONTEXTS.flatMap((ctx) => fc.sample(build(ctx), { seed: 9, numRuns: 400 }).map((c) => c.breaks ?? 'valid')));
}

const millis = (v: unknown) => parseOffsetDateTime(String(v))!.dateTime.toMillis();

describe('schedule cases', () => {
  it('valid creates break no rule, with dates in order and times start before end', () => {
    assertExactRules(REQUESTS.scheduleCreate, (ctx) => scheduleCase(ctx, 'create'));
    fc.assert(
      fc.property(scheduleCase(CONTEXTS[0]!, 'create'), ({ payload: p }) => {
        const day = (f: string) => parseUsDate(String(p[f]))!;
        expect(day('start_date') <= day('end_date')).toBe(true);
        if (p.repeat_end_date) expect(day('end_date') <= day('repeat_end_date')).toBe(true);
        if (p.start_time) expect(String(p.start_time) < String(p.end_time)).toBe(true);
        expect(p.repeat === true).toBe(p.repeat_type !== undefined);
        expect(p.repeat_type === 'weekly').toBe(p.weeks !== undefined);
      }),
      RUNS,
    );
  });

  it('valid creates cover every combination of all_day × repeat × repeat_type', () => {
    const combos = new Set(
      fc.sample(scheduleCase(CONTEXTS[0]!, 'create'), { seed: 1, numRuns: 1000 }).map(({ payload: p }) => `${String(p.all_day)}/${String(p.repeat)}/${String(p.repeat_type)}`),
    );
    for (const allDay of [true, false]) {
      expect(combos.has(`${allDay}/false/undefined`)).toBe(true);
      for (const type of REPEAT_TYPES) expect(combos.has(`${allDay}/true/${type}`), `${allDay} ${type}`).toBe(true);
    }
  });

  it('valid creates take assigned_by and user_ids from the active users, job_id only from the context', () => {
    fc.assert(
      fc.property(inContexts((ctx) => scheduleCase(ctx, 'create')), ({ ctx, c: { payload: p } }) => {
        expect(ctx.activeUserIds).toContain(p.assigned_by);
        for (const id of p.user_ids as number[]) expect(ctx.activeUserIds).toContain(id);
        expect(p.job_id === undefined || p.job_id === ctx.jobId).toBe(true);
      }),
      RUNS,
    );
  });

  it('valid updates break no rule, on their own or merged with the stored schedule, and carry event_pid', () => {
    assertExactRules(REQUESTS.scheduleUpdate, (ctx) => scheduleCase(ctx, 'update'));
    assertExactRules(REQUESTS.scheduleUpdate, (ctx) => scheduleCase(ctx, 'update', { minimal: true }));
    fc.assert(fc.property(scheduleCase(CONTEXTS[0]!, 'update'), (c) => typeof c.payload.event_pid === 'string'), RUNS);
  });

  it('minimal updates send no times, repeat fields or weeks', () => {
    fc.assert(
      fc.property(scheduleCase(CONTEXTS[0]!, 'update', { minimal: true }), ({ payload: p }) =>
        ['start_time', 'end_time', 'repeat_type', 'repeat_end_date', 'weeks'].every((f) => p[f] === undefined) && p.all_day === true && p.repeat === false,
      ),
      RUNS,
    );
  });

  it('invalid creates break exactly their rule, and every breakable rule comes up', () => {
    assertExactRules(REQUESTS.scheduleCreate, (ctx) => invalidScheduleCase(ctx, 'create'));
    expect(brokenRules((ctx) => invalidScheduleCase(ctx, 'create'))).toEqual(new Set(SCHEDULE_BREAKABLE_RULES.create));
  });

  it('invalid updates break exactly their rule under both readings of PUT; conditionals as SCH-UPDATE-CONDITIONALS', () => {
    assertExactRules(REQUESTS.scheduleUpdate, (ctx) => invalidScheduleCase(ctx, 'update'));
    expect(brokenRules((ctx) => invalidScheduleCase(ctx, 'update'))).toEqual(new Set(SCHEDULE_BREAKABLE_RULES.update));
    expect(SCHEDULE_BREAKABLE_RULES.update).not.toContain('SCH-TITLE-REQUIRED');
  });

  it('can be restricted to one rule, and refuses a rule it cannot break', () => {
    const rules = brokenRules((ctx) => invalidScheduleCase(ctx, 'create', ['SCH-WEEKS-FORMAT']));
    expect(rules).toEqual(new Set(['SCH-WEEKS-FORMAT']));
    // An InternalError: fuzz --invalid checks the rule against the same lists first, and families name only rules their generators break.
    expect(() => invalidScheduleCase(CONTEXTS[0]!, 'update', ['SCH-TITLE-REQUIRED'])).toThrow(InternalError);
    expect(() => invalidScheduleCase(CONTEXTS[0]!, 'update', ['SCH-TITLE-REQUIRED'])).toThrow(/cannot be made to break SCH-TITLE-REQUIRED/);
  });
});

describe('user cases', () => {
  it('valid creates break no rule, never send employee_code or custom_fields, and have unique tagged e-mails', () => {
    assertExactRules(REQUESTS.userCreate, (ctx) => userCase(ctx, 'create'));
    fc.assert(
      fc.property(inContexts((ctx) => userCase(ctx, 'create')), ({ ctx, c: { payload: p } }) => {
        expect(p.employee_code).toBeUndefined();
        expect(p.custom_fields).toBeUndefined();
        expect(p.email).toMatch(new RegExp(`^${ctx.uniqueTag}\\.[a-z]{10}@example\\.com$`));
        expect([1, 2, 3, undefined]).toContain(p.role_id);
        expect([0, 1, undefined]).toContain(p.billing_rate_type);
      }),
      RUNS,
    );
    const emails = fc.sample(userCase(CONTEXTS[0]!, 'create'), { seed: 3, numRuns: 2000 }).map((c) => c.payload.email);
    expect(new Set(emails).size).toBe(emails.length);
  });

  it('valid edits break no rule; by default they send the four create fields, partial ones a non-empty subset', () => {
    assertExactRules(REQUESTS.userEdit, (ctx) => userCase(ctx, 'update'));
    assertExactRules(REQUESTS.userEdit, (ctx) => userCase(ctx, 'update', { partial: true }));
    fc.assert(
      fc.property(userCase(CONTEXTS[0]!, 'update'), ({ payload: p }) => ['first_name', 'last_name', 'email', 'password'].every((f) => p[f] !== undefined)),
      RUNS,
    );
    fc.assert(
      fc.property(userCase(CONTEXTS[0]!, 'update', { partial: true }), ({ payload: p }) => {
        const keys = Object.keys(p);
        return keys.length > 0 && !keys.some((k) => k === 'custom_fields' || k.endsWith('_option') || k === 'employee_code');
      }),
      RUNS,
    );
  });

  it('invalid creates and edits break exactly their rule, and every breakable rule comes up', () => {
    assertExactRules(REQUESTS.userCreate, (ctx) => invalidUserCase(ctx, 'create'));
    assertExactRules(REQUESTS.userEdit, (ctx) => invalidUserCase(ctx, 'update'));
    expect(brokenRules((ctx) => invalidUserCase(ctx, 'create'))).toEqual(new Set(USER_BREAKABLE_RULES.create));
    expect(brokenRules((ctx) => invalidUserCase(ctx, 'update'))).toEqual(new Set(USER_BREAKABLE_RULES.update));
    expect(USER_BREAKABLE_RULES.update).not.toContain('USR-CREATE-REQUIRED');
  });

  it('an invalid case never shares its e-mail with the valid case it was derived from', () => {
    const ctx = CONTEXTS[0]!;
    const valid = new Set(fc.sample(userCase(ctx, 'create'), { seed: 4, numRuns: 500 }).map((c) => c.payload.email));
    const invalid = fc.sample(invalidUserCase(ctx, 'create'), { seed: 4, numRuns: 500 }).map((c) => c.payload.email);
    expect(invalid.filter((e) => e !== undefined && valid.has(e))).toEqual([]);
  });
});

describe('timesheet cases', () => {
  it('valid creates break no rule in the context company timezone, and end comes after start', () => {
    assertExactRules(REQUESTS.timesheet, (ctx) => timesheetCase(ctx));
    assertExactRules(REQUESTS.timesheet, (ctx) => timesheetCase(ctx, { explicitZones: 'mostly' }));
    fc.assert(
      fc.property(inContexts((ctx) => timesheetCase(ctx)), ({ ctx, c: { payload: p } }) => {
        expect(ctx.activeUserIds).toContain(p.user_id);
        const start = millis(p.start);
        expect(start).toBeLessThan(Date.UTC(2025, 0, 2));
        expect(start).toBeGreaterThanOrEqual(Date.UTC(2014, 11, 31));
        if (typeof p.end === 'string') {
          expect(millis(p.end) - start).toBeGreaterThan(0);
          expect(millis(p.end) - start).toBeLessThanOrEqual(12 * 3_600_000);
        }
        expect(p.job_id === undefined || p.job_id === ctx.jobId).toBe(true);
        expect(p.task_id === undefined || p.task_id === ctx.taskId).toBe(true);
      }),
      RUNS,
    );
  });

  it('valid creates have end absent, null and set; zones given and defaulted', () => {
    const cases = fc.sample(timesheetCase(CONTEXTS[0]!), { seed: 2, numRuns: 500 }).map((c) => c.payload);
    expect(cases.some((p) => p.end === undefined)).toBe(true);
    expect(cases.some((p) => p.end === null)).toBe(true);
    expect(cases.some((p) => typeof p.end === 'string' && p.clock_out_timezone === undefined)).toBe(true);
    expect(cases.some((p) => typeof p.clock_in_timezone === 'string')).toBe(true);
    expect(cases.some((p) => p.clock_in_timezone === undefined)).toBe(true);
  });

  it('invalid creates break exactly their rule, and every breakable rule comes up', () => {
    assertExactRules(REQUESTS.timesheet, (ctx) => invalidTimesheetCase(ctx));
    expect(brokenRules((ctx) => invalidTimesheetCase(ctx))).toEqual(new Set(TIMESHEET_BREAKABLE_RULES));
  });

  it('invalid offsets keep end after start under either offset, and are off by the DST hour on transition days', () => {
    fc.assert(
      fc.property(inContexts((ctx) => invalidTimesheetCase(ctx, ['TS-OFFSET-MATCHES-TIMEZONE', 'TS-OFFSET-DEFAULT-TIMEZONE'])), ({ c: { payload: p } }) => {
        if (typeof p.end === 'string') expect(millis(p.end) - millis(p.start)).toBeGreaterThanOrEqual(60 * 60_000);
      }),
      RUNS,
    );
    const labels = fc.sample(invalidTimesheetCase(CONTEXTS[0]!, ['TS-OFFSET-MATCHES-TIMEZONE']), { seed: 8, numRuns: 400 }).map((c) => c.label);
    expect(labels.filter((l) => l.includes('near a DST transition')).length).toBeGreaterThan(labels.length / 5);
  });
});

describe('break cases', () => {
  it('valid creates break no rule and lie inside the timesheet, in whole seconds, edges included', () => {
    assertExactRules(REQUESTS.break, (ctx) => breakCase(ctx));
    fc.assert(
      fc.property(inContexts((ctx) => breakCase(ctx)), ({ ctx, c: { payload: p } }) => {
        const sheet = ctx.timesheet!;
        expect(millis(p.start)).toBeGreaterThanOrEqual(millis(sheet.start));
        expect(millis(p.end)).toBeLessThanOrEqual(millis(sheet.end));
        expect(millis(p.end)).toBeGreaterThan(millis(p.start));
        expect(p.timesheet_id).toBe(sheet.id);
        expect(p.break_rule_id).toBe(ctx.breakRuleId);
      }),
      RUNS,
    );
    const cases = fc.sample(breakCase(CONTEXTS[0]!), { seed: 1, numRuns: 300 }).map((c) => c.payload);
    expect(cases.some((p) => p.start === CONTEXTS[0]!.timesheet!.start)).toBe(true);
    expect(cases.some((p) => p.end === CONTEXTS[0]!.timesheet!.end)).toBe(true);
  });

  it('invalid creates break exactly their rule, and every breakable rule comes up', () => {
    assertExactRules(REQUESTS.break, (ctx) => invalidBreakCase(ctx));
    expect(brokenRules((ctx) => invalidBreakCase(ctx))).toEqual(new Set(BREAK_BREAKABLE_RULES));
  });

  it('need a timesheet and a break rule in the context', () => {
    expect(() => breakCase({ companyTimezone: 'UTC', activeUserIds: [1], uniqueTag: 't' })).toThrow(/ctx.timesheet/);
  });
});

it('every breakable rule is a rule of the catalog', () => {
  for (const id of [...SCHEDULE_BREAKABLE_RULES.create, ...SCHEDULE_BREAKABLE_RULES.update, ...USER_BREAKABLE_RULES.create, ...TIMESHEET_BREAKABLE_RULES, ...BREAK_BREAKABLE_RULES]) {
    expect(isRuleId(id), id).toBe(true);
  }
});
