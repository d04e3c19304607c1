import { errorBody, type ApiError, type ApiResponse } from './http/api-response.ts';
import { laravelRecord } from './laravel-records.ts';
import { NotificationForm, PUBLISHED_FORM } from '../contract/webhook-notification.ts';

import type { RecordKind } from './record-kind.ts';

/**
 * How the reference server answers where the spec says "not shown": status codes, envelopes,
 * record shapes, error bodies, page_size above 100, link query strings, sort name spellings, the
 * form of webhook notifications, and the two readings the spec leaves open (USR-EMAIL-FORMAT,
 * USR-EDIT-REQUIRED).
 * `standard` is the reference's own choice; `alternative` makes the other valid choice everywhere,
 * so the harness can prove it does not fail a conforming server that chose differently; `laravel`
 * answers as the real service behind the spec does, in representations a strict reader rejects;
 * `bare` answers as many REST frameworks do: the bare record with a Location, RFC 9457 problems.
 */
export interface Dialect {
  readonly name: DialectName;
  /** The answer to a create of a resource whose record the spec does not show. */
  created(kind: RecordKind, record: Record<string, unknown>, message: string): ApiResponse;
  /** The answer to an update (PUT). */
  updated(kind: RecordKind, record: Record<string, unknown>, message: string): ApiResponse;
  /** A record as listed. */
  record(kind: RecordKind, record: Record<string, unknown>): Record<string, unknown>;
  /** §4.4: `{items, message}` with one break in `items` (an object or a one-element array). */
  breakCreated(item: Record<string, unknown>, message: string | null): ApiResponse;
  /** A list body: §2.5's block under meta_data; breaks keep `items` (§4.4), other lists may not. */
  list(kind: RecordKind | 'break', page: { meta_data: unknown; items: unknown[] }): unknown;
  /** An error answer (status and body). */
  error(error: ApiError): ApiResponse;
  /** §8: a page_size above 100 is clamped or rejected. */
  readonly pageSizeOverMax: 'clamp' | 'reject';
  /** Whether pagination links repeat the request's other query parameters. */
  readonly linksKeepQuery: boolean;
  /**
   * The sort name spellings accepted: `camel` as §4.2 shows them (firstName), `snake` as the records
   * are stored (first_name), or `both`. One-word names (id, email) are the same in either.
   */
  readonly sortNames: 'camel' | 'snake' | 'both';
  /** USR-EMAIL-FORMAT (§2.2, not shown): whether POST and PUT /users reject an `email` that is not an address. */
  readonly emailFormat: 'validated' | 'not-validated';
  /**
   * USR-EDIT-REQUIRED (§4.2, which statement governs is not shown): `all-four` rejects a PUT /users/{id}
   * without first_name, last_name, email or password; `none` takes any subset (a partial update).
   */
  readonly editRequires: 'all-four' | 'none';
  /** §6 (payload, signature: not shown): the form of its webhook notifications. */
  readonly notificationForm: NotificationForm;
  /** The published body's `last_updated_at` in a notification of a create: the Unix time, or `false` as real deliveries have carried it. */
  readonly createdLastUpdatedAt: 'time' | false;
}

export type DialectName = 'standard' | 'alternative' | 'laravel' | 'bare';

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const camelKeys = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [camel(k), v]));

/** 201 `{items, message}` on create, 422 with field errors, clamping, links with the full query, e-mails validated, partial edits. */
export const STANDARD_DIALECT: Dialect = {
  name: 'standard',
  created: (_kind, record, message) => ({ status: 201, body: { items: record, message } }),
  updated: (_kind, record, message) => ({ status: 200, body: { items: record, message } }),
  record: (_kind, record) => record,
  breakCreated: (item, message) => ({ status: 201, body: message === null ? { items: item } : { items: item, message } }),
  list: (_kind, page) => page,
  error: (error) => ({ status: error.status, body: errorBody(error) }),
  pageSizeOverMax: 'clamp',
  linksKeepQuery: true,
  sortNames: 'both',
  emailFormat: 'validated',
  editRequires: 'none',
  notificationForm: PUBLISHED_FORM,
  createdLastUpdatedAt: 'time',
};

/**
 * The alternative dialect's notifications: `{"type": "users.created", "data": {"id": 12}}`, signed
 * as many senders sign (GitHub's form): `x-signature-256: sha256=<hex HMAC-SHA256 of the body>`, no timestamp.
 */
export const ALTERNATIVE_NOTIFICATION_FORM: NotificationForm = NotificationForm.parse({
  id: '/data/id',
  operation: { at: '/type', value: '{event}.{change}' },
  event: null,
  signature: { header: 'x-signature-256', timestamp_header: null, signed: '{body}', prefix: 'sha256=' },
});

const ALTERNATIVE_STATUS: Readonly<Record<number, number>> = { 422: 400, 401: 403 };

/**
 * 200 `{data}` on create with camelCase records, 400 `{error: {...}}` for validation, 403 for a bad
 * token, `items` of a created break as a one-element array, page_size above 100 rejected, links
 * with `?page=N` only, camelCase sort names only, any e-mail string accepted, all four fields
 * required on edit, notifications in ALTERNATIVE_NOTIFICATION_FORM.
 */
