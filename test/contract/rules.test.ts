import { describe, expect, it } from 'vitest';
import { RULES, isRuleId, ruleById } from '../../src/contract/rules.ts';
import { InternalError } from '../../src/errors.ts';
import { SCHEDULE_FIELDS } from '../../src/contract/payloads/schedule.ts';
import { USER_FIELDS } from '../../src/contract/payloads/user.ts';
import { TIMESHEET_FIELDS } from '../../src/contract/payloads/timesheet.ts';
import { BREAK_FIELDS } from '../../src/contract/payloads/break.ts';
import type { FieldTable } from '../../src/contract/payloads/field-table.ts';

/** The sections and numbered subsections of the spec (§5 numbers its statements 1 to 6). */
const SPEC_SECTIONS = new Set([
  '1', '2', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '3', '4', '4.1', '4.2', '4.3', '4.4', '4.5', '4.6',
  '5', '5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '6', '7', '8', '9',
]);
const FAMILIES = [
  'transport', 'auth', 'versioning', 'schedule', 'user', 'password', 'timesheet', 'offset-timezone',
  'break', 'pagination', 'query', 'webhook', 'rate-limit', 'errors', 'records',
];
const sectionsOf = (section: string) => section.split(', ');
const topSection = (s: string) => s.split('.')[0];

describe('the rule catalog', () => {
  it('has at least 60 rules', () => {
    expect(RULES.length).toBeGreaterThanOrEqual(60);
  });

  it('has unique IDs', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });

  it.each(RULES.map((r) => [r.id, r]))('%s has an ID of upper-case words joined by dashes, and a statement', (_id, rule) => {
    expect(rule.id).toMatch(/^[A-Z]+(-[A-Z0-9]+)+$/);
    expect(rule.statement.trim().length).toBeGreaterThan(10);
  });

  it.each(RULES.map((r) => [r.id, r.section]))('%s names spec sections (%s)', (_id, section) => {
    expect(section).toMatch(/^\d+(\.\d+)?(, \d+(\.\d+)?)*$/);
    for (const s of sectionsOf(section)) expect(SPEC_SECTIONS.has(s), `unknown section ${s}`).toBe(true);
  });

  it.each(RULES.map((r) => [r.id, r]))('%s has a spec or profile basis and a known family', (_id, rule) => {
    expect(['spec', 'profile']).toContain(rule.basis);
    expect(FAMILIES).toContain(rule.family);
  });

  // §3 reads "States and transitions: not shown", so it states no rule.
  it.each(['1', '2', '4', '5', '6', '7', '8', '9'])('has at least one rule for section %s', (section) => {
    expect(RULES.some((r) => sectionsOf(r.section).some((s) => topSection(s) === section))).toBe(true);
  });

  it('has no rule for section 3, whose states and transitions are not shown', () => {
    expect(RULES.filter((r) => sectionsOf(r.section).some((s) => topSection(s) === '3'))).toEqual([]);
  });

  it('has both spec and profile rules', () => {
    expect(RULES.some((r) => r.basis === 'spec')).toBe(true);
    expect(RULES.some((r) => r.basis === 'profile')).toBe(true);
  });

  it.each(FAMILIES)('has at least one rule in family %s', (family) => {
    expect(RULES.some((r) => r.family === family)).toBe(true);
  });
});

describe('ruleById and isRuleId', () => {
  it.each(RULES.map((r) => [r.id]))('finds %s', (id) => {
    expect(ruleById(id).id).toBe(id);
    expect(isRuleId(id)).toBe(true);
  });

  it.each(['', 'NOPE', 'sch-title-required', 'SCH-TITLE-REQUIRED ', 'SCH-TITLE'])('throws an InternalError on the unknown ID %j (what a user types is checked with isRuleId)', (id) => {
    expect(() => ruleById(id)).toThrow(InternalError);
    expect(() => ruleById(id)).toThrow(/unknown rule ID/);
    expect(isRuleId(id)).toBe(false);
  });
});

describe('rules referenced by the payload field tables', () => {
  const tables: [string, FieldTable][] = [
    ['schedule', SCHEDULE_FIELDS],
    ['user', USER_FIELDS],
    ['timesheet', TIMESHEET_FIELDS],
    ['break', BREAK_FIELDS],
  ];
  const rows = tables.flatMap(([table, fields]) =>
    Object.entries(fields).flatMap(([name, spec]) =>
      [spec.typeRule, spec.requiredRule, ...spec.formats.map((f) => f.rule)]
        .filter((id): id is NonNullable<typeof id> => id !== null)
        .map((id) => [`${table}.${name}`, id] as const),
    ),
  );

  it.each(rows)('%s refers to %s, a rule of the catalog', (_field, id) => {
    expect(isRuleId(id)).toBe(true);
  });
});
