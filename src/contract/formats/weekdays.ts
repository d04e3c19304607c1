/** Spec §2.1 `weeks`: comma-separated lowercase weekday names, e.g. `monday,wednesday`. */
export const WEEKDAY_NAMES = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;

export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

const WEEKDAY_SET: ReadonlySet<string> = new Set(WEEKDAY_NAMES);

/** Parses a `weeks` value into weekday names, or null when any part is not a lowercase weekday name. */
export function parseWeekdayList(value: string): WeekdayName[] | null {
  if (value.length === 0) return null;
  const names = value.split(',');
  return names.every((name) => WEEKDAY_SET.has(name)) ? (names as WeekdayName[]) : null;
}

/** True when `value` is a non-empty comma-separated list of lowercase weekday names. */
export function isWeekdayList(value: string): boolean {
  return parseWeekdayList(value) !== null;
}
