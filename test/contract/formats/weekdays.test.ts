import { describe, expect, it } from 'vitest';
import { WEEKDAY_NAMES, isWeekdayList, parseWeekdayList } from '../../../src/contract/formats/weekdays.ts';

describe('WEEKDAY_NAMES', () => {
  it('lists the seven weekdays in lowercase, Monday first', () => {
    expect(WEEKDAY_NAMES).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
  });
});

describe('weeks (comma-joined lowercase weekday names)', () => {
  it.each([
    ['monday', ['monday']],
    ['sunday', ['sunday']],
    ['monday,wednesday', ['monday', 'wednesday']],
    ['friday,monday', ['friday', 'monday']],
    [WEEKDAY_NAMES.join(','), [...WEEKDAY_NAMES]],
  ])('accepts %s as %j', (value, names) => {
    expect(isWeekdayList(value)).toBe(true);
    expect(parseWeekdayList(value)).toEqual(names);
  });

  it.each(WEEKDAY_NAMES.map((name) => [name]))('accepts the single name %s', (name) => {
    expect(isWeekdayList(name)).toBe(true);
  });

  it.each([
    ['Monday', 'a capitalized name'],
    ['MONDAY', 'an uppercase name'],
    ['monday,Wednesday', 'one capitalized name in a list'],
    ['mon', 'an abbreviation'],
    ['mon,wed', 'abbreviations in a list'],
    ['monday, wednesday', 'a space after the comma'],
    ['monday ,wednesday', 'a space before the comma'],
    [' monday', 'leading whitespace'],
    ['monday ', 'trailing whitespace'],
    ['', 'the empty string'],
    ['monday,', 'a trailing comma'],
    [',monday', 'a leading comma'],
    ['monday,,tuesday', 'two commas'],
    ['monday;tuesday', 'a semicolon'],
    ['monday wednesday', 'a space separator'],
    ['funday', 'an unknown name'],
    ['1,3', 'day numbers'],
  ])('rejects %j (%s)', (value) => {
    expect(isWeekdayList(value)).toBe(false);
    expect(parseWeekdayList(value)).toBeNull();
  });
});
