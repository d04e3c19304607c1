import fc from 'fast-check';
import { SCHEDULE_FIELDS } from '../../contract/payloads/schedule.ts';
import type { RuleId } from '../../contract/rules.ts';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { omit, requiredFields } from './_internals/payload-edits.ts';
import { invalidClockTime } from './invalid-clock-time.ts';
import { invalidTimezoneName } from './invalid-timezone-name.ts';
import { invalidUsDate } from './invalid-us-date.ts';
import { invalidWeekdayList } from './invalid-weekday-list.ts';
import { scheduleCase, type ScheduleCaseOptions } from './schedule-case.ts';
import { InternalError } from '../../errors.ts';

type Operation = 'create' | 'update';
type Payload = Readonly<Record<string, unknown>>;
type Breaker = (ctx: GeneratorContext, operation: Operation) => fc.Arbitrary<GeneratedCase>;

const base = (ctx: GeneratorContext, operation: Operation, options: ScheduleCaseOptions = {}) =>
  scheduleCase(ctx, operation, options).map((c) => c.payload);

const CONDITIONAL_BREAKERS: Record<'SCH-TIMES-UNLESS-ALL-DAY' | 'SCH-REPEAT-FIELDS' | 'SCH-WEEKLY-WEEKS', Breaker> = {
  'SCH-TIMES-UNLESS-ALL-DAY': (ctx, op) =>
    fc.tuple(base(ctx, op, { allDay: false }), fc.constantFrom(['start_time'], ['end_time'], ['start_time', 'end_time'])).map(([p, gone]) => ({
      payload: omit(p, ...gone),
      breaks: 'SCH-TIMES-UNLESS-ALL-DAY' as const,
      label: `all_day false without ${gone.join(' and ')}`,
    })),
  'SCH-REPEAT-FIELDS': (ctx, op) =>
    fc.tuple(base(ctx, op, { repeat: true }), fc.constantFrom(['repeat_type'], ['repeat_end_date'], ['repeat_type', 'repeat_end_date'])).map(([p, gone]) => ({
      payload: omit(p, ...gone),
      breaks: 'SCH-REPEAT-FIELDS' as const,
      label: `repeat true without ${gone.join(' and ')}`,
    })),
  'SCH-WEEKLY-WEEKS': (ctx, op) =>
    base(ctx, op, { repeat: true, repeatType: 'weekly' }).map((p) => ({
      payload: omit(p, 'weeks'),
      breaks: 'SCH-WEEKLY-WEEKS' as const,
      label: 'repeat_type weekly without weeks',
    })),
};

const set = (p: Payload, field: string, value: unknown) => ({ ...p, [field]: value });

const FORMAT_BREAKERS: Record<'SCH-DATE-FORMAT' | 'SCH-TIME-FORMAT' | 'SCH-WEEKS-FORMAT' | 'SCH-TIMEZONE-NAME', Breaker> = {
  'SCH-DATE-FORMAT': (ctx, op) =>
    fc
      .tuple(base(ctx, op), invalidUsDate(), fc.constantFrom('start_date', 'end_date', 'repeat_end_date'))
      .map(([p, bad, field]) => {
        const target = field === 'repeat_end_date' && p.repeat_end_date === undefined ? 'end_date' : field;
        return { payload: set(p, target, bad.value), breaks: 'SCH-DATE-FORMAT' as const, label: `${target} ${bad.label}: ${bad.value}` };
      }),
  // all_day false: a server may ignore the times of an all-day schedule
  'SCH-TIME-FORMAT': (ctx, op) =>
    fc
      .tuple(base(ctx, op, { allDay: false }), invalidClockTime(), fc.constantFrom('start_time', 'end_time'))
      .map(([p, bad, field]) => ({ payload: set(p, field, bad.value), breaks: 'SCH-TIME-FORMAT' as const, label: `${field} ${bad.label}: ${bad.value}` })),
  'SCH-WEEKS-FORMAT': (ctx, op) =>
    fc
      .tuple(base(ctx, op, { repeat: true, repeatType: 'weekly' }), invalidWeekdayList())
      .map(([p, bad]) => ({ payload: set(p, 'weeks', bad.value), breaks: 'SCH-WEEKS-FORMAT' as const, label: `weeks ${bad.label}: "${bad.value}"` })),
  'SCH-TIMEZONE-NAME': (ctx, op) =>
    fc
      .tuple(base(ctx, op), invalidTimezoneName())
      .map(([p, bad]) => ({ payload: set(p, 'timezone', bad.value), breaks: 'SCH-TIMEZONE-NAME' as const, label: `timezone ${bad.label}: "${bad.value}"` })),
};