export const ALTERNATIVE_DIALECT: Dialect = {
  name: 'alternative',
  created: (kind, record) => ({ status: 200, body: { data: kind === 'webhook' ? record : camelKeys(record) } }),
  updated: (kind, record) => ({ status: 200, body: { data: kind === 'webhook' ? record : camelKeys(record) } }),
  record: (_kind, record) => camelKeys(record),
  breakCreated: (item, message) => ({ status: 200, body: message === null ? { items: [item] } : { items: [item], message } }),
  list: (kind, page) => (kind === 'break' ? page : { meta_data: page.meta_data, data: page.items }),
  error: (error) => ({
    status: ALTERNATIVE_STATUS[error.status] ?? error.status,
    body: { error: { code: `E${error.status}`, detail: error.message, fields: error.violations.map((v) => v.field) } },
  }),
  pageSizeOverMax: 'reject',
  linksKeepQuery: false,
  sortNames: 'camel',
  emailFormat: 'not-validated',
  editRequires: 'all-four',
  notificationForm: ALTERNATIVE_NOTIFICATION_FORM,
  createdLastUpdatedAt: 'time',
};

/**
 * As the Laravel service behind the spec answers: 200 `{items, message}` on create and update with
 * records as its database reads them back (1/0 flags, "15.00" pay rates, timesheets with wall-clock
 * `clock_in_time`/`clock_out_time` and a "H:MM" duration; see laravel-records.ts), a created break
 * with 200, the standard's error bodies, page_size above 100 clamped, links with `?page=N` only,
 * snake_case sort names only, e-mails validated, partial edits, notifications in the published
 * form with `last_updated_at: false` on a create.
 */
export const LARAVEL_DIALECT: Dialect = {
  name: 'laravel',
  created: (kind, record, message) => ({ status: 200, body: { items: laravelRecord(kind, record), message } }),
  updated: (kind, record, message) => ({ status: 200, body: { items: laravelRecord(kind, record), message } }),
  record: laravelRecord,
  breakCreated: (item, message) => ({ ...STANDARD_DIALECT.breakCreated(item, message), status: 200 }),
  list: (_kind, page) => page,
  error: STANDARD_DIALECT.error,
  pageSizeOverMax: 'clamp',
  linksKeepQuery: false,
  sortNames: 'snake',
  emailFormat: 'validated',
  editRequires: 'none',
  notificationForm: PUBLISHED_FORM,
  createdLastUpdatedAt: false,
};

/** RFC 9457's media type for a problem details body. */
const PROBLEM_JSON = 'application/problem+json';

/** The problem type of each refusal, by status (RFC 9457 `type`; `about:blank` where the status says it all). */
const PROBLEM_TYPES: Readonly<Record<number, string>> = {
  400: 'https://reference.clockcheck.invalid/problems/malformed-request',
  404: 'about:blank',
  422: 'https://reference.clockcheck.invalid/problems/validation',
};

/**
 * As many REST frameworks answer: 201 with the bare record (camelCase) and a `Location` header on
 * the create of a user, schedule or timesheet, 200 with the bare record on update; a created break
 * in §4.4's `{items, message}` all the same (the spec fixes it); errors as RFC 9457 problem details
 * (`application/problem+json`: type, title, status, detail, instance, and `errors` per field), 422
 * for validation; lists `{meta_data, items}` of camelCase records, page_size above 100 rejected,
 * links with the full query, camelCase sort names only, e-mails validated, partial edits, the
 * published notification form.
 */
export const BARE_DIALECT: Dialect = {
  name: 'bare',
  created: (kind, record) => ({
    status: 201,
    body: kind === 'webhook' ? record : camelKeys(record),
    ...(kind === 'webhook' ? {} : { headers: { location: `/api/public/${kind}s/${String(record.id)}` } }),
  }),
  updated: (kind, record) => ({ status: 200, body: kind === 'webhook' ? record : camelKeys(record) }),
  record: (_kind, record) => camelKeys(record),
  breakCreated: (item, message) => ({ status: 201, body: message === null ? { items: item } : { items: item, message } }),
  list: (_kind, page) => page,
  error: (error) => ({
    status: error.status,
    headers: { 'content-type': PROBLEM_JSON },
    body: {
      type: PROBLEM_TYPES[error.status] ?? 'about:blank',
      title: error.status === 422 ? 'Validation failed' : error.message,
      status: error.status,
      detail: error.message,
      ...(error.violations.length > 0 ? { errors: error.violations.map((v) => ({ pointer: `/${v.field}`, detail: v.message })) } : {}),
    },
  }),
  pageSizeOverMax: 'reject',
  linksKeepQuery: true,
  sortNames: 'camel',
  emailFormat: 'validated',
  editRequires: 'none',
  notificationForm: PUBLISHED_FORM,
  createdLastUpdatedAt: 'time',
};

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = { standard: STANDARD_DIALECT, alternative: ALTERNATIVE_DIALECT, laravel: LARAVEL_DIALECT, bare: BARE_DIALECT };

/** The dialect names, in the order a usage text lists them. */
export const DIALECT_NAMES = Object.keys(DIALECTS) as readonly DialectName[];

/** True when `name` names a dialect (for resolving `--dialect` at the CLI boundary). */
export function isDialectName(name: string): name is DialectName {
  return Object.hasOwn(DIALECTS, name);
}
