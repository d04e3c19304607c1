import { describe, expect, it } from 'vitest';
import { DateTime, IANAZone } from 'luxon';
import { formatOffset, matchOffsetToZone } from '../../../src/contract/formats/offset-matches-zone.ts';
import { parseOffsetDateTime } from '../../../src/contract/formats/offset-datetime.ts';

/**
 * The 2026 clock changes of the zones under test, each written as the instant of the change in the
 * offset that ends there (the wall clock that is left behind), and the offset that starts there.
 * They are checked against luxon's zone data below, so a wrong date here fails loudly.
 */
const TRANSITIONS_2026 = [
  { zone: 'America/Chicago', at: '2026-03-08T02:00:00-06:00', to: '-05:00' },
  { zone: 'America/Chicago', at: '2026-11-01T02:00:00-05:00', to: '-06:00' },
  { zone: 'Europe/London', at: '2026-03-29T01:00:00+00:00', to: '+01:00' },
  { zone: 'Europe/London', at: '2026-10-25T02:00:00+01:00', to: '+00:00' },
  { zone: 'Europe/Berlin', at: '2026-03-29T02:00:00+01:00', to: '+02:00' },
  { zone: 'Europe/Berlin', at: '2026-10-25T03:00:00+02:00', to: '+01:00' },
  { zone: 'Australia/Sydney', at: '2026-04-05T03:00:00+11:00', to: '+10:00' },
  { zone: 'Australia/Sydney', at: '2026-10-04T02:00:00+10:00', to: '+11:00' },
  { zone: 'Pacific/Auckland', at: '2026-04-05T03:00:00+13:00', to: '+12:00' },
  { zone: 'Pacific/Auckland', at: '2026-09-27T02:00:00+12:00', to: '+13:00' },
  { zone: 'America/Santiago', at: '2026-04-05T00:00:00-03:00', to: '-04:00' },
  { zone: 'America/Santiago', at: '2026-09-06T00:00:00-04:00', to: '-03:00' },
  { zone: 'Australia/Lord_Howe', at: '2026-04-05T02:00:00+11:00', to: '+10:30' },
  { zone: 'Australia/Lord_Howe', at: '2026-10-04T02:00:00+10:30', to: '+11:00' },
] as const;

const DST_ZONES = [...new Set(TRANSITIONS_2026.map((t) => t.zone))];
const MINUTE = 60_000;

function offsetMinutes(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  return sign * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)));
}

/** `wall` (a UTC-based millisecond count standing for a wall clock) written with `offset`. */
function written(wallMs: number, offset: number): string {
  return `${DateTime.fromMillis(wallMs, { zone: 'UTC' }).toFormat("yyyy-MM-dd'T'HH:mm:ss")}${formatOffset(offset)}`;
}

/** Every offset change of `zone` in `year`, found by scanning luxon's zone data hour by hour, to the minute. */
function scanTransitions(zone: string, year: number): { instant: number; from: number; to: number }[] {
  const z = IANAZone.create(zone);
  const found: { instant: number; from: number; to: number }[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  for (let t = Date.UTC(year, 0, 1); t < end; t += 60 * MINUTE) {
    const from = z.offset(t);
    if (from === z.offset(t + 60 * MINUTE)) continue;
    let lo = t;
    let hi = t + 60 * MINUTE;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / (2 * MINUTE)) * MINUTE;
      if (z.offset(mid) === from) lo = mid;
      else hi = mid;
    }
    found.push({ instant: hi, from, to: z.offset(hi) });
  }
  return found;
}

interface Change {
  zone: string;
  instant: number;
  from: number;
  to: number;
  /** The wall clock, as UTC-based milliseconds, at which the change happens (read in the old offset). */
  wall: number;
  label: string;
}

const CHANGES: Change[] = TRANSITIONS_2026.map(({ zone, at, to }) => {
  const parsed = parseOffsetDateTime(at);
  if (!parsed) throw new Error(`bad transition ${at}`);
  const instant = parsed.dateTime.toMillis();
  return { zone, instant, from: parsed.offsetMinutes, to: offsetMinutes(to), wall: instant + parsed.offsetMinutes * MINUTE, label: at };
});
const GAPS = CHANGES.filter((c) => c.to > c.from);
const OVERLAPS = CHANGES.filter((c) => c.to < c.from);

