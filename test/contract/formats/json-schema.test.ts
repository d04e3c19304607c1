import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isClockTime, isOffsetDateTime, isTimezoneName, isUsDate, isWeekdayList, WEEKDAY_NAMES } from '../../../src/contract/formats/index.ts';
import { missingPasswordClasses, PASSWORD_CLASSES_PATTERN } from '../../../src/contract/payloads/password.ts';
import { CLOCK_TIME_SCHEMA, OFFSET_DATETIME_SCHEMA, timezoneNameSchema, US_DATE_SCHEMA, WEEKDAY_LIST_SCHEMA, type FormatSchema } from '../../../src/contract/formats/json-schema.ts';

/** As ajv reads a pattern: an ECMA-262 regular expression with the u flag, not anchored by itself. */
const matches = (schema: FormatSchema) => {
  const re = new RegExp(schema.pattern!, 'u');
  return (value: string) => re.test(value);
};
const digits = (n: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: n, maxLength: n }).map((d) => d.join(''));
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** Two digits, biased to the edges of months, days, hours and minutes. */
const nearEdge = fc.oneof(digits(2), fc.integer({ min: 0, max: 61 }).map((n) => pad(n)));
const year = fc.oneof(digits(4), fc.constantFrom('2000', '1900', '2024', '2100', '2400', '0000', '1996', '2023'));

describe('the formats as JSON Schema agree with their predicates', () => {
  it('MM/DD/YYYY: every real date and nothing else, leap years included', () => {
    const near = fc.tuple(nearEdge, nearEdge, year).map(([m, d, y]) => `${m}/${d}/${y}`);
    fc.assert(fc.property(fc.oneof(near, fc.string()), (s) => matches(US_DATE_SCHEMA)(s) === isUsDate(s)), { numRuns: 20_000 });
    for (const s of ['02/29/2024', '02/29/2000', '02/29/1900', '02/29/2023', '04/31/2026', '12/31/9999', '1/02/2026', '01/02/26']) {
      expect(matches(US_DATE_SCHEMA)(s), s).toBe(isUsDate(s));
    }
  });

  it('HH:mm from 00:00 to 23:59', () => {
    const near = fc.tuple(nearEdge, nearEdge).map(([h, m]) => `${h}:${m}`);
    fc.assert(fc.property(fc.oneof(near, fc.string()), (s) => matches(CLOCK_TIME_SCHEMA)(s) === isClockTime(s)), { numRuns: 10_000 });
  });

  it('YYYY-MM-DDTHH:MM:SS±HH:MM with a real date and time', () => {
    const near = fc
      .tuple(year, nearEdge, nearEdge, nearEdge, nearEdge, nearEdge, fc.constantFrom('+', '-', 'Z', ''), nearEdge, nearEdge)
      .map(([y, mo, d, h, mi, s, sign, oh, om]) => `${y}-${mo}-${d}T${h}:${mi}:${s}${sign}${sign === 'Z' || sign === '' ? '' : `${oh}:${om}`}`);
    fc.assert(fc.property(fc.oneof(near, fc.string()), (s) => matches(OFFSET_DATETIME_SCHEMA)(s) === isOffsetDateTime(s)), { numRuns: 20_000 });
  });

  it('weeks: lowercase weekday names joined by commas', () => {
    const list = fc.array(fc.oneof(fc.constantFrom(...WEEKDAY_NAMES), fc.constantFrom('Monday', 'mon', '', ' monday')), { maxLength: 4 }).map((a) => a.join(','));
    fc.assert(fc.property(fc.oneof(list, fc.string()), (s) => matches(WEEKDAY_LIST_SCHEMA)(s) === isWeekdayList(s)), { numRuns: 10_000 });
  });

  it('password classes: the pattern holds exactly when no class is missing', () => {
    const re = new RegExp(PASSWORD_CLASSES_PATTERN, 'u');
    const chars = fc.constantFrom(...'aZ9!  \n\té€😀_-'.split(''), 'A', 'z', '0');
    fc.assert(fc.property(fc.oneof(fc.array(chars, { maxLength: 10 }).map((a) => a.join('')), fc.string()), (s) => re.test(s) === (missingPasswordClasses(s).length === 0)), { numRuns: 20_000 });
  });

  it('timezone names: the enum holds only names isTimezoneName accepts, and the usual ones', () => {
    const names = timezoneNameSchema().enum!;
    expect(names.every(isTimezoneName)).toBe(true);
    for (const zone of ['UTC', 'America/Chicago', 'Asia/Kolkata', 'Asia/Calcutta', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires']) expect(names).toContain(zone);
    for (const bad of ['america/chicago', 'CST', '+05:00', 'Mars/Olympus', '']) expect(names).not.toContain(bad);
  });
});
