import { z } from 'zod';
import { isClockTime, isTimezoneName } from '../contract/formats/index.ts';

/**
 * The kinds of a template function's parameters, each a zod schema with a message that says what
 * was expected and what was written. A function declares its parameters as a zod object of these,
 * in call order (src/scenarios/template-functions.ts), the way a check declares its `args:`.
 */

const written = (input: unknown): string => (input === undefined ? 'nothing' : typeof input === 'string' ? `'${input}'` : String(input));

/** A whole number from `min` to `max` (a day offset), with its default. */
export function integerParameter(fallback: number, min: number, max: number) {
  const error = (issue: { input?: unknown }) => `expected an integer from ${min} to ${max}, got ${written(issue.input)}`;
  return z.int({ error }).min(min, { error }).max(max, { error }).default(fallback);
}

/** A 24-hour time `'HH:mm'` from 00:00 to 23:59, with its default. */
export function clockTimeParameter(fallback: string) {
  return z
    .string({ error: (issue) => `expected a quoted time 'HH:mm', got ${written(issue.input)}` })
    .refine(isClockTime, { error: (issue) => `expected a time 'HH:mm' from 00:00 to 23:59, got ${written(issue.input)}` })
    .default(fallback);
}

/** An IANA timezone name such as `'Europe/London'`; optional (the caller says what its absence means). */
export function timezoneNameParameter() {
  return z
    .string({ error: (issue) => `expected a quoted timezone name such as 'Europe/London', got ${written(issue.input)}` })
    .refine(isTimezoneName, { error: (issue) => `expected an IANA timezone name such as 'Europe/London', got ${written(issue.input)}` })
    .optional();
}
