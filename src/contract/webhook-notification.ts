import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { resolvePointer, setPointer } from './json-pointer.ts';

/**
 * Webhook notifications. The spec shows none (§4.5, §6: kinds of event, payload, delivery and
 * retries are "not shown"), so their form is what a target's profile declares
 * (`webhook.notification`), and the default is the form the service behind the spec publishes:
 * an HTTPS POST whose `x-webhook-timestamp` header holds the Unix time of sending and whose
 * `x-webhook-signature` is the hex HMAC-SHA256 of `timestamp + body` under the subscription's
 * secret, with the body `{payload: {event, data: {id, operation, last_updated_at}}}`.
 */
export const TIMESTAMP_HEADER = 'x-webhook-timestamp';
export const SIGNATURE_HEADER = 'x-webhook-signature';

/** What a change of a resource is called in a notification. */
export type ChangeKind = 'created' | 'updated' | 'deleted';

const pointer = z.string().regex(/^(\/[^/]*)+$/, 'expected a JSON pointer, e.g. /payload/data/id');
const headerName = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'expected an HTTP header name')
  .transform((name) => name.toLowerCase());
/** Only these placeholders: a typo must not silently become literal text of every expected value. */
const template = (allowed: readonly string[]) =>
  z
    .string()
    .min(1)
    .refine((text) => [...text.matchAll(/\{([^}]*)\}/g)].every((m) => allowed.includes(m[1]!)), `placeholders allowed: ${allowed.map((a) => `{${a}}`).join(', ')}`);

/**
 * How notifications are signed: an HMAC of `signed` (with `{timestamp}` the timestamp header's value
 * and `{body}` the raw body) under the subscription's secret, written as `prefix` + the MAC in
 * `encoding`, in `header`. Defaults: the published form.
 */
export const SignatureScheme = z
  .strictObject({
    header: headerName.default(SIGNATURE_HEADER),
    /** The header holding the Unix time of sending (seconds, or milliseconds); null when the scheme signs no time. */
    timestamp_header: headerName.nullable().default(TIMESTAMP_HEADER),
    signed: template(['timestamp', 'body'])
      .refine((text) => text.includes('{body}'), 'must sign {body}')
      .default('{timestamp}{body}'),
    algorithm: z.enum(['sha256', 'sha512', 'sha1']).default('sha256'),
    encoding: z.enum(['hex', 'base64']).default('hex'),
    /** Before the MAC in the header, e.g. `sha256=`. */
    prefix: z.string().max(64).default(''),
  })
  .refine((scheme) => scheme.timestamp_header !== null || !scheme.signed.includes('{timestamp}'), { message: 'signed uses {timestamp}: name its timestamp_header', path: ['signed'] });
export type SignatureScheme = z.output<typeof SignatureScheme>;

/** Where a notification names something (a JSON pointer into the body), and the value expected there. */
const Located = (defaults: { at: string; value: string }, placeholders: readonly string[]) =>
  z.strictObject({ at: pointer.default(defaults.at), value: template(placeholders).default(defaults.value) });

/**
 * The form of a notification, as a profile declares it (`webhook.notification`); every key defaults
 * to the published form. `{event}` in a value is the category of the change (users, schedules,
 * timesheets, breaks), `{change}` created, updated or deleted.
 */
export const NotificationForm = z.strictObject({
  /** JSON pointer to the ID of the resource that changed. */
  id: pointer.default('/payload/data/id'),
  /** Where the kind of change is named, and how (it must name the change, so creates and updates differ). */
  operation: Located({ at: '/payload/data/operation', value: '{event}_{change}' }, ['event', 'change'])
    .refine((located) => located.value.includes('{change}'), { message: 'must hold {change}', path: ['value'] })
    .prefault({}),
  /** Where the category is named, and how; null when the body does not name it apart from the operation. */
  event: Located({ at: '/payload/event', value: '{event}' }, ['event']).nullable().prefault({}),
  /** How notifications are signed; null when the target does not sign them. */
  signature: SignatureScheme.nullable().prefault({}),
});
export type NotificationForm = z.output<typeof NotificationForm>;

