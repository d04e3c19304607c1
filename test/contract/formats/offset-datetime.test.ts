import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import {
  formatOffsetDateTime,
  isOffsetDateTime,
  parseOffsetDateTime,
} from '../../../src/contract/formats/offset-datetime.ts';

describe('isOffsetDateTime (YYYY-MM-DDTHH:MM:SS±HH:MM)', () => {
  it.each([
    '2026-07-01T12:00:00+05:45',
    '2026-07-01T12:00:00-03:30',
    '2026-07-01T12:00:00+14:00',
    '2026-07-01T12:00:00-12:00',
    '2026-07-01T12:00:00+00:00',
    '2024-02-29T23:59:59-05:00',
    '2026-01-01T00:00:00+01:00',
  ])('accepts %s', (value) => {
    expect(isOffsetDateTime(value)).toBe(true);
  });

  it.each([
    ['2026-07-01T12:00:00', 'no offset (naive)'],
    ['2026-07-01T12:00:00Z', 'Z instead of a numeric offset'],
    ['2026-07-01T12:00:00z', 'lowercase z'],
    ['2026-07-01T12:00:00+0545', 'an offset without colon'],
    ['2026-07-01T12:00:00+05', 'an offset of hours only'],
    ['2026-07-01T12:00:00.000+05:45', 'fractional seconds'],
    ['2026-07-01T12:00:00.5-03:00', 'one fractional digit'],
    ['2026-07-01T12:00+05:45', 'no seconds'],
    ['2026-02-30T12:00:00+01:00', 'February 30'],
    ['2023-02-29T12:00:00+01:00', 'February 29 of a common year'],
    ['2026-13-01T12:00:00+01:00', 'month 13'],
    ['2026-04-31T12:00:00+01:00', 'April 31'],
    ['2026-07-01T24:00:00+00:00', 'hour 24'],
    ['2026-07-01T23:60:00+00:00', 'minute 60'],
    ['2026-07-01T23:59:60+00:00', 'second 60'],
    ['2026-07-01T12:00:00+24:00', 'offset hour 24'],
    ['2026-07-01T12:00:00+05:60', 'offset minute 60'],
    ['2026-07-01 12:00:00+05:45', 'a space instead of T'],
    ['2026-07-01t12:00:00+05:45', 'a lowercase t'],
    [' 2026-07-01T12:00:00+05:45', 'leading whitespace'],
    ['2026-07-01T12:00:00+05:45 ', 'trailing whitespace'],
    ['2026-7-1T12:00:00+05:45', 'an unpadded date'],
    ['07/01/2026T12:00:00+05:45', 'a US date'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (value) => {
    expect(isOffsetDateTime(value)).toBe(false);
  });
});

describe('parseOffsetDateTime', () => {
  it.each([
    ['2026-07-01T12:00:00+05:45', 345, '2026-07-01T06:15:00.000Z'],
    ['2026-07-01T12:00:00-03:30', -210, '2026-07-01T15:30:00.000Z'],
    ['2026-07-01T12:00:00+14:00', 840, '2026-06-30T22:00:00.000Z'],
    ['2026-07-01T12:00:00-05:00', -300, '2026-07-01T17:00:00.000Z'],
    ['2026-07-01T12:00:00+00:00', 0, '2026-07-01T12:00:00.000Z'],
  ])('reads %s as offset %i minutes at instant %s', (value, offset, instant) => {
    const parsed = parseOffsetDateTime(value);
    expect(parsed?.offsetMinutes).toBe(offset);
    expect(parsed?.dateTime.toUTC().toISO()).toBe(instant);
  });

  it.each(['2026-07-01T12:00:00+05:45', '2026-07-01T12:00:00-03:30'])('keeps %s in the offset it was written with', (value) => {
    const parsed = parseOffsetDateTime(value);
    expect(parsed?.dateTime.offset).toBe(parsed?.offsetMinutes);
    expect(parsed?.dateTime.toFormat("yyyy-MM-dd'T'HH:mm:ss")).toBe(value.slice(0, 19));
  });

  it.each(['2026-07-01T12:00:00', '2026-07-01T12:00:00Z', '2026-07-01T24:00:00+00:00', 'not a date'])(
    'returns null for %j',
    (value) => {
      expect(parseOffsetDateTime(value)).toBeNull();
    },
  );
});

describe('formatOffsetDateTime', () => {
  it.each([
    ['2026-07-01T12:00:00+05:45'],
    ['2026-07-01T12:00:00-03:30'],
    ['2026-01-15T08:00:00+00:00'],
  ])('writes %s back exactly as it was parsed', (value) => {
    const parsed = parseOffsetDateTime(value);
    expect(formatOffsetDateTime(parsed?.dateTime as DateTime)).toBe(value);
  });

  it.each([
    ['America/Chicago', '2026-07-01T07:00:00-05:00'],
    ['Asia/Kathmandu', '2026-07-01T17:45:00+05:45'],
    ['UTC', '2026-07-01T12:00:00+00:00'],
  ])('writes an instant in %s with that zone\'s offset: %s', (zone, expected) => {
    const instant = DateTime.fromISO('2026-07-01T12:00:00Z').setZone(zone);
    expect(formatOffsetDateTime(instant)).toBe(expected);
    expect(isOffsetDateTime(expected)).toBe(true);
  });
});
