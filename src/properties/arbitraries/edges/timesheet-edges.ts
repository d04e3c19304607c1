import fc from 'fast-check';
import { DateTime } from 'luxon';
import type { RuleId } from '../../../contract/rules.ts';
import type { RecordId } from '../../../records/created-id.ts';
import type { GeneratedCase, GeneratorContext } from '../../family.ts';
import { formatInZone } from '../_internals/format-in-zone.ts';
import { describeTimesheet, timesheetPayload, type ClockOut } from '../_internals/timesheet-payload.ts';
import type { ZoneInstant } from '../zone-instant.ts';
import type { EdgeClass } from '../../family.ts';
import { repeatedWallTime, SETTLED_DST_ZONES, skippedWallTime, withOffset } from './time-edges.ts';

// The edges of the timesheet families' domains (§2.3, §4.3): ISO 8601 with a ±HH:MM offset that
// matches the zone given for it, or the company timezone without one.

const HOUR_S = 3600;

/**
 * A timesheet whose start is `start` (zone given when `explicit`, else the company's), ending two
 * hours later in the same zone. Whole cases: each edge class is its own case (no packing).
 */
function sheet(ctx: GeneratorContext, start: ZoneInstant, explicit: boolean, userId: RecordId, breaks?: RuleId, label?: string): GeneratedCase {
  const clockOut: ClockOut = explicit ? { kind: 'same' } : { kind: 'absent' };
  const payload = timesheetPayload(ctx.companyTimezone, userId, start, explicit, { kind: 'after', seconds: 2 * HOUR_S }, clockOut, {});
  return { payload, label: label ?? describeTimesheet(payload, ctx.companyTimezone), ...(breaks ? { breaks } : {}) };
}

const user = (ctx: GeneratorContext) => fc.constantFrom(...ctx.activeUserIds);
const day = fc.tuple(fc.integer({ min: 2015, max: 2024 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }));

/** A valid class: a timesheet starting at `start(ctx)`; each its own case. */
function valid(name: string, build: (ctx: GeneratorContext) => fc.Arbitrary<{ start: ZoneInstant; explicit: boolean }>): EdgeClass {
  return { name, fields: ['start', 'end'], pack: name, member: (ctx) => fc.tuple(build(ctx), user(ctx)).map(([s, u]) => sheet(ctx, s.start, s.explicit, u)) };
}

/** An instant at a local wall time of a zone. */
function atWallTime(zone: string, [y, m, d]: [number, number, number], hour: number, minute: number, second: number): ZoneInstant {
  const millis = DateTime.fromObject({ year: y, month: m, day: d, hour, minute, second }, { zone }).toMillis();
  return { zone, value: formatInZone(millis, zone), millis };
}

/** A start the base makes valid, then its `start` broken textually. */
function broken(name: string, edit: (value: string) => string): EdgeClass {
  return {
    name,
    breaks: 'TS-DATETIME-FORMAT',
    member: (ctx) =>
      fc.tuple(day, fc.integer({ min: 0, max: 23 }), user(ctx)).map(([d, h, u]) => {
        const c = sheet(ctx, atWallTime(ctx.companyTimezone, d, h, 15, 0), false, u);
        const value = edit(String(c.payload.start));
        return { payload: { ...c.payload, start: value }, label: `start ${value}`, breaks: 'TS-DATETIME-FORMAT' as const };
      }),
  };
}

/** TS-DATETIME-FORMAT: the first and last seconds of a day, and the ways a value falls out of the format. */
export const TIMESHEET_DATETIME_EDGES: readonly EdgeClass[] = [
  valid('start at 00:00:00, the first second of a day (company timezone)', (ctx) => day.map((d) => ({ start: atWallTime(ctx.companyTimezone, d, 0, 0, 0), explicit: false }))),
  valid('start at 23:59:59, the last second of a day, so the end is the next day (company timezone)', (ctx) => day.map((d) => ({ start: atWallTime(ctx.companyTimezone, d, 23, 59, 59), explicit: false }))),
  broken('start without an offset (naive local time)', (v) => v.slice(0, 19)),
  broken('start with an offset without its colon (±HHMM)', (v) => `${v.slice(0, 19)}${v.slice(19).replace(':', '')}`),
  broken('start on February 29th of a common year', (v) => `2023-02-29${v.slice(10)}`),
  broken('start in month 13', (v) => `${v.slice(0, 5)}13${v.slice(7)}`),
  broken('start with a date and no time', (v) => v.slice(0, 10)),
];

/** A zone given for the timesheet (clock_in_timezone), one of `zones`, at any time of 2015–2024. */
const inZones = (zones: readonly string[]) => fc.tuple(fc.constantFrom(...zones), day, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([zone, d, h, m]) => ({ start: atWallTime(zone, d, h, m, 0), explicit: true }));