/** The form the service behind the spec publishes. */
export const PUBLISHED_FORM: NotificationForm = NotificationForm.parse({});

/** Whether the form's body is the published one (so its whole shape is judged, `last_updated_at` included). */
export function hasPublishedBody(form: NotificationForm): boolean {
  return form.id === PUBLISHED_FORM.id && sameLocated(form.operation, PUBLISHED_FORM.operation) && sameLocated(form.event, PUBLISHED_FORM.event);
}

function sameLocated(a: { at: string; value: string } | null, b: { at: string; value: string } | null): boolean {
  return a === b || (a !== null && b !== null && a.at === b.at && a.value === b.value);
}

/** A form value with `{event}` and `{change}` filled. */
export function formValue(text: string, event: string, change?: ChangeKind): string {
  return text.replace(/\{event\}|\{change\}/g, (placeholder) => (placeholder === '{event}' ? event : (change ?? placeholder)));
}

/**
 * The published body in full: `{payload: {event, data: {id, operation, last_updated_at}}}`,
 * `operation` being `<event>_<created|updated|deleted>`. Real deliveries have carried
 * `last_updated_at: false`, so a reader accepts that. Loose: a sender may add fields.
 */
export const PublishedBody = z.looseObject({
  payload: z.looseObject({
    event: z.string().min(1),
    data: z.looseObject({
      id: z.union([z.number().int(), z.bigint(), z.string().min(1)]),
      operation: z.string().regex(/^[a-z_]+_(created|updated|deleted)$/),
      last_updated_at: z.union([z.number(), z.literal(false)]),
    }),
  }),
});

/** What a notification names, read by its form (null where it names nothing readable). */
export interface NotificationReading {
  /** The resource's ID, as text (`12` and `"12"` are the same ID). */
  readonly id: string | null;
  readonly operation: string | null;
  readonly event: string | null;
}

/** A body read by its form: what it names, and whether it has the form's shape (else why not). */
export interface ReadNotification {
  readonly names: NotificationReading;
  readonly shape: { readonly ok: true } | { readonly ok: false; readonly why: string };
}