describe('the 2026 transition table used by these tests', () => {
  it.each(DST_ZONES)('lists exactly the 2026 clock changes of %s that luxon knows', (zone) => {
    const expected = CHANGES.filter((c) => c.zone === zone).map(({ instant, from, to }) => ({ instant, from, to }));
    expect(scanTransitions(zone, 2026)).toEqual(expected);
  });

  it.each(['Asia/Kathmandu', 'Asia/Kolkata'])('finds no clock change in %s in 2026', (zone) => {
    expect(scanTransitions(zone, 2026)).toEqual([]);
  });

  it('covers gaps and overlaps in both hemispheres, and a 30-minute change', () => {
    expect(GAPS).toHaveLength(7);
    expect(OVERLAPS).toHaveLength(7);
    expect(CHANGES.some((c) => Math.abs(c.to - c.from) === 30)).toBe(true);
  });
});

describe('matchOffsetToZone in the gap of a spring-forward change', () => {
  const rows = GAPS.flatMap((c) => {
    const size = c.to - c.from;
    return [
      { ...c, what: 'the first minute of the gap', wall: c.wall },
      { ...c, what: 'the middle of the gap', wall: c.wall + (size / 2) * MINUTE },
      { ...c, what: 'the last minute of the gap', wall: c.wall + (size - 1) * MINUTE },
    ].flatMap((r) => [
      { ...r, value: written(r.wall, c.from), which: 'standard' },
      { ...r, value: written(r.wall, c.to), which: 'daylight' },
    ]);
  });

  it.each(rows)('$zone: $value ($what, $which offset) does not match, the local time does not exist', ({ value, zone }) => {
    expect(matchOffsetToZone(value, zone)?.matches).toBe(false);
  });

  it.each(GAPS.map((c) => ({ ...c, value: written(c.wall + (c.to - c.from) * MINUTE, c.to) })))(
    '$zone: $value, just after the gap, matches with the daylight offset',
    ({ value, zone, to }) => {
      expect(matchOffsetToZone(value, zone)).toEqual({ matches: true, writtenOffsetMinutes: to, zoneOffsetMinutes: to });
    },
  );

  it.each(GAPS.map((c) => ({ ...c, value: written(c.wall - MINUTE, c.from) })))(
    '$zone: $value, just before the gap, matches with the standard offset',
    ({ value, zone, from }) => {
      expect(matchOffsetToZone(value, zone)).toEqual({ matches: true, writtenOffsetMinutes: from, zoneOffsetMinutes: from });
    },
  );

  it.each(GAPS.map((c) => ({ ...c, value: written(c.wall + (c.to - c.from) * MINUTE, c.from) })))(
    '$zone: $value, just after the gap, does not match with the standard offset',
    ({ value, zone, to }) => {
      expect(matchOffsetToZone(value, zone)).toMatchObject({ matches: false, zoneOffsetMinutes: to });
    },
  );
});

describe('matchOffsetToZone in the overlap of a fall-back change', () => {
  const rows = OVERLAPS.flatMap((c) => {
    const size = c.from - c.to;
    return [
      { ...c, what: 'the first minute of the overlap', wall: c.wall - size * MINUTE },
      { ...c, what: 'the middle of the overlap', wall: c.wall - (size / 2) * MINUTE },
      { ...c, what: 'the last minute of the overlap', wall: c.wall - MINUTE },
    ].map((r) => ({ ...r, local: written(r.wall, 0).slice(0, 19) }));
  });

  it.each(rows)('$zone: $local ($what) occurs twice, and both the daylight and the standard offset match', ({ zone, wall, from, to }) => {
    const daylight = written(wall, from);
    const standard = written(wall, to);
    expect(matchOffsetToZone(daylight, zone)).toEqual({ matches: true, writtenOffsetMinutes: from, zoneOffsetMinutes: from });
    expect(matchOffsetToZone(standard, zone)).toEqual({ matches: true, writtenOffsetMinutes: to, zoneOffsetMinutes: to });
    const gapMs = parseOffsetDateTime(standard)!.dateTime.toMillis() - parseOffsetDateTime(daylight)!.dateTime.toMillis();
    expect(gapMs).toBe((from - to) * MINUTE);
  });

  it.each(OVERLAPS.map((c) => ({ ...c, value: written(c.wall - (c.from - c.to + 1) * MINUTE, c.to) })))(
    '$zone: $value, just before the overlap, does not match with the standard offset',
    ({ value, zone, from }) => {
      expect(matchOffsetToZone(value, zone)).toMatchObject({ matches: false, zoneOffsetMinutes: from });
    },
  );

  it.each(OVERLAPS.map((c) => ({ ...c, value: written(c.wall, c.from) })))(
    '$zone: $value, just after the overlap, does not match with the daylight offset',
    ({ value, zone, to }) => {
      expect(matchOffsetToZone(value, zone)).toMatchObject({ matches: false, zoneOffsetMinutes: to });
    },
  );

  it.each(OVERLAPS.map((c) => ({ ...c, value: written(c.wall, c.to) })))(
    '$zone: $value, just after the overlap, matches with the standard offset',
    ({ value, zone }) => {
      expect(matchOffsetToZone(value, zone)?.matches).toBe(true);
    },
  );
});

