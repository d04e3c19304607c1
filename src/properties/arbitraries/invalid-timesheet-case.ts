import fc from 'fast-check';
import { formatOffset } from '../../contract/formats/index.ts';
import { TIMESHEET_FIELDS } from '../../contract/payloads/timesheet.ts';
import type { RuleId } from '../../contract/rules.ts';
import type { GeneratedCase, GeneratorContext } from '../family.ts';
import { brokenOffsetDateTime } from './_internals/broken-offset-date-time.ts';
import { mismatchAt } from './_internals/mismatch-at.ts';
import { omit, requiredFields } from './_internals/payload-edits.ts';
import { describeTimesheet, TIMESHEET_YEARS, timesheetPayload, type ClockOut, type EndShape } from './_internals/timesheet-payload.ts';
import { ZONES } from './_internals/zones.ts';
import { invalidTimezoneName } from './invalid-timezone-name.ts';
import { timesheetCase } from './timesheet-case.ts';
import { zoneInstant } from './zone-instant.ts';
import { zoneOffsetMismatch } from './zone-offset-mismatch.ts';
import { InternalError } from '../../errors.ts';

type Breaker = (ctx: GeneratorContext) => fc.Arbitrary<GeneratedCase>;

const HOUR_S = 3600;
/** At least 2 h, so end stays after start whichever of the two offsets the mismatched value is read with. */
const laterEnd = fc.integer({ min: 2 * HOUR_S, max: 12 * HOUR_S }).map((seconds): EndShape => ({ kind: 'after', seconds }));
const anyEnd = fc.oneof(fc.constant<EndShape>({ kind: 'absent' }), fc.constant<EndShape>({ kind: 'null' }), laterEnd);
const shift = fc.constantFrom(-60 as const, 60 as const);

const base = (ctx: GeneratorContext) => timesheetCase(ctx).map((c) => c.payload);
const user = (ctx: GeneratorContext) => fc.constantFrom(...ctx.activeUserIds);

/** start written with the other offset of its zone: explicit (clock_in_timezone) or the company's. */
const badStart = (ctx: GeneratorContext, explicit: boolean, rule: RuleId): fc.Arbitrary<GeneratedCase> =>
  fc
    .record({
      m: zoneOffsetMismatch(explicit ? TIMESHEET_YEARS : { ...TIMESHEET_YEARS, zones: [ctx.companyTimezone] }),
      userId: user(ctx),
      end: anyEnd,
      clockOut: explicit
        ? fc.oneof(fc.constant<ClockOut>({ kind: 'absent' }), fc.constant<ClockOut>({ kind: 'same' }), fc.constantFrom(...ZONES).map((zone): ClockOut => ({ kind: 'zone', zone })))
        : fc.oneof(fc.constant<ClockOut>({ kind: 'absent' }), fc.constant<ClockOut>({ kind: 'null' })),
    })
    .map(({ m, userId, end, clockOut }) => {
      const payload = timesheetPayload(ctx.companyTimezone, userId, { zone: m.zone, value: m.value, millis: m.millis }, explicit, end, clockOut, {});
      return { payload, breaks: rule, label: `start offset wrong: ${m.label}${explicit ? '' : ' (company timezone)'}` };
    });

/** end written with the other offset of its zone: clock_out_timezone given, or the company's. */
const badEnd = (ctx: GeneratorContext, explicit: boolean, rule: RuleId): fc.Arbitrary<GeneratedCase> =>
  fc
    .record({
      start: fc.oneof(
        zoneInstant(TIMESHEET_YEARS).map((instant) => ({ instant, explicit: true })),
        zoneInstant({ ...TIMESHEET_YEARS, zones: [ctx.companyTimezone] }).map((instant) => ({ instant, explicit: false })),
      ),
      userId: user(ctx),
      seconds: fc.integer({ min: 2 * HOUR_S, max: 12 * HOUR_S }),
      zone: explicit ? fc.constantFrom(...ZONES) : fc.constant(ctx.companyTimezone),
      clockOutNull: fc.boolean(),
      shift,
    })
    .map(({ start, userId, seconds, zone, clockOutNull, shift }): GeneratedCase | null => {
      const found = mismatchAt(zone, start.instant.millis + seconds * 1000, shift);
      if (!found) return null;
      const clockOut: ClockOut = explicit ? { kind: 'zone', zone } : clockOutNull ? { kind: 'null' } : { kind: 'absent' };
      const valid = timesheetPayload(ctx.companyTimezone, userId, start.instant, start.explicit, { kind: 'after', seconds }, clockOut, {});
      const payload = { ...valid, end: found.value };
      return { payload, breaks: rule, label: `end offset wrong: ${describeTimesheet(payload, ctx.companyTimezone)} (${zone} is ${formatOffset(found.real)} then, not ${formatOffset(found.written)})` };
    })
    .filter((c): c is GeneratedCase => c !== null);

