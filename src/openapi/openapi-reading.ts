import { UsageError } from '../errors.ts';
import { PUBLISHED_FORM, type NotificationForm } from '../contract/webhook-notification.ts';
import type { Profile } from '../profile/profile.ts';
import { parentPointer } from '../contract/json-pointer.ts';

/** What a status answers, as the profile's `status_codes` names them. */
export type StatusKind = 'create' | 'update' | 'list' | 'delete' | 'validation' | 'unauthenticated';

/** Where the records the spec does not show are, and how their fields are spelled (a profile's reading). */
export interface RecordReading {
  /** The created record in a create response, as a JSON pointer (`/items` for `id_pointer: /items/id`; `` for the whole body). */
  readonly created: string | null;
  /** The items of a list the spec does not show (GET /users, /timesheets), as a JSON pointer. */
  readonly listItems: string | null;
  /** `snake` (first_name), `camel` (firstName) or `auto` (either spelling). */
  readonly fields: Profile['record_fields'];
}

/**
 * The readings one OpenAPI document is written to: the spec's weakest sound reading where it says
 * "not shown" (WEAKEST_READING), or a server's own, from its profile (`openapi --profile`), so a
 * schema tells that server's faults from its choices. Resolved once, at the command's boundary.
 */
export interface OpenApiReading {
  /** Whether a profile made this reading (descriptions say "as the profile declares"). */
  readonly profiled: boolean;
  /** The literal codes each kind of answer may have; several where the reading leaves it open. */
  readonly statuses: Readonly<Record<StatusKind, readonly number[]>>;
  /** The server the document names (`{base_url}` + the API prefix); null keeps the spec's `{base_url}` variable. */
  readonly serverUrl: string | null;
  /** Where the records are; null where nothing locates them (no profile, or a profile without the pointers). */
  readonly records: RecordReading | null;
  readonly userEmailFormat: Profile['user_email_format'];
  readonly userEditRequired: Profile['user_edit_required'];
  readonly pageSizeOverMax: Profile['page_size_over_max'];
  /** The company timezone, when known: request examples then rely on it instead of naming their timezones. */
  readonly companyTimezone: string | null;
  /** IDs and a timesheet the target holds, for request examples a server accepts; empty without a profile. */
  readonly fixtures: Profile['fixtures'];
  /** The form of webhook notifications (§6). */
  readonly notification: NotificationForm;
}

/**
 * The spec's weakest sound reading, as literal codes: a creation answers 200 or 201, an update 200
 * or 204, a list 200, a delete 200 or 204 (§7: success codes not shown; these are what HTTP gives
 * each method); a validation failure 400 or 422, a refused token 401 or 403 (§7: not shown).
 */
export const WEAKEST_READING: OpenApiReading = {
  profiled: false,
  statuses: { create: [200, 201], update: [200, 204], list: [200], delete: [200, 204], validation: [400, 422], unauthenticated: [401, 403] },
  serverUrl: null,
  records: null,
  userEmailFormat: 'either',
  userEditRequired: 'either',
  pageSizeOverMax: 'either',
  companyTimezone: null,
  fixtures: {},
  notification: PUBLISHED_FORM,
};

/**
 * The server URL of `--target` (else the profile's `target`): its origin and the profile's API
 * prefix. HTTPS only (§1), without a path.
 * @throws UsageError naming what to fix.
 */
export function serverUrlOf(target: string, apiPrefix: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new UsageError(`--target "${target}" is not a URL; give the base URL, e.g. https://api.example.com`);
  }
  if (url.protocol !== 'https:') throw new UsageError(`--target must be https://host[:port] (the spec serves the API over HTTPS only, §1), got ${url.protocol}`);
  if (url.pathname !== '/' && url.pathname !== '') throw new UsageError(`--target is the base URL (scheme, host, port); ${apiPrefix} is added: drop "${url.pathname}"`);
  return `${url.origin}${apiPrefix.replace(/\/+$/, '')}`;
}

/** The records' location from the profile's pointers; null when it gives neither. */
function recordReading(profile: Profile): RecordReading | null {
  if (profile.id_pointer === undefined && profile.list_items === undefined) return null;
  const created = profile.id_pointer === undefined ? null : parentPointer(profile.id_pointer);
  return { created, listItems: profile.list_items ?? null, fields: profile.record_fields };
}

/** Each kind's codes: the profile's one code, else the weakest reading's. */
function statusesOf(profile: Profile): OpenApiReading['statuses'] {
  const declared = profile.status_codes;
  const pick = (kind: StatusKind) => (declared[kind] === undefined ? WEAKEST_READING.statuses[kind] : [declared[kind]]);
  return { create: pick('create'), update: pick('update'), list: pick('list'), delete: pick('delete'), validation: pick('validation'), unauthenticated: pick('unauthenticated') };
}

/**
 * The reading of a document: the profile's (when given) and the server of `target` (else the
 * profile's target); without either, WEAKEST_READING with the spec's `{base_url}`.
 * @throws UsageError for a target that is not an HTTPS base URL.
 */
export function openApiReading(profile: Profile | undefined, target: string | undefined): OpenApiReading {
  const base = target ?? profile?.target;
  const serverUrl = base === undefined ? null : serverUrlOf(base, profile?.api_prefix ?? '/api/public');
  if (!profile) return { ...WEAKEST_READING, serverUrl };
  return {
    profiled: true,
    statuses: statusesOf(profile),
    serverUrl,
    records: recordReading(profile),
    userEmailFormat: profile.user_email_format,
    userEditRequired: profile.user_edit_required,
    pageSizeOverMax: profile.page_size_over_max,
    companyTimezone: profile.company_timezone,
    fixtures: profile.fixtures,
    notification: profile.webhook?.notification ?? PUBLISHED_FORM,
  };
}
