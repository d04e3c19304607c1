import { describe, expect, it } from 'vitest';
import { isTimezoneName } from '../../../src/contract/formats/timezone-name.ts';

describe('isTimezoneName (IANA names)', () => {
  it.each([
    'America/Chicago',
    'Europe/London',
    'Asia/Kathmandu',
    'Asia/Kolkata',
    'America/Argentina/Buenos_Aires',
    'America/North_Dakota/New_Salem',
    'America/Port-au-Prince',
    'Australia/Lord_Howe',
    'UTC',
    'Etc/UTC',
    'Etc/GMT+5',
  ])('accepts %s', (name) => {
    expect(isTimezoneName(name)).toBe(true);
  });

  it.each([
    ['Mars/Olympus', 'an unknown region/city'],
    ['America/Gotham', 'an unknown city'],
    ['CST', 'an abbreviation'],
    ['PST', 'another abbreviation'],
    ['+05:00', 'a fixed offset'],
    ['-03:30', 'a negative fixed offset'],
    ['UTC+5', 'an offset from UTC'],
    ['america/chicago', 'all lowercase'],
    ['America/chicago', 'a lowercase city'],
    ['AMERICA/CHICAGO', 'all uppercase'],
    ['Europe/LONDON', 'an uppercase city'],
    [' America/Chicago', 'leading whitespace'],
    ['America/Chicago ', 'trailing whitespace'],
    ['America/Chicago/', 'a trailing slash'],
    ['America//Chicago', 'a doubled slash'],
    ['Chicago', 'a city without region'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (name) => {
    expect(isTimezoneName(name)).toBe(false);
  });
});
