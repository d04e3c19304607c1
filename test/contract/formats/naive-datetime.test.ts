import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { formatNaiveDateTime, isNaiveDateTime } from '../../../src/contract/formats/naive-datetime.ts';

describe('isNaiveDateTime (YYYY-MM-DDTHH:MM:SS, no offset)', () => {
  it.each(['2026-07-01T12:00:00', '2024-02-29T00:00:00', '2026-12-31T23:59:59', '2000-02-29T08:30:15'])('accepts %s', (value) => {
    expect(isNaiveDateTime(value)).toBe(true);
  });

  it.each([
    ['2026-07-01T12:00:00+00:00', 'an offset'],
    ['2026-07-01T12:00:00Z', 'Z'],
    ['2026-07-01T12:00:00.000', 'fractional seconds'],
    ['2026-07-01T24:00:00', 'hour 24'],
    ['2026-07-01T23:60:00', 'minute 60'],
    ['2026-07-01T23:59:60', 'second 60'],
    ['2023-02-29T12:00:00', 'February 29 of a common year'],
    ['2026-04-31T12:00:00', 'April 31'],
    ['2026-07-01 12:00:00', 'a space instead of T'],
    ['2026-07-01T12:00', 'no seconds'],
    ['2026-07-01', 'a date only'],
    ['2026-07-01T12:00:00 ', 'trailing whitespace'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (value) => {
    expect(isNaiveDateTime(value)).toBe(false);
  });
});

describe('formatNaiveDateTime', () => {
  it.each([
    ['UTC', '2026-07-01T12:00:00'],
    ['America/Chicago', '2026-07-01T07:00:00'],
    ['Asia/Kathmandu', '2026-07-01T17:45:00'],
  ])('writes the wall clock of the instant in %s without an offset: %s', (zone, expected) => {
    const value = formatNaiveDateTime(DateTime.fromISO('2026-07-01T12:00:00Z').setZone(zone));
    expect(value).toBe(expected);
    expect(isNaiveDateTime(value)).toBe(true);
  });
});