/** Reads a notification's JSON body by `form`: its ID, operation and category, and what of the form it lacks. */
export function readNotification(form: NotificationForm, json: unknown): ReadNotification {
  const id = resolvePointer(json, form.id);
  const operation = resolvePointer(json, form.operation.at);
  const event = form.event ? resolvePointer(json, form.event.at) : undefined;
  const names: NotificationReading = {
    id: (typeof id === 'number' && Number.isFinite(id)) || typeof id === 'bigint' || (typeof id === 'string' && id !== '') ? String(id) : null,
    operation: typeof operation === 'string' ? operation : null,
    event: typeof event === 'string' ? event : null,
  };
  const problems: string[] = [];
  if (hasPublishedBody(form)) {
    const parsed = PublishedBody.safeParse(json);
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`));
  } else {
    if (names.id === null) problems.push(`${form.id}: no ID (a number or a non-empty string)`);
    if (names.operation === null) problems.push(`${form.operation.at}: no operation (a string)`);
    if (form.event && names.event === null) problems.push(`${form.event.at}: no event (a string)`);
  }
  return { names, shape: problems.length === 0 ? { ok: true } : { ok: false, why: problems.join('; ') } };
}

/**
 * The body of a notification that `category` record `id` was `change`d, in `form`; a published body's
 * `last_updated_at` is `lastUpdatedAt` (a Unix time, or false).
 */
export function notificationBody(form: NotificationForm, category: string, id: number | string | bigint, change: ChangeKind, lastUpdatedAt: number | false): unknown {
  if (hasPublishedBody(form)) {
    return { payload: { event: category, data: { id, operation: formValue(form.operation.value, category, change), last_updated_at: lastUpdatedAt } } };
  }
  const body: Record<string, unknown> = {};
  setPointer(body, form.id, id);
  setPointer(body, form.operation.at, formValue(form.operation.value, category, change));
  if (form.event) setPointer(body, form.event.at, formValue(form.event.value, category));
  return body;
}

/** The MAC of `content` under `secret`, as the scheme writes it (without its prefix). */
function mac(scheme: SignatureScheme, secret: string, content: string): Buffer {
  return createHmac(scheme.algorithm, secret).update(content).digest();
}

/** What the scheme signs, for this timestamp and body. */
export function signedContent(scheme: SignatureScheme, timestamp: string, body: string): string {
  // One pass, and replacer functions: a `$&` in a body is text, and a `{timestamp}` in a body stays as sent.
  return scheme.signed.replace(/\{timestamp\}|\{body\}/g, (placeholder) => (placeholder === '{body}' ? body : timestamp));
}

/** The signature header's value: `prefix` + the MAC of the signed content. */
export function signatureValue(scheme: SignatureScheme, secret: string, content: string): string {
  return scheme.prefix + mac(scheme, secret, content).toString(scheme.encoding);
}

/** The headers that sign a notification sent at `timestampSeconds` (Unix time) in the scheme. */
export function signatureHeaders(scheme: SignatureScheme, secret: string, timestampSeconds: number, body: string): Record<string, string> {
  const timestamp = String(timestampSeconds);
  return {
    ...(scheme.timestamp_header ? { [scheme.timestamp_header]: timestamp } : {}),
    [scheme.header]: signatureValue(scheme, secret, signedContent(scheme, timestamp, body)),
  };
}

export type SignatureCheck = { readonly ok: true } | { readonly ok: false; readonly why: string };

/**
 * Whether a delivery is signed with `secret` in `scheme`: the MAC compared in constant time, and the
 * timestamp (when the scheme has one) a Unix time within `toleranceSeconds` of `nowMs`, so a replayed
 * or delayed delivery fails. A 13-digit timestamp is read as milliseconds.
 */
export function verifySignature(
  scheme: SignatureScheme,
  secret: string,
  delivery: { readonly header: (name: string) => string | undefined; readonly body: string },
  nowMs: number,
  toleranceSeconds = 300,
): SignatureCheck {
  let timestamp = '';
  if (scheme.timestamp_header) {
    const given = delivery.header(scheme.timestamp_header);
    if (given === undefined) return { ok: false, why: `no ${scheme.timestamp_header} header` };
    if (!/^\d{1,13}$/.test(given)) return { ok: false, why: `${scheme.timestamp_header} is not a Unix time` };
    const seconds = given.length === 13 ? Number(given) / 1000 : Number(given);
    const skew = Math.abs(nowMs / 1000 - seconds);
    if (skew > toleranceSeconds) return { ok: false, why: `${scheme.timestamp_header} is ${Math.round(skew)} s away from now (tolerance ${toleranceSeconds} s)` };
    timestamp = given;
  }
  const signature = delivery.header(scheme.header);
  if (signature === undefined) return { ok: false, why: `no ${scheme.header} header` };
  const expected = mac(scheme, secret, signedContent(scheme, timestamp, delivery.body));
  const given = decodeMac(scheme, signature);
  if (given === null || given.length !== expected.length || !timingSafeEqual(expected, given)) {
    return { ok: false, why: `${scheme.header} does not match ${describeSigned(scheme)}` };
  }
  return { ok: true };
}

/** The MAC a header value carries, or null when it is not `prefix` + a MAC in the scheme's encoding. */
function decodeMac(scheme: SignatureScheme, value: string): Buffer | null {
  if (!value.startsWith(scheme.prefix)) return null;
  const text = value.slice(scheme.prefix.length).trim();
  const valid = scheme.encoding === 'hex' ? /^(?:[0-9a-fA-F]{2}){1,64}$/ : /^[A-Za-z0-9+/]{2,128}={0,2}$/;
  return valid.test(text) ? Buffer.from(text, scheme.encoding) : null;
}

/** "the HMAC-SHA256 of x-webhook-timestamp + body", for a reason. */
export function describeSigned(scheme: SignatureScheme): string {
  const content = scheme.signed
    .split(/(\{timestamp\}|\{body\})/)
    .filter((part) => part !== '')
    .map((part) => (part === '{timestamp}' ? scheme.timestamp_header! : part === '{body}' ? 'body' : JSON.stringify(part)))
    .join(' + ');
  return `the HMAC-${scheme.algorithm.toUpperCase()} of ${content}`;
}