const BREAKERS: Partial<Record<RuleId, Breaker>> = {
  'TS-DATETIME-FORMAT': (ctx) =>
    fc.tuple(base(ctx), fc.constantFrom('start' as const, 'end' as const)).chain(([p, which]) => {
      const field = typeof p[which] === 'string' ? which : 'start';
      return brokenOffsetDateTime(String(p[field])).map((bad) => ({
        payload: { ...p, [field]: bad.value },
        breaks: 'TS-DATETIME-FORMAT' as const,
        label: `${field} ${bad.label}: ${bad.value}`,
      }));
    }),
  'TS-OFFSET-MATCHES-TIMEZONE': (ctx) => fc.oneof(badStart(ctx, true, 'TS-OFFSET-MATCHES-TIMEZONE'), badEnd(ctx, true, 'TS-OFFSET-MATCHES-TIMEZONE')),
  'TS-OFFSET-DEFAULT-TIMEZONE': (ctx) => fc.oneof(badStart(ctx, false, 'TS-OFFSET-DEFAULT-TIMEZONE'), badEnd(ctx, false, 'TS-OFFSET-DEFAULT-TIMEZONE')),
  'TS-TIMEZONE-NAME': (ctx) =>
    fc
      .tuple(base(ctx), fc.constantFrom('clock_in_timezone', 'clock_out_timezone'), invalidTimezoneName())
      .map(([p, field, bad]) => ({ payload: { ...p, [field]: bad.value }, breaks: 'TS-TIMEZONE-NAME' as const, label: `${field} ${bad.label}: "${bad.value}"` })),
  'TS-CREATE-REQUIRED': (ctx) =>
    fc
      .tuple(base(ctx), fc.constantFrom(...requiredFields(TIMESHEET_FIELDS, 'create')))
      .map(([p, { field, rule }]) => ({ payload: omit(p, field), breaks: rule, label: `without ${field}` })),
};

/** The rules an invalid timesheet create payload can break. */
export const TIMESHEET_BREAKABLE_RULES: readonly RuleId[] = Object.keys(BREAKERS) as RuleId[];

/**
 * A timesheet create payload that breaks exactly one rule (its `breaks`): start or end not in the
 * `±HH:MM` form; start or end written with its zone's other offset (DST hour, or ±60 minutes),
 * with the zone given (TS-OFFSET-MATCHES-TIMEZONE) or defaulted to the company's
 * (TS-OFFSET-DEFAULT-TIMEZONE), biased toward DST transition days; a timezone that is not a name;
 * user_id or start left out. `rules` restricts the rules broken (default: all, equally likely).
 */
export function invalidTimesheetCase(ctx: GeneratorContext, rules: readonly RuleId[] = TIMESHEET_BREAKABLE_RULES): fc.Arbitrary<GeneratedCase> {
  if (ctx.activeUserIds.length === 0) throw new InternalError('invalidTimesheetCase needs at least one active user ID in the context (the run and profileContext require fixtures.active_user_ids)');
  if (rules.length === 0) throw new InternalError('invalidTimesheetCase needs at least one rule');
  return fc.oneof(
    ...rules.map((rule) => {
      const breaker = BREAKERS[rule];
      if (!breaker) throw new InternalError(`a timesheet payload cannot be made to break ${rule}; it can break ${TIMESHEET_BREAKABLE_RULES.join(', ')}`);
      return breaker(ctx);
    }),
  );
}
