import { DateTime } from 'luxon';
import { formatOffset, formatOffsetDateTime } from '../contract/formats/index.ts';
import { CALL, INLINE, PATH, WHOLE } from '../input/template-syntax.ts';

/**
 * `{{ expr }}` templates in scenario values. A string that is exactly one template keeps the value's
 * type; templates inside a longer string are interpolated. Expressions are a dotted path into the
 * context (`fixtures.active_user_ids[0]`, `vars.timesheet_id`) or one of the functions below.
 */
export interface TemplateContext {
  readonly fixtures: Readonly<Record<string, unknown>>;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly profile: Readonly<Record<string, unknown>>;
  readonly companyTimezone: string;
  readonly dates: RunDates;
  /** Fresh values on every call: e-mail, letters-only name, token. */
  readonly unique: () => { email: string; name: string; token: string };
  /** The run's webhook sink (profile `webhook.sink`): the URL the target delivers to, and the subscription's secret. */
  readonly sink?: { readonly url: string; readonly secret: string | null };
}

/** The run's base dates, derived from the seed so reruns repeat and different runs spread out. */
export interface RunDates {
  readonly year: number;
  readonly day: number;
}

export function runDates(seed: number): RunDates {
  return { year: 2015 + (seed % 10), day: 1 + (Math.floor(seed / 10) % 18) };
}

export class TemplateError extends Error {}


function parseArgs(text: string): Array<string | number> {
  if (text.trim() === '') return [];
  return text.split(',').map((raw) => {
    const arg = raw.trim();
    if (/^-?\d+$/.test(arg)) return Number(arg);
    const quoted = /^'(.*)'$|^"(.*)"$/.exec(arg);
    if (quoted) return quoted[1] ?? quoted[2] ?? '';
    throw new TemplateError(`argument ${arg} must be an integer or a quoted string`);
  });
}

function wallTime(dates: RunDates, month: 1 | 7, day: number, time: string, zone: string): DateTime {
  const match = /^(\d{2}):(\d{2})$/.exec(time);
  if (!match) throw new TemplateError(`time '${time}' must be HH:mm`);
  const dt = DateTime.fromObject({ year: dates.year, month, day: dates.day + day, hour: Number(match[1]), minute: Number(match[2]) }, { zone });
  if (!dt.isValid) throw new TemplateError(`no such time: ${time} on day ${day} in ${zone} (${dt.invalidExplanation})`);
  return dt;
}

/** The same wall time with the offset one hour off (the DST-hour mistake). */
function wrongOffset(dt: DateTime): string {
  return `${dt.toFormat("yyyy-MM-dd'T'HH:mm:ss")}${formatOffset(dt.offset + 60)}`;
}

function call(name: string, args: Array<string | number>, ctx: TemplateContext): unknown {
  const day = typeof args[0] === 'number' ? args[0] : 0;
  const time = typeof args[1] === 'string' ? args[1] : '09:00';
  const zone = typeof args[2] === 'string' ? args[2] : ctx.companyTimezone;
  switch (name) {
    case 'jan':
      return formatOffsetDateTime(wallTime(ctx.dates, 1, day, time, zone));
    case 'jul':
      return formatOffsetDateTime(wallTime(ctx.dates, 7, day, time, zone));
    case 'jan_wrong':
      return wrongOffset(wallTime(ctx.dates, 1, day, time, zone));
    case 'jul_wrong':
      return wrongOffset(wallTime(ctx.dates, 7, day, time, zone));
    case 'jan_naive':
      return wallTime(ctx.dates, 1, day, time, zone).toFormat("yyyy-MM-dd'T'HH:mm:ss");
    case 'jan_ymd':
      return wallTime(ctx.dates, 1, day, '12:00', zone).toFormat('yyyy-MM-dd');
    case 'jul_ymd':
      return wallTime(ctx.dates, 7, day, '12:00', zone).toFormat('yyyy-MM-dd');
    case 'us_date':
      return wallTime(ctx.dates, 1, day, '12:00', zone).toFormat('MM/dd/yyyy');
    default:
      throw new TemplateError(`unknown template function ${name}()`);
  }
}

function lookup(path: string, ctx: TemplateContext): unknown {
  if (!PATH.test(path)) throw new TemplateError(`cannot read "${path}": expected a path like fixtures.job_id or a function call`);
  const root: Record<string, unknown> = {
    fixtures: ctx.fixtures,
    vars: ctx.vars,
    profile: ctx.profile,
    company_timezone: ctx.companyTimezone,
    ...(ctx.sink ? { sink: ctx.sink } : {}),
  };
  if (path.startsWith('unique.')) root.unique = ctx.unique(); // fresh values only where asked for
  let value: unknown = root;
  for (const part of path.match(/[A-Za-z_]\w*|\[\d+\]/g) ?? []) {
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) {
      throw new TemplateError(`"${path}" is not set (missing "${String(key)}")`);
    }
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

/** Evaluates one template expression. */
export function evaluate(expression: string, ctx: TemplateContext): unknown {
  const fn = CALL.exec(expression);
  return fn ? call(fn[1] as string, parseArgs(fn[2] as string), ctx) : lookup(expression, ctx);
}

/** Renders every string inside `value` (objects and arrays deeply). Throws TemplateError on a bad or missing reference. */
export function render(value: unknown, ctx: TemplateContext): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) return evaluate(whole[1] as string, ctx);
    return value.replace(INLINE, (_, expression: string) => {
      const result = evaluate(expression, ctx);
      return typeof result === 'object' ? JSON.stringify(result) : String(result);
    });
  }
  if (Array.isArray(value)) return value.map((item) => render(item, ctx));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, render(v, ctx)]));
  }
  return value;
}
