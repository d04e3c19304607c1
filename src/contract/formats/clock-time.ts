/** Spec §2.1: schedule times are `HH:mm`, 24-hour, from 00:00 to 23:59. */
const CLOCK_TIME_SHAPE = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True when `value` is a 24-hour `HH:mm` time between 00:00 and 23:59. */
export function isClockTime(value: string): boolean {
  return CLOCK_TIME_SHAPE.test(value);
}

/** Minutes since midnight of an `HH:mm` time, or null when it is not one. */
export function clockTimeMinutes(value: string): number | null {
  const match = CLOCK_TIME_SHAPE.exec(value);
  if (!match) return null;
  return Number(match[1]) * 60 + Number(match[2]);
}
