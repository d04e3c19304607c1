import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { formatYmdDate, isYmdDate, parseDateRange, parseYmdDate, shiftYmdDate } from '../../../src/contract/formats/ymd-date.ts';

describe('isYmdDate (Y-m-d, YYYY-MM-DD)', () => {
  it.each(['2026-01-31', '2024-02-29', '2000-02-29', '2026-12-31', '1999-01-01'])('accepts %s', (value) => {
    expect(isYmdDate(value)).toBe(true);
  });

  it.each([
    ['2023-02-29', 'February 29 of a common year'],
    ['1900-02-29', 'February 29 of 1900'],
    ['2026-04-31', 'April 31'],
    ['2026-13-01', 'month 13'],
    ['2026-00-10', 'month 00'],
    ['2026-01-00', 'day 00'],
    ['2026-1-31', 'an unpadded month'],
    ['2026-01-5', 'an unpadded day'],
    ['26-01-31', 'a two-digit year'],
    ['01/31/2026', 'US order'],
    ['2026/01/31', 'slashes'],
    ['20260131', 'no separators'],
    [' 2026-01-31', 'leading whitespace'],
    ['2026-01-31 ', 'trailing whitespace'],
    ['2026-01-31T00:00:00', 'a time'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (value) => {
    expect(isYmdDate(value)).toBe(false);
  });

  it('parses a date to UTC midnight of that day', () => {
    expect(parseYmdDate('2024-02-29')?.toUTC().toISO()).toBe(DateTime.utc(2024, 2, 29).toISO());
    expect(parseYmdDate('2023-02-29')).toBeNull();
  });

  it.each([
    [DateTime.utc(2026, 1, 5), '2026-01-05'],
    [DateTime.utc(2024, 12, 31), '2024-12-31'],
  ])('formats %s as %s', (date, expected) => {
    expect(formatYmdDate(date)).toBe(expected);
  });
});

describe('parseDateRange (date_range: two Y-m-d dates joined by one comma)', () => {
  it.each([
    ['2026-01-01,2026-01-31', '2026-01-01', '2026-01-31'],
    ['2026-03-15,2026-03-15', '2026-03-15', '2026-03-15'],
    ['2024-02-29,2024-03-01', '2024-02-29', '2024-03-01'],
    // The spec does not say that a reversed range is invalid, so the order is not checked.
    ['2026-01-31,2026-01-01', '2026-01-31', '2026-01-01'],
  ])('reads %s as from %s to %s', (value, from, to) => {
    expect(parseDateRange(value)).toEqual({ from, to });
  });

  it.each([
    ['2026-01-01, 2026-01-31', 'a space after the comma'],
    ['2026-01-01 ,2026-01-31', 'a space before the comma'],
    [' 2026-01-01,2026-01-31', 'leading whitespace'],
    ['2026-01-01', 'one date'],
    ['2026-01-01,2026-01-15,2026-01-31', 'three dates'],
    ['2026-01-01,,2026-01-31', 'two commas'],
    ['2026-01-01,', 'a missing second date'],
    [',2026-01-31', 'a missing first date'],
    ['2026-01-01;2026-01-31', 'a semicolon'],
    ['2026-01-01/2026-01-31', 'a slash (ISO 8601 interval)'],
    ['2026-02-30,2026-03-01', 'an invalid first date'],
    ['2026-03-01,2026-02-30', 'an invalid second date'],
    ['01/01/2026,01/31/2026', 'US dates'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (value) => {
    expect(parseDateRange(value)).toBeNull();
  });
});

describe('shiftYmdDate', () => {
  it('moves a date by calendar days across month, leap-day and year ends, either way', () => {
    expect(shiftYmdDate('2026-02-28', 1)).toBe('2026-03-01');
    expect(shiftYmdDate('2024-02-28', 1)).toBe('2024-02-29');
    expect(shiftYmdDate('2026-01-01', -1)).toBe('2025-12-31');
    expect(shiftYmdDate('2026-03-08', 0)).toBe('2026-03-08');
  });
});