describe('matchOffsetToZone on the America/Chicago examples, written out', () => {
  it.each([
    ['2026-03-08T01:30:00-06:00', true, -360, 'before the gap, CST'],
    ['2026-03-08T02:30:00-06:00', false, -300, 'in the gap, CST: 02:30 local does not exist'],
    ['2026-03-08T02:30:00-05:00', false, -360, 'in the gap, CDT: 02:30 local does not exist'],
    ['2026-03-08T03:30:00-05:00', true, -300, 'after the gap, CDT'],
    ['2026-03-08T03:30:00-06:00', false, -300, 'after the gap, CST'],
    ['2026-11-01T00:30:00-05:00', true, -300, 'before the overlap, CDT'],
    ['2026-11-01T01:30:00-05:00', true, -300, 'in the overlap, CDT: the first 01:30'],
    ['2026-11-01T01:30:00-06:00', true, -360, 'in the overlap, CST: the second 01:30'],
    ['2026-11-01T02:30:00-06:00', true, -360, 'after the overlap, CST'],
    ['2026-11-01T02:30:00-05:00', false, -360, 'after the overlap, CDT'],
    ['2026-07-01T12:00:00-05:00', true, -300, 'summer, CDT'],
    ['2026-07-01T12:00:00-06:00', false, -300, 'summer, CST (the DST-blind mistake)'],
    ['2026-01-15T12:00:00-06:00', true, -360, 'winter, CST'],
    ['2026-01-15T12:00:00-05:00', false, -360, 'winter, CDT'],
  ])('%s matches is %s, Chicago being %i minutes east of UTC then (%s)', (value, matches, zoneOffset) => {
    expect(matchOffsetToZone(value, 'America/Chicago')).toMatchObject({ matches, zoneOffsetMinutes: zoneOffset });
  });
});

