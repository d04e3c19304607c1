import { DateTime } from 'luxon';
import { formatOffsetDateTime, parseOffsetDateTime } from '../contract/formats/index.ts';
import type { ServerContext } from './context.ts';

/**
 * What a write stores, as the faults of "what is written reads back" change it (faults.ts). Without
 * them a record is stored as written. Each fault changes only what is stored: the write's own answer
 * still shows the values sent, as a server that answers from the request it was given does, so the
 * change shows only when the record is read again.
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** Text as stored: characters outside the BMP lost (a 3-byte UTF-8 column), normalized to NFC, or HTML-escaped. */
export function storedText(ctx: ServerContext, value: string): string {
  let text = value;
  if (ctx.fault('text-outside-bmp-lost')) text = text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?');
  if (ctx.fault('text-nfc-normalized')) text = text.normalize('NFC');
  if (ctx.fault('text-html-escaped')) text = text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);
  return text;
}

/** Every string value of a record's fields as stored (storedText); other values as they are. */
export function storedStrings<T extends Record<string, unknown>>(ctx: ServerContext, fields: T): T {
  const out: Record<string, unknown> = { ...fields };
  for (const [name, value] of Object.entries(out)) if (typeof value === 'string' && !name.endsWith('_hash')) out[name] = storedText(ctx, value);
  return out as T;
}

/** A user's fields as a create or an edit stores them. */
export function storedUserFields<T extends Record<string, unknown>>(ctx: ServerContext, fields: T, operation: 'create' | 'edit'): T {
  const out: Record<string, unknown> = storedStrings(ctx, fields);
  if (ctx.fault('phone-digits-only') && typeof out.phone === 'string') out.phone = out.phone.replace(/\D/g, '');
  if (ctx.fault('track-mileage-not-stored') && operation === 'create') delete out.track_mileage;
  if (ctx.fault('user-edit-fillable') && operation === 'edit') {
    for (const name of Object.keys(out)) if (!['first_name', 'last_name', 'email', 'password_hash'].includes(name)) delete out[name];
  }
  return out as T;
}

/** A timesheet's fields as a create stores them. */
export function storedTimesheetFields<T extends Record<string, unknown>>(ctx: ServerContext, fields: T): T {
  const out: Record<string, unknown> = storedStrings(ctx, fields);
  if (ctx.fault('mileage-rounded') && typeof out.mileage === 'number') out.mileage = Math.round(out.mileage);
  if (ctx.fault('notes-cut-255') && typeof out.notes === 'string') out.notes = [...out.notes].slice(0, 255).join('');
  if (ctx.fault('clock-out-timezone-from-clock-in') && typeof out.clock_in_timezone === 'string') out.clock_out_timezone = out.clock_in_timezone;
  return out as T;
}

/** A break's start or end as stored: under `break-times-company-offset`, its wall time with the offset of the company timezone, `zone`. */
export function storedBreakTime(ctx: ServerContext, value: string, zone: string): string {
  if (!ctx.fault('break-times-company-offset')) return value;
  const parsed = parseOffsetDateTime(value);
  if (!parsed) return value;
  const wall = parsed.dateTime;
  const local = DateTime.fromObject({ year: wall.year, month: wall.month, day: wall.day, hour: wall.hour, minute: wall.minute, second: wall.second }, { zone });
  return formatOffsetDateTime(local);
}
