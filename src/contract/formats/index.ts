export { parseUsDate, isUsDate, formatUsDate } from './us-date.ts';
export { isClockTime, clockTimeMinutes } from './clock-time.ts';
export {
  parseOffsetDateTime,
  isOffsetDateTime,
  formatOffsetDateTime,
  type OffsetDateTime,
} from './offset-datetime.ts';
export { isNaiveDateTime, formatNaiveDateTime } from './naive-datetime.ts';
export {
  parseYmdDate,
  isYmdDate,
  parseDateRange,
  formatYmdDate,
  shiftYmdDate,
  type DateRange,
} from './ymd-date.ts';
export { isTimezoneName } from './timezone-name.ts';
export { WEEKDAY_NAMES, parseWeekdayList, isWeekdayList, type WeekdayName } from './weekdays.ts';
export { matchOffsetToZone, formatOffset, type OffsetZoneMatch } from './offset-matches-zone.ts';
