import { describe, expect, it } from 'vitest';
import { clockTimeMinutes, isClockTime } from '../../../src/contract/formats/clock-time.ts';

describe('isClockTime (HH:mm, 24-hour)', () => {
  it.each(['00:00', '23:59', '12:00', '09:05', '13:30', '19:45'])('accepts %s', (value) => {
    expect(isClockTime(value)).toBe(true);
  });

  it.each([
    ['24:00', 'hour 24'],
    ['25:00', 'hour 25'],
    ['23:60', 'minute 60'],
    ['99:99', 'out-of-range digits'],
    ['7:05', 'an unpadded hour'],
    ['07:5', 'an unpadded minute'],
    ['7:5', 'nothing padded'],
    ['07:05 AM', '12-hour form with AM'],
    ['07:05 PM', '12-hour form with PM'],
    ['12:00PM', '12-hour form without a space'],
    ['07:05:00', 'seconds'],
    ['0705', 'no colon'],
    ['07.05', 'a dot separator'],
    [' 07:05', 'leading whitespace'],
    ['07:05 ', 'trailing whitespace'],
    ['-1:00', 'a negative hour'],
    ['', 'the empty string'],
  ])('rejects %j (%s)', (value) => {
    expect(isClockTime(value)).toBe(false);
  });
});

describe('clockTimeMinutes', () => {
  it.each([
    ['00:00', 0],
    ['07:05', 425],
    ['12:00', 720],
    ['23:59', 1439],
  ])('counts %s as %i minutes after midnight', (value, minutes) => {
    expect(clockTimeMinutes(value)).toBe(minutes);
  });

  it.each(['24:00', '7:05', '07:05:00', ''])('returns null for %j', (value) => {
    expect(clockTimeMinutes(value)).toBeNull();
  });
});