describe('matchOffsetToZone away from clock changes', () => {
  // Midsummer: July in the north, January in the south.
  it.each([
    { zone: 'America/Chicago', summer: '2026-07-01T12:00:00', winter: '2026-01-15T12:00:00', daylight: -300, standard: -360 },
    { zone: 'Europe/London', summer: '2026-07-01T12:00:00', winter: '2026-01-15T12:00:00', daylight: 60, standard: 0 },
    { zone: 'Europe/Berlin', summer: '2026-07-01T12:00:00', winter: '2026-01-15T12:00:00', daylight: 120, standard: 60 },
    { zone: 'Australia/Sydney', summer: '2026-01-15T12:00:00', winter: '2026-07-01T12:00:00', daylight: 660, standard: 600 },
    { zone: 'Pacific/Auckland', summer: '2026-01-15T12:00:00', winter: '2026-07-01T12:00:00', daylight: 780, standard: 720 },
    { zone: 'America/Santiago', summer: '2026-01-15T12:00:00', winter: '2026-07-01T12:00:00', daylight: -180, standard: -240 },
    { zone: 'Australia/Lord_Howe', summer: '2026-01-15T12:00:00', winter: '2026-07-01T12:00:00', daylight: 660, standard: 630 },
  ])('$zone: a summer value with the standard offset does not match (the DST-blind mistake), the daylight one does', (row) => {
    const d = formatOffset(row.daylight);
    const s = formatOffset(row.standard);
    expect(matchOffsetToZone(`${row.summer}${s}`, row.zone)).toEqual({ matches: false, writtenOffsetMinutes: row.standard, zoneOffsetMinutes: row.daylight });
    expect(matchOffsetToZone(`${row.summer}${d}`, row.zone)).toEqual({ matches: true, writtenOffsetMinutes: row.daylight, zoneOffsetMinutes: row.daylight });
    expect(matchOffsetToZone(`${row.winter}${s}`, row.zone)).toEqual({ matches: true, writtenOffsetMinutes: row.standard, zoneOffsetMinutes: row.standard });
    expect(matchOffsetToZone(`${row.winter}${d}`, row.zone)).toEqual({ matches: false, writtenOffsetMinutes: row.daylight, zoneOffsetMinutes: row.standard });
  });

  it.each([
    ['Asia/Kathmandu', '2026-01-15T12:00:00+05:45', true, 345],
    ['Asia/Kathmandu', '2026-07-01T12:00:00+05:45', true, 345],
    ['Asia/Kathmandu', '2026-07-01T12:00:00+05:30', false, 345],
    ['Asia/Kathmandu', '2026-07-01T12:00:00+06:00', false, 345],
    ['Asia/Kathmandu', '2026-07-01T12:00:00+05:00', false, 345],
    ['Asia/Kolkata', '2026-01-15T12:00:00+05:30', true, 330],
    ['Asia/Kolkata', '2026-07-01T12:00:00+05:30', true, 330],
    ['Asia/Kolkata', '2026-07-01T12:00:00+05:45', false, 330],
    ['Asia/Kolkata', '2026-07-01T12:00:00+06:30', false, 330],
    ['UTC', '2026-07-01T12:00:00+00:00', true, 0],
    ['UTC', '2026-07-01T12:00:00+01:00', false, 0],
  ])('%s: %s matches is %s, the zone being %i minutes east of UTC all year', (zone, value, matches, zoneOffset) => {
    expect(matchOffsetToZone(value, zone)).toMatchObject({ matches, zoneOffsetMinutes: zoneOffset });
  });

  it('reports the written offset and the zone offset separately', () => {
    expect(matchOffsetToZone('2026-07-01T12:00:00-06:00', 'America/Chicago')).toEqual({
      matches: false,
      writtenOffsetMinutes: -360,
      zoneOffsetMinutes: -300,
    });
  });
});

describe('matchOffsetToZone on values it cannot judge', () => {
  it.each([
    ['2026-07-01T12:00:00', 'America/Chicago', 'a value without offset'],
    ['2026-07-01T12:00:00Z', 'America/Chicago', 'a value with Z'],
    ['2026-02-30T12:00:00-06:00', 'America/Chicago', 'an impossible date'],
    ['2026-07-01T12:00:00-05:00', 'Mars/Olympus', 'an unknown zone'],
    ['2026-07-01T12:00:00-05:00', 'CST', 'an abbreviation Intl resolves'],
    ['2026-07-01T12:00:00-05:00', 'EST', 'another abbreviation Intl resolves'],
    ['2026-07-01T12:00:00-05:00', '+05:00', 'a fixed offset'],
    ['2026-07-01T12:00:00-05:00', 'america/chicago', 'a misspelt zone'],
    ['2026-07-01T12:00:00-05:00', '', 'an empty zone'],
  ])('returns null for %s in %j (%s)', (value, zone) => {
    expect(matchOffsetToZone(value, zone)).toBeNull();
  });
});

describe('formatOffset', () => {
  it.each([
    [0, '+00:00'],
    [60, '+01:00'],
    [330, '+05:30'],
    [345, '+05:45'],
    [630, '+10:30'],
    [840, '+14:00'],
    [-210, '-03:30'],
    [-300, '-05:00'],
    [-720, '-12:00'],
    [-30, '-00:30'],
  ])('writes %i minutes as %s', (minutes, text) => {
    expect(formatOffset(minutes)).toBe(text);
  });
});
