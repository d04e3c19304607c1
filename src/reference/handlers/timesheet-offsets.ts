import { DateTime, IANAZone } from 'luxon';
import { formatOffset, parseOffsetDateTime } from '../../contract/formats/index.ts';
import { offsetZoneViolations } from '../../contract/payloads/timesheet.ts';
import type { Violation } from '../../contract/violation.ts';
import type { ServerContext } from '../context.ts';

type OffsetRule = (value: string, zone: string) => number;

/** The zone's real offset at the value's instant: the spec's rule (§4.3). */
const atInstant: OffsetRule = (value, zone) => IANAZone.create(zone).offset(parseOffsetDateTime(value)!.dateTime.toMillis());

/** Fault `offset-dst-blind`: the zone's standard offset, DST ignored. */
const standardOffset: OffsetRule = (value, zone) => {
  const year = parseOffsetDateTime(value)!.dateTime.year;
  const z = IANAZone.create(zone);
  return Math.min(z.offset(Date.UTC(year, 0, 1)), z.offset(Date.UTC(year, 6, 1)));
};

/** Fault `offset-day-granular`: the zone's offset at local midnight of the written date. */
const midnightOffset: OffsetRule = (value, zone) => {
  const written = parseOffsetDateTime(value)!.dateTime;
  return DateTime.fromObject({ year: written.year, month: written.month, day: written.day }, { zone }).offset;
};

/**
 * Faults `offset-wall-time-standard` and `offset-wall-time-first`: the zone's offset at the written
 * wall time, not at the instant. A wall time of a zone has one reading, two (a fall-back day's
 * repeated hour) or none (a spring-forward day's skipped hour); where it has two or none, the
 * standard reading takes the smaller offset, the first-occurrence reading the larger one (the
 * earlier instant; in a gap, java.time moves the wall time past it, to the offset after the change).
 */
const wallTimeOffset =
  (prefer: 'smaller' | 'larger'): OffsetRule =>
  (value, zone) => {
    const written = parseOffsetDateTime(value)!;
    const wall = written.dateTime.toMillis() + written.offsetMinutes * 60_000;
    const z = IANAZone.create(zone);
    const around = [...new Set([-1, 0, 1].map((d) => z.offset(wall + d * 86_400_000)))];
    const readings = around.filter((o) => z.offset(wall - o * 60_000) === o);
    const choices = readings.length > 0 ? readings : around;
    return prefer === 'smaller' ? Math.min(...choices) : Math.max(...choices);
  };

/** How a faulty server takes the offset of a zone given for a datetime. */
function givenZoneRule(ctx: ServerContext): OffsetRule {
  if (ctx.fault('offset-dst-blind')) return standardOffset;
  if (ctx.fault('offset-day-granular')) return midnightOffset;
  if (ctx.fault('offset-wall-time-standard')) return wallTimeOffset('smaller');
  if (ctx.fault('offset-wall-time-first')) return wallTimeOffset('larger');
  return atInstant;
}

/**
 * §4.3 offset/timezone violations as the server checks them, `companyTimezone` the request's
 * company's. With no offset fault on, this is the spec model's own check; each offset fault swaps in
 * one realistic mistake.
 */
export function timesheetOffsetViolations(ctx: ServerContext, body: Record<string, unknown>, companyTimezone: string): Violation[] {
  const faulty =
    ctx.fault('offset-unchecked') || ctx.fault('offset-dst-blind') || ctx.fault('offset-day-granular') ||
    ctx.fault('end-offset-uses-clock-in') || ctx.fault('offset-default-utc') || ctx.fault('offset-wall-time-standard') || ctx.fault('offset-wall-time-first');
  if (!faulty) return offsetZoneViolations(body, companyTimezone);
  if (ctx.fault('offset-unchecked')) return [];

  const violations: Violation[] = [];
  for (const which of ['start', 'end'] as const) {
    const value = body[which];
    if (typeof value !== 'string' || !parseOffsetDateTime(value)) continue;
    const zoneField = which === 'start' || ctx.fault('end-offset-uses-clock-in') ? 'clock_in_timezone' : 'clock_out_timezone';
    const given = body[zoneField];
    const defaulted = typeof given !== 'string';
    const zone = defaulted ? (ctx.fault('offset-default-utc') ? 'UTC' : companyTimezone) : given;
    if (!IANAZone.isValidZone(zone)) continue;
    const rule: OffsetRule = defaulted ? atInstant : givenZoneRule(ctx);
    const expected = rule(value, zone);
    const written = parseOffsetDateTime(value)!.offsetMinutes;
    if (expected !== written) {
      violations.push({
        ruleId: defaulted ? 'TS-OFFSET-DEFAULT-TIMEZONE' : 'TS-OFFSET-MATCHES-TIMEZONE',
        field: which,
        message: `${which}: offset ${formatOffset(written)} does not match ${zone} (${formatOffset(expected)})`,
      });
    }
  }
  return violations;
}
