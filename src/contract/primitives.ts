import { z } from 'zod';
import {
  isClockTime,
  isNaiveDateTime,
  isOffsetDateTime,
  isTimezoneName,
  isUsDate,
  isWeekdayList,
  isYmdDate,
  parseDateRange,
} from './formats/index.ts';

/** zod schemas of the spec's value formats; each refinement names the format it enforces. */

export const usDate = z.string().refine(isUsDate, { message: 'expected a date MM/DD/YYYY' });
export const clockTime = z.string().refine(isClockTime, { message: 'expected a 24-hour time HH:mm' });
export const offsetDateTime = z
  .string()
  .refine(isOffsetDateTime, { message: 'expected YYYY-MM-DDTHH:MM:SS±HH:MM' });
export const naiveDateTime = z
  .string()
  .refine(isNaiveDateTime, { message: 'expected YYYY-MM-DDTHH:MM:SS without offset' });
export const ymdDate = z.string().refine(isYmdDate, { message: 'expected a date YYYY-MM-DD' });
export const dateRange = z
  .string()
  .refine((v) => parseDateRange(v) !== null, { message: 'expected YYYY-MM-DD,YYYY-MM-DD' });
export const timezoneName = z
  .string()
  .refine(isTimezoneName, { message: 'expected an IANA timezone name such as America/Chicago' });
export const weekdayList = z
  .string()
  .refine(isWeekdayList, { message: 'expected lowercase weekday names joined by commas' });
export const integer = z.number().int();
export const integerList = z.array(z.number().int());
