import fc from 'fast-check';
import { ASCII_PUNCTUATION } from '../../src/properties/arbitraries/_internals/password-chars.ts';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { clockTime } from '../../src/properties/arbitraries/clock-time.ts';
import { employeeCode } from '../../src/properties/arbitraries/employee-code.ts';
import { invalidClockTime } from '../../src/properties/arbitraries/invalid-clock-time.ts';
import { invalidEmployeeCode } from '../../src/properties/arbitraries/invalid-employee-code.ts';
import { invalidOffsetDateTime } from '../../src/properties/arbitraries/invalid-offset-date-time.ts';
import { invalidPassword } from '../../src/properties/arbitraries/invalid-password.ts';
import { invalidTimezoneName } from '../../src/properties/arbitraries/invalid-timezone-name.ts';
import { invalidUsDate } from '../../src/properties/arbitraries/invalid-us-date.ts';
import { invalidWeekdayList } from '../../src/properties/arbitraries/invalid-weekday-list.ts';
import { lenientOffsetDateTime } from '../../src/properties/arbitraries/lenient-offset-date-time.ts';
import { offsetDateTime } from '../../src/properties/arbitraries/offset-date-time.ts';
import { password } from '../../src/properties/arbitraries/password.ts';
import { timezoneName } from '../../src/properties/arbitraries/timezone-name.ts';
import { usDate } from '../../src/properties/arbitraries/us-date.ts';
import { weekdayList } from '../../src/properties/arbitraries/weekday-list.ts';
import { ymdDateRange } from '../../src/properties/arbitraries/ymd-date-range.ts';
import {
  isClockTime,
  isOffsetDateTime,
  isTimezoneName,
  isUsDate,
  isWeekdayList,
  parseDateRange,
  parseUsDate,
} from '../../src/contract/formats/index.ts';
import { passwordRuleBreaks } from '../../src/contract/payloads/password.ts';
import { EMPLOYEE_CODE_SHAPE } from '../../src/contract/payloads/user.ts';

const RUNS = { numRuns: 1000 };
const sample = <T>(arb: fc.Arbitrary<T>, n = 2000) => fc.sample(arb, { seed: 11, numRuns: n });

describe('date arbitraries', () => {
  it('usDate yields only real MM/DD/YYYY dates', () => {
    fc.assert(fc.property(usDate(), (v) => isUsDate(v)), RUNS);
  });

  it('usDate covers February 29th of leap years, 1900 and 2100 being none, and every month end', () => {
    const values = sample(usDate());
    const days = values.map((v) => parseUsDate(v)!);
    expect(values.filter((v) => v.startsWith('02/29/')).length).toBeGreaterThan(values.length / 8);
    expect(values.some((v) => v === '02/29/2000')).toBe(true);
    expect(values.some((v) => v === '02/29/1900' || v === '02/29/2100')).toBe(false);
    const monthEnds = new Set(days.filter((d) => d.day === d.daysInMonth).map((d) => d.month));
    expect(monthEnds.size).toBe(12);
  });

  it('invalidUsDate yields only strings that are not MM/DD/YYYY dates, of every kind', () => {
    fc.assert(fc.property(invalidUsDate(), (v) => !isUsDate(v.value)), RUNS);
    const labels = new Set(sample(invalidUsDate()).map((v) => v.label.replace(/\d+/g, 'N')));
    for (const kind of ['February Nth', 'not a leap year', '30-day month', 'month N', 'month N', 'day N', 'DD/MM', 'ISO', 'zero padding', 'two-digit year']) {
      expect([...labels].some((l) => l.includes(kind.replace(/\d+/g, 'N'))), kind).toBe(true);
    }
  });

  it('ymdDateRange yields two real YYYY-MM-DD dates, the earlier first', () => {
    fc.assert(
      fc.property(ymdDateRange(), (v) => {
        const range = parseDateRange(v);
        return range !== null && range.from <= range.to;
      }),
      RUNS,
    );
  });
});

describe('time arbitraries', () => {
  it('clockTime yields HH:mm from 00:00 to 23:59, the edges included', () => {
    fc.assert(fc.property(clockTime(), (v) => isClockTime(v)), RUNS);
    const values = new Set(sample(clockTime()));
    expect(values.has('00:00') && values.has('23:59')).toBe(true);
  });

  it('invalidClockTime yields only strings that are not HH:mm, 24:00 and 12-hour times among them', () => {
    fc.assert(fc.property(invalidClockTime(), (v) => !isClockTime(v.value)), RUNS);
    const values = sample(invalidClockTime()).map((v) => v.value);
    expect(values).toContain('24:00');
    expect(values.some((v) => /[AP]M$/i.test(v))).toBe(true);
    expect(values.some((v) => /^\d:\d$/.test(v))).toBe(true);
    expect(values.some((v) => /^\d{2}:60$/.test(v))).toBe(true);
    expect(values.some((v) => /^\d{2}:\d{2}:\d{2}$/.test(v))).toBe(true);
  });
});