/** §2.1 "Required: yes" fields, from the field table; create only (PUT is partial, §1, so an update may omit them). */
const REQUIRED_BREAKERS: Partial<Record<RuleId, Breaker>> = Object.fromEntries(
  requiredFields(SCHEDULE_FIELDS, 'create').map(({ field, rule }): [RuleId, Breaker] => [
    rule,
    // all_day false with times: without all_day, the times rule would trigger too
    (ctx, op) => base(ctx, op, field === 'all_day' ? { allDay: false } : {}).map((p) => ({ payload: omit(p, field), breaks: rule, label: `without ${field}` })),
  ]),
);

const EVENT_PID_BREAKER: Breaker = (ctx, op) =>
  base(ctx, op).map((p) => ({ payload: omit(p, 'event_pid'), breaks: 'SCH-UPDATE-EVENT-PID' as const, label: 'update without event_pid' }));

function breakersFor(operation: Operation): Partial<Record<RuleId, Breaker>> {
  if (operation === 'create') return { ...FORMAT_BREAKERS, ...CONDITIONAL_BREAKERS, ...REQUIRED_BREAKERS };
  // §4.1 "the same conditional rules apply" on update: a breach there is SCH-UPDATE-CONDITIONALS
  const conditionals: Breaker = (ctx, op) =>
    fc.oneof(...Object.values(CONDITIONAL_BREAKERS).map((b) => b(ctx, op))).map((c) => ({
      ...c,
      breaks: 'SCH-UPDATE-CONDITIONALS' as const,
      label: `${c.label} (${String(c.breaks)}, on update)`,
    }));
  return { ...FORMAT_BREAKERS, 'SCH-UPDATE-EVENT-PID': EVENT_PID_BREAKER, 'SCH-UPDATE-CONDITIONALS': conditionals };
}

/**
 * The rules an invalid schedule payload can break, per operation. On update the three conditional
 * rules are reported as SCH-UPDATE-CONDITIONALS, and required fields are not generated (PUT is partial).
 */
export const SCHEDULE_BREAKABLE_RULES: Readonly<Record<Operation, readonly RuleId[]>> = {
  create: Object.keys(breakersFor('create')) as RuleId[],
  update: Object.keys(breakersFor('update')) as RuleId[],
};

/**
 * A schedule payload that breaks exactly one rule (its `breaks`), built from a valid full payload by
 * one edit: an invalid date, time, weeks or timezone; a conditional field left out; a required
 * field left out (create); event_pid left out (update). `rules` restricts the rules broken (default:
 * every one of SCHEDULE_BREAKABLE_RULES[operation], equally likely). Update cases assume the stored
 * schedule has no times, repeat fields or weeks (see ScheduleCaseOptions.minimal).
 */
export function invalidScheduleCase(ctx: GeneratorContext, operation: Operation, rules?: readonly RuleId[]): fc.Arbitrary<GeneratedCase> {
  const breakers = breakersFor(operation);
  const chosen = rules ?? SCHEDULE_BREAKABLE_RULES[operation];
  const arbitraries = chosen.map((rule) => {
    const breaker = breakers[rule];
    if (!breaker) throw new InternalError(`a schedule ${operation} payload cannot be made to break ${rule}; it can break ${SCHEDULE_BREAKABLE_RULES[operation].join(', ')}`);
    return breaker(ctx, operation);
  });
  if (arbitraries.length === 0) throw new InternalError('invalidScheduleCase needs at least one rule');
  return fc.oneof(...arbitraries);
}
