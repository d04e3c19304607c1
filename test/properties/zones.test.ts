import fc from 'fast-check';
import { DateTime, IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneTransitions } from '../../src/properties/arbitraries/_internals/transitions.ts';
import { DST_ZONES, FIXED_ZONES, ZONES } from '../../src/properties/arbitraries/_internals/zones.ts';
import { zoneInstant } from '../../src/properties/arbitraries/zone-instant.ts';
import { zoneOffsetMismatch } from '../../src/properties/arbitraries/zone-offset-mismatch.ts';
import { isTimezoneName, matchOffsetToZone, parseOffsetDateTime } from '../../src/contract/formats/index.ts';

const HOUR = 3_600_000;
const WALL = "yyyy-MM-dd'T'HH:mm:ss";

/** Whether the zone changes offset within 24 h of `millis` (hourly scan, independent of the generator's own search). */
function nearTransition(zone: string, millis: number): boolean {
  const tz = IANAZone.create(zone);
  const first = tz.offset(millis - 24 * HOUR);
  for (let k = -23; k <= 24; k++) if (tz.offset(millis + k * HOUR) !== first) return true;
  return false;
}

describe('zones', () => {
  it('are IANA names this runtime knows, DST zones changing offset in 2015–2024 and fixed ones not', () => {
    for (const zone of ZONES) expect(isTimezoneName(zone), zone).toBe(true);
    for (const zone of DST_ZONES) expect(zoneTransitions(zone, 2015, 2024).length, zone).toBeGreaterThan(0);
    for (const zone of FIXED_ZONES) expect(zoneTransitions(zone, 2017, 2030), zone).toEqual([]);
  });

  it('finds the same transitions with its coarse scan as with a daily one, each to the second', () => {
    for (const zone of ZONES) {
      const coarse = zoneTransitions(zone, 2015, 2030);
      expect(coarse, zone).toEqual(zoneTransitions(zone, 2015, 2030, 1));
      const tz = IANAZone.create(zone);
      for (const t of coarse) expect(tz.offset(t - 1000), `${zone} ${new Date(t).toISOString()}`).not.toBe(tz.offset(t));
    }
  });

  it('knows the odd DST steps: 30 minutes on Lord Howe, 60 in St. John\'s and on the Chathams', () => {
    const step = (zone: string) => {
      const [t] = zoneTransitions(zone, 2020, 2020);
      return Math.abs(IANAZone.create(zone).offset(t!) - IANAZone.create(zone).offset(t! - 1000));
    };
    expect(step('Australia/Lord_Howe')).toBe(30);
    expect(step('America/St_Johns')).toBe(60);
    expect(step('Pacific/Chatham')).toBe(60);
  });
});

describe('zoneInstant', () => {
  it('writes every instant with the offset its zone has at that instant (matchOffsetToZone)', () => {
    fc.assert(
      fc.property(zoneInstant(), (i) => {
        const match = matchOffsetToZone(i.value, i.zone);
        return match?.matches === true && parseOffsetDateTime(i.value)!.dateTime.toMillis() === i.millis;
      }),
      { numRuns: 2000 },
    );
  });

  it('puts at least 40% of its instants within 24 h of a DST transition', () => {
    const instants = fc.sample(zoneInstant(), { seed: 5, numRuns: 3000 });
    const near = instants.filter((i) => nearTransition(i.zone, i.millis)).length;
    expect(near / instants.length).toBeGreaterThanOrEqual(0.4);
  });

  it('draws from many zones in both hemispheres, the 45-minute Kathmandu among them', () => {
    const zones = new Set(fc.sample(zoneInstant(), { seed: 6, numRuns: 3000 }).map((i) => i.zone));
    expect(zones.size).toBeGreaterThanOrEqual(40);
    for (const zone of ['Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns', 'Pacific/Chatham', 'America/Santiago']) {
      expect(zones.has(zone), zone).toBe(true);
    }
  });

  it('never writes a local time inside a spring-forward gap, and keeps to its years and zones', () => {
    const zones = ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe'];
    fc.assert(
      fc.property(zoneInstant({ zones, fromYear: 2019, toYear: 2020 }), (i) => {
        const wall = i.value.slice(0, 19);
        // luxon moves a wall time that does not exist forward: an existing one reads back unchanged
        const readBack = DateTime.fromISO(wall, { zone: i.zone }).toFormat(WALL);
        const year = new Date(i.millis).getUTCFullYear();
        return zones.includes(i.zone) && readBack === wall && year >= 2019 && year <= 2020;
      }),
      { numRuns: 1000 },
    );
  });
});

describe('zoneOffsetMismatch', () => {
  it('writes the wall time with an offset the zone does not have at that instant (matchOffsetToZone)', () => {
    fc.assert(fc.property(zoneOffsetMismatch(), (m) => matchOffsetToZone(m.value, m.zone)?.matches === false), { numRuns: 2000 });
  });

  it("uses the zone's other DST offset: +10:30 for +11:00 on Lord Howe, -03:30 for -02:30 in St. John's", () => {
    const offsets = (zone: string) =>
      new Set(fc.sample(zoneOffsetMismatch({ zones: [zone] }), { seed: 3, numRuns: 300 }).map((m) => m.value.slice(19)));
    expect(offsets('Australia/Lord_Howe')).toEqual(new Set(['+10:30', '+11:00']));
    expect(offsets('America/St_Johns')).toEqual(new Set(['-03:30', '-02:30']));
    expect(offsets('Pacific/Chatham')).toEqual(new Set(['+12:45', '+13:45']));
  });

  it('shifts a zone without DST by an hour either way', () => {
    fc.assert(
      fc.property(zoneOffsetMismatch({ zones: ['Asia/Kathmandu', 'Asia/Kolkata', 'UTC'] }), (m) => {
        const match = matchOffsetToZone(m.value, m.zone)!;
        return Math.abs(match.writtenOffsetMinutes - match.zoneOffsetMinutes) === 60;
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the wall time of the instant it was drawn at', () => {
    fc.assert(
      fc.property(zoneOffsetMismatch(), (m) => m.value.slice(0, 19) === DateTime.fromMillis(m.millis, { zone: m.zone }).toFormat(WALL)),
      { numRuns: 500 },
    );
  });
});
