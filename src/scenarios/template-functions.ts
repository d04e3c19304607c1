import { DateTime } from 'luxon';
import { z } from 'zod';
import { formatOffset, formatOffsetDateTime } from '../contract/formats/index.ts';
import { clockTimeParameter, integerParameter, timezoneNameParameter } from '../input/parameter-kinds.ts';
import { InternalError } from '../errors.ts';
import { MAX_TEMPLATE_DAY, type RunDates, type TemplateContext } from './template-context.ts';

/**
 * The functions a template may call (docs/scenario-format.md, "Templates"). Each declares its
 * parameters in call order as a zod object of parameter kinds (src/input/parameter-kinds.ts), the
 * way a check declares its `args:`, so one parser (src/input/arguments.ts) checks a call when the
 * suite loads and when it is rendered.
 */
export interface TemplateFunction<S extends z.ZodObject = z.ZodObject> {
  readonly parameters: S;
  apply(args: z.output<S>, ctx: TemplateContext): string;
}

function templateFunction<S extends z.ZodObject>(parameters: S, apply: (args: z.output<S>, ctx: TemplateContext) => string): TemplateFunction<S> {
  return { parameters, apply };
}

/** DAY: days after the run's base day (0 to MAX_TEMPLATE_DAY, so every seed's date exists). */
const day = integerParameter(0, 0, MAX_TEMPLATE_DAY);
/** A wall-clock time and a zone (default: the company timezone). */
const datetime = z.strictObject({ day, time: clockTimeParameter('09:00'), zone: timezoneNameParameter() });
const date = z.strictObject({ day });

function wallTime(dates: RunDates, month: 1 | 7, offsetDays: number, time: string, zone: string): DateTime {
  const [hour, minute] = time.split(':').map(Number);
  const dt = DateTime.fromObject({ year: dates.year, month, day: dates.day + offsetDays, hour, minute }, { zone });
  // DAY, the time and the zone are checked by the parameters: an invalid date is a bug of this file.
  if (!dt.isValid) throw new InternalError(`no such time: ${time} on day ${offsetDays} in ${zone} (${dt.invalidExplanation})`);
  return dt;
}

/** The same wall time with the offset one hour off (the DST-hour mistake). */
function wrongOffset(dt: DateTime): string {
  return `${dt.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${formatOffset(dt.offset + 60)}`;
}

const inMonth = (month: 1 | 7, write: (dt: DateTime) => string) =>
  templateFunction(datetime, (a, ctx) => write(wallTime(ctx.dates, month, a.day, a.time, a.zone ?? ctx.companyTimezone)));
const dateOf = (month: 1 | 7, format: string) => templateFunction(date, (a, ctx) => wallTime(ctx.dates, month, a.day, '12:00', ctx.companyTimezone).toFormat(format));

export const TEMPLATE_FUNCTIONS: Readonly<Record<string, TemplateFunction>> = {
  /** `jan(DAY, 'HH:mm'[, 'Zone'])`: ISO 8601 with the zone's offset, in January. */
  jan: inMonth(1, formatOffsetDateTime),
  /** The same in July (the other side of DST). */
  jul: inMonth(7, formatOffsetDateTime),
  /** The same wall time with the offset one hour off: the DST-hour mistake. */
  jan_wrong: inMonth(1, wrongOffset),
  jul_wrong: inMonth(7, wrongOffset),
  /** `jan_naive(DAY, 'HH:mm')`: `YYYY-MM-DDTHH:MM:SS` without offset. */
  jan_naive: templateFunction(datetime.omit({ zone: true }), (a, ctx) => wallTime(ctx.dates, 1, a.day, a.time, ctx.companyTimezone).toFormat("yyyy-MM-dd'T'HH:mm:ss")),
  /** `jan_ymd(DAY)`, `jul_ymd(DAY)`: `YYYY-MM-DD`. */
  jan_ymd: dateOf(1, 'yyyy-MM-dd'),
  jul_ymd: dateOf(7, 'yyyy-MM-dd'),
  /** `us_date(DAY)`: `MM/DD/YYYY` of that January day. */
  us_date: dateOf(1, 'MM/dd/yyyy'),
};