/**
 * A repeated wall time of a fall-back day read with the offset before (`first`) or after the
 * change: both valid. In the company zone where it has such days, else (the class cannot be
 * sent there) in a settled zone given for the timesheet.
 */
function repeated(name: string, company: boolean, reading: 'first' | 'second'): EdgeClass {
  return {
    name,
    fields: ['start', 'end'],
    pack: name,
    member: (ctx) => {
      const own = company ? repeatedWallTime([ctx.companyTimezone]) : null;
      const walls = own ?? repeatedWallTime(SETTLED_DST_ZONES)!;
      return fc.tuple(walls, user(ctx)).map(([w, u]) => {
        const millis = w[reading];
        const explicit = own === null;
        const c = sheet(ctx, { zone: w.change.zone, value: formatInZone(millis, w.change.zone), millis }, explicit, u);
        return { ...c, label: `${c.label} (the repeated hour, ${reading === 'first' ? 'before' : 'after'} the change${own === null && company ? `; ${ctx.companyTimezone} has no fall-back day, so in a zone given` : ''})` };
      });
    },
  };
}

/**
 * A wall time a spring-forward day skips, written with the offset before the change: the instant
 * it denotes has the new offset, so it does not match its zone (TS-OFFSET-MATCHES-TIMEZONE with the
 * zone given, TS-OFFSET-DEFAULT-TIMEZONE in the company zone). A company zone without such a day
 * gets its offset moved by an hour instead (the same rule).
 */
function skipped(name: string, company: boolean): EdgeClass {
  const rule: RuleId = company ? 'TS-OFFSET-DEFAULT-TIMEZONE' : 'TS-OFFSET-MATCHES-TIMEZONE';
  return {
    name,
    breaks: rule,
    member: (ctx) => {
      const zones = company ? [ctx.companyTimezone] : SETTLED_DST_ZONES;
      const gaps = skippedWallTime(zones);
      if (gaps === null) {
        return fc.tuple(day, fc.integer({ min: 0, max: 23 }), user(ctx)).map(([d, h, u]) => {
          const start = atWallTime(ctx.companyTimezone, d, h, 30, 0);
          const value = withOffset(start.millis, DateTime.fromMillis(start.millis, { zone: ctx.companyTimezone }).offset + 60);
          const c = sheet(ctx, { ...start, value }, false, u, rule);
          return { ...c, label: `${c.label} (${ctx.companyTimezone} has no spring-forward day: its offset moved by an hour)` };
        });
      }
      return fc.tuple(gaps, user(ctx)).map(([g, u]) => {
        const c = sheet(ctx, { zone: g.change.zone, value: g.value, millis: g.millis }, !company, u, rule);
        return { ...c, label: `${c.label} (a wall time the spring-forward day skips, with the offset before the change)` };
      });
    },
  };
}

/** A wall time of a :30 zone written with the whole hour below its offset (+05:00 for Asia/Kolkata). */
const HALF_HOUR: EdgeClass = {
  name: 'a zone of a :30 offset written with the whole hour (Asia/Kolkata at +05:00)',
  breaks: 'TS-OFFSET-MATCHES-TIMEZONE',
  member: (ctx) =>
    fc.tuple(inZones(['Asia/Kolkata']), user(ctx)).map(([s, u]) => {
      const value = withOffset(s.start.millis, 300);
      return sheet(ctx, { ...s.start, value }, true, u, 'TS-OFFSET-MATCHES-TIMEZONE');
    }),
};

/** TS-OFFSET-MATCHES-TIMEZONE, TS-OFFSET-DEFAULT-TIMEZONE: offsets of :30 and :45, both readings of a repeated hour, a skipped hour. */
export const TIMESHEET_OFFSET_EDGES: readonly EdgeClass[] = [
  valid('a zone of a :30 offset given (Asia/Kolkata +05:30, America/St_Johns -03:30/-02:30)', () => inZones(['Asia/Kolkata', 'America/St_Johns'])),
  valid('a zone of a :45 offset given (Asia/Kathmandu +05:45, Australia/Eucla +08:45, Pacific/Chatham +12:45/+13:45)', () => inZones(['Asia/Kathmandu', 'Australia/Eucla', 'Pacific/Chatham'])),
  repeated('a wall time of a fall-back day\'s repeated hour with the offset before the change, in a zone given', false, 'first'),
  repeated('a wall time of a fall-back day\'s repeated hour with the offset after the change, in a zone given', false, 'second'),
  repeated('a wall time of a fall-back day\'s repeated hour with the offset before the change, in the company timezone', true, 'first'),
  repeated('a wall time of a fall-back day\'s repeated hour with the offset after the change, in the company timezone', true, 'second'),
  skipped('a wall time a spring-forward day skips, with the offset before the change, in a zone given', false),
  skipped('a wall time a spring-forward day skips, with the offset before the change, in the company timezone', true),
  HALF_HOUR,
];
