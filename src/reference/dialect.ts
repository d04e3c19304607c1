import { errorBody, type ApiError, type ApiResponse } from './http/api-response.ts';

/** Resources whose records the spec does not show (§2.1, §2.2, §2.3, §2.6). */
export type RecordKind = 'user' | 'schedule' | 'timesheet' | 'webhook';

/**
 * How the reference server answers where the spec says "not shown": status codes, envelopes,
 * record shapes, error bodies, page_size above 100, link query strings, sort name spellings.
 * `standard` is the reference's own choice; `alternative` makes the other valid choice everywhere,
 * so the harness can prove it does not fail a conforming server that chose differently.
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
  /** Whether sort accepts snake_case names besides the camelCase that §4.2 shows. */
  readonly snakeSortNames: boolean;
}

export type DialectName = 'standard' | 'alternative';

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const camelKeys = (record: Record<string, unknown>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [camel(k), v]));

/** 201 `{items, message}` on create, 422 with field errors, clamping, links with the full query. */
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
  snakeSortNames: true,
};

const ALTERNATIVE_STATUS: Readonly<Record<number, number>> = { 422: 400, 401: 403 };

/**
 * 200 `{data}` on create with camelCase records, 400 `{error: {...}}` for validation, 403 for a bad
 * token, `items` of a created break as a one-element array, page_size above 100 rejected, links
 * with `?page=N` only, camelCase sort names only.
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
  snakeSortNames: false,
};

export const DIALECTS: Readonly<Record<DialectName, Dialect>> = { standard: STANDARD_DIALECT, alternative: ALTERNATIVE_DIALECT };
