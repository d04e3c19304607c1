import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_FAMILIES } from '../../src/properties/families.ts';
import { isRuleId } from '../../src/contract/rules.ts';
import { CONTEXTS, expectedRules, inContexts, sameSet, violatedRules } from './support.ts';

const REQUIRED = {
  'schedule-dates': ['SCH-DATE-FORMAT'],
  'schedule-times': ['SCH-TIME-FORMAT'],
  'schedule-conditionals': ['SCH-TIMES-UNLESS-ALL-DAY', 'SCH-REPEAT-FIELDS', 'SCH-WEEKLY-WEEKS', 'SCH-WEEKS-FORMAT'],
  'schedule-update': ['SCH-UPDATE-EVENT-PID', 'SCH-UPDATE-CONDITIONALS'],
  'user-password': ['USR-PASSWORD-LENGTH', 'USR-PASSWORD-CLASSES'],
  'user-employee-code': ['USR-EMPLOYEE-CODE'],
  'user-values': ['USR-ROLE-ID-VALUES', 'USR-BILLING-RATE-TYPE-VALUES'],
  'user-edit': ['USR-PASSWORD-CLASSES', 'USR-PASSWORD-LENGTH', 'USR-EMPLOYEE-CODE'],
  'timesheet-datetimes': ['TS-DATETIME-FORMAT'],
  'timesheet-offsets': ['TS-OFFSET-MATCHES-TIMEZONE', 'TS-OFFSET-DEFAULT-TIMEZONE'],
  'break-create': ['BRK-DATETIME-FORMAT', 'BRK-WITHIN-TIMESHEET'],
} as const;

describe('PROPERTY_FAMILIES', () => {
  it('has the families of the plan, with unique names and catalog rules', () => {
    const names = PROPERTY_FAMILIES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const [name, rules] of Object.entries(REQUIRED)) {
      const family = PROPERTY_FAMILIES.find((f) => f.name === name);
      expect(family, name).toBeDefined();
      expect([...family!.rules].sort()).toEqual([...rules].sort());
    }
    for (const f of PROPERTY_FAMILIES) for (const r of f.rules) expect(isRuleId(r)).toBe(true);
  });

  it('sends updates with PUT to a setup resource and creates with POST', () => {
    for (const f of PROPERTY_FAMILIES) {
      expect(f.request.path.includes('{id}'), f.name).toBe(f.request.method === 'PUT');
      if (f.request.method === 'PUT') expect(f.needs, f.name).toBe(f.request.path.startsWith('/schedules') ? 'schedule' : 'user');
    }
    expect(PROPERTY_FAMILIES.find((f) => f.name === 'break-create')!.needs).toBe('timesheet');
  });

  for (const family of PROPERTY_FAMILIES) {
    describe(family.name, () => {
      it('sends valid cases that break no rule and invalid ones that break exactly their rule (spec model)', () => {
        fc.assert(
          fc.property(inContexts((ctx) => family.cases(ctx)), ({ ctx, c }) => {
            const found = violatedRules(family.request, c.payload, ctx);
            expect(sameSet(found, expectedRules(c)), `${c.label}: ${JSON.stringify(c.payload)} violates {${[...found].join(', ')}}`).toBe(true);
          }),
          { numRuns: 400 },
        );
      });

      it('mixes valid and invalid cases about half and half, and breaks each of its rules', () => {
        const cases = CONTEXTS.flatMap((ctx) => fc.sample(family.cases(ctx), { seed: 21, numRuns: 200 }));
        const valid = cases.filter((c) => !c.breaks).length / cases.length;
        expect(valid).toBeGreaterThan(0.35);
        expect(valid).toBeLessThan(0.65);
        expect(new Set(cases.flatMap((c) => (c.breaks ? [c.breaks] : [])))).toEqual(new Set(family.rules));
        for (const c of cases) expect(c.label.length, JSON.stringify(c)).toBeGreaterThan(5);
      });

      it('blames a refused valid case on a rule of the catalog', () => {
        for (const c of fc.sample(family.cases(CONTEXTS[0]!), { seed: 4, numRuns: 100 }).filter((x) => !x.breaks)) {
          expect(isRuleId(family.refusalRule?.(c) ?? family.rules[0]!)).toBe(true);
        }
      });
    });
  }

  it('timesheet-offsets sends mostly explicit zones, many near DST transitions (what catches offset-day-granular)', () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'timesheet-offsets')!;
    const valid = fc.sample(family.cases(CONTEXTS[0]!), { seed: 13, numRuns: 600 }).filter((c) => !c.breaks);
    const explicit = valid.filter((c) => typeof c.payload.clock_in_timezone === 'string');
    expect(explicit.length / valid.length).toBeGreaterThan(0.65);
    expect(family.refusalRule!(explicit[0]!)).toBe('TS-OFFSET-MATCHES-TIMEZONE');
    const defaulted = valid.find((c) => c.payload.clock_in_timezone === undefined && typeof c.payload.end === 'string');
    expect(family.refusalRule!(defaulted!)).toBe('TS-OFFSET-DEFAULT-TIMEZONE');
    expect(valid.some((c) => c.payload.end === null)).toBe(false);
    // zones for every datetime or for none: a refusal names one offset rule
    for (const { payload: p } of valid) {
      if (typeof p.end === 'string') expect(typeof p.clock_in_timezone === 'string', JSON.stringify(p)).toBe(typeof p.clock_out_timezone === 'string');
    }
  });

  it('schedule-dates blames a refused all-day case without times on the times rule', () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'schedule-dates')!;
    const valid = fc.sample(family.cases(CONTEXTS[0]!), { seed: 13, numRuns: 300 }).filter((c) => !c.breaks);
    const allDay = valid.find((c) => c.payload.all_day === true && c.payload.start_time === undefined)!;
    expect(family.refusalRule!(allDay)).toBe('SCH-TIMES-UNLESS-ALL-DAY');
    expect(family.refusalRule!(valid.find((c) => c.payload.all_day === false)!)).toBe('SCH-DATE-FORMAT');
  });
});

describe('determinism', () => {
  it('gives the same cases for the same seed, for every family and context', () => {
    for (const family of PROPERTY_FAMILIES) {
      for (const ctx of CONTEXTS) {
        const a = fc.sample(family.cases(ctx), { seed: 77, numRuns: 40 });
        const b = fc.sample(family.cases(ctx), { seed: 77, numRuns: 40 });
        expect(JSON.stringify(a), family.name).toBe(JSON.stringify(b));
      }
    }
  });

  it('gives other cases for another seed', () => {
    const family = PROPERTY_FAMILIES[0]!;
    const a = fc.sample(family.cases(CONTEXTS[0]!), { seed: 1, numRuns: 20 });
    const b = fc.sample(family.cases(CONTEXTS[0]!), { seed: 2, numRuns: 20 });
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(b));
  });

  it('replays one case from its seed and path', () => {
    const family = PROPERTY_FAMILIES.find((f) => f.name === 'timesheet-offsets')!;
    const details = fc.check(fc.property(family.cases(CONTEXTS[0]!), (c) => c.breaks !== 'TS-OFFSET-DEFAULT-TIMEZONE'), { seed: 3 });
    expect(details.failed).toBe(true);
    const [replayed] = fc.sample(family.cases(CONTEXTS[0]!), { seed: 3, path: details.counterexamplePath!, numRuns: 1 });
    expect(replayed).toEqual(details.counterexample![0]);
  });
});
