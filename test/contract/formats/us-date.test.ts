import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { formatUsDate, isUsDate, parseUsDate } from '../../../src/contract/formats/us-date.ts';

const pad = (n: number) => String(n).padStart(2, '0');
const DAYS_2023 = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

describe('isUsDate (MM/DD/YYYY)', () => {
  it.each([
    ['01/01/2024', 'the first day of a year'],
    ['12/31/1999', 'the last day of a year'],
    ['02/09/2024', 'a zero-padded month and day'],
    ['02/29/2024', 'February 29 of a leap year divisible by 4'],
    ['02/29/2000', 'February 29 of a leap year divisible by 400'],
    ['02/29/2028', 'February 29 of a later leap year'],
    ['12/25/2026', 'a day above 12 in the day position'],
  ])('accepts %s (%s)', (value) => {
    expect(isUsDate(value)).toBe(true);
  });

  it.each(DAYS_2023.map((days, i) => [`${pad(i + 1)}/${pad(days)}/2023`]))('accepts the last day of its month, %s', (value) => {
    expect(isUsDate(value)).toBe(true);
  });

  it.each(DAYS_2023.map((days, i) => [`${pad(i + 1)}/${pad(days + 1)}/2023`]))('rejects the day after the last day of its month, %s', (value) => {
    expect(isUsDate(value)).toBe(false);
  });

  it.each([
    ['02/29/2023', 'February 29 of a common year'],
    ['02/29/1900', 'February 29 of a century year not divisible by 400'],
    ['02/30/2024', 'February 30 of a leap year'],
    ['00/10/2024', 'month 00'],
    ['10/00/2024', 'day 00'],
    ['13/01/2024', 'month 13'],
    ['2/9/2024', 'no zero padding'],
    ['2/09/2024', 'an unpadded month'],
    ['02/9/2024', 'an unpadded day'],
    ['2024-02-09', 'ISO order'],
    ['2024/02/09', 'year first with slashes'],
    ['25/12/2024', 'DD/MM order with a day above 12'],
    ['31/01/2024', 'DD/MM order with day 31'],
    ['02/09/24', 'a two-digit year'],
    ['02/09/02024', 'a five-digit year'],
    [' 02/09/2024', 'leading whitespace'],
    ['02/09/2024 ', 'trailing whitespace'],
    ['02 /09/2024', 'inner whitespace'],
    ['02/09/2024x', 'trailing characters'],
    ['02/09/2024T00:00', 'a trailing time'],
    ['02-09-2024', 'dashes instead of slashes'],
    ['02.09.2024', 'dots instead of slashes'],
    ['０２/09/2024', 'full-width digits'],
    ['', 'the empty string'],
  ])('rejects %s (%s)', (value) => {
    expect(isUsDate(value)).toBe(false);
  });
});

describe('parseUsDate', () => {
  it.each([
    ['02/29/2024', 2024, 2, 29],
    ['12/31/1999', 1999, 12, 31],
    ['01/05/2026', 2026, 1, 5],
  ])('reads %s as year %i, month %i, day %i at UTC midnight', (value, year, month, day) => {
    const date = parseUsDate(value);
    expect(date?.toUTC().toISO()).toBe(DateTime.utc(year, month, day).toISO());
  });

  it.each(['02/29/2023', '13/01/2024', '2/9/2024', ''])('returns null for %j', (value) => {
    expect(parseUsDate(value)).toBeNull();
  });
});

describe('formatUsDate', () => {
  it.each([
    [DateTime.utc(2024, 2, 9), '02/09/2024'],
    [DateTime.utc(2026, 12, 31), '12/31/2026'],
  ])('writes %s zero-padded as %s', (date, expected) => {
    expect(formatUsDate(date)).toBe(expected);
  });

  it.each(['01/01/2024', '02/29/2000', '11/30/2026'])('round-trips %s through parse and format', (value) => {
    const date = parseUsDate(value);
    expect(date).not.toBeNull();
    expect(formatUsDate(date as DateTime)).toBe(value);
  });
});