describe('datetime arbitraries', () => {
  it('offsetDateTime yields YYYY-MM-DDTHH:MM:SS±HH:MM', () => {
    fc.assert(fc.property(offsetDateTime(), (v) => isOffsetDateTime(v)), RUNS);
  });

  it('invalidOffsetDateTime yields only non-conforming strings, and never Z or fractional seconds', () => {
    fc.assert(
      fc.property(invalidOffsetDateTime(), (v) => !isOffsetDateTime(v.value) && !v.value.endsWith('Z') && !/\.\d/.test(v.value)),
      RUNS,
    );
    const labels = new Set(sample(invalidOffsetDateTime(), 500).map((v) => v.label));
    expect(labels).toContain('no offset (naive local time)');
    expect(labels).toContain('offset without its colon (±HHMM)');
  });

  it('lenientOffsetDateTime is ISO 8601 that the strict form rejects, labelled lenient', () => {
    fc.assert(
      fc.property(lenientOffsetDateTime(), (v) => !isOffsetDateTime(v.value) && DateTime.fromISO(v.value).isValid && v.label.startsWith('lenient')),
      RUNS,
    );
  });
});

describe('password and employee code arbitraries', () => {
  it('password yields passwords that break no password rule, 6 characters included', () => {
    fc.assert(fc.property(password(), (v) => passwordRuleBreaks(v).length === 0 && /^[^\s\p{C}]+$/u.test(v)), RUNS);
    expect(sample(password()).some((v) => v.length === 6)).toBe(true);
  });

  it('password starts at its edges: each ASCII punctuation as the only special character, and 6 characters with letters outside ASCII', () => {
    const values = fc.sample(password(), { numRuns: 3000, seed: 37 });
    for (const special of ASCII_PUNCTUATION) expect(values, special).toContain(`Ab1${special}cdef`);
    expect(values.some((v) => [...v].length === 6 && Buffer.byteLength(v) > 6)).toBe(true);
    // Edges fill at most half of the cases.
    expect(values.filter((v) => /^Ab1.cdef$/.test(v) || /^Aa1!..$/u.test(v)).length).toBeLessThan(values.length / 2);
  });

  it('invalidPassword breaks exactly its rule: one class missing, or 5 characters of all classes', () => {
    fc.assert(fc.property(invalidPassword(), (v) => passwordRuleBreaks(v.value).join() === v.breaks), RUNS);
    const values = sample(invalidPassword());
    expect(values.some((v) => v.breaks === 'USR-PASSWORD-LENGTH' && v.value.length === 5)).toBe(true);
    // 5 characters of which one is outside ASCII: more than 5 bytes, or UTF-16 code units, still too short.
    const wide = fc.sample(invalidPassword('USR-PASSWORD-LENGTH'), { numRuns: 500, seed: 37 }).map((v) => v.value);
    expect(wide).toContain('Aa1!🕒');
    expect(wide).toContain('Aa1!é');
    for (const missing of ['lowercase letter', 'uppercase letter', 'digit', 'special character']) {
      expect(values.some((v) => v.label.endsWith(missing)), missing).toBe(true);
    }
  });

  it('employeeCode yields 4 ASCII digits and invalidEmployeeCode anything else, without edge spaces', () => {
    fc.assert(fc.property(employeeCode(), (v) => EMPLOYEE_CODE_SHAPE.test(v)), RUNS);
    fc.assert(fc.property(invalidEmployeeCode(), (v) => !EMPLOYEE_CODE_SHAPE.test(v.value) && v.value.trim() === v.value && v.value !== ''), RUNS);
    const lengths = new Set(sample(invalidEmployeeCode()).map((v) => v.value.length));
    expect(lengths).toEqual(new Set([3, 4, 5]));
    // The edges of codes that start with 0, valid and invalid, come up; edges stay under half the cases.
    const valid = sample(employeeCode());
    expect(valid).toEqual(expect.arrayContaining(['0000', '0123', '9999']));
    expect(valid.filter((v) => ['0000', '0001', '0123', '0999', '9999'].includes(v)).length).toBeLessThan(valid.length / 2);
    expect(sample(invalidEmployeeCode()).map((v) => v.value)).toEqual(expect.arrayContaining(['012', '00000']));
  });
});

describe('timezone and weekday arbitraries', () => {
  it('timezoneName yields IANA names; invalidTimezoneName never does', () => {
    fc.assert(fc.property(timezoneName(), (v) => isTimezoneName(v)), RUNS);
    fc.assert(fc.property(invalidTimezoneName(), (v) => !isTimezoneName(v.value)), RUNS);
  });

  it('weekdayList yields lowercase weekday lists; invalidWeekdayList never does', () => {
    fc.assert(fc.property(weekdayList(), (v) => isWeekdayList(v) && new Set(v.split(',')).size === v.split(',').length), RUNS);
    fc.assert(fc.property(invalidWeekdayList(), (v) => !isWeekdayList(v.value)), RUNS);
  });
});
